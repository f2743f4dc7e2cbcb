// The Kubernetes release mini-kube serves and whose components it stands for: the apiserver's /version, the
// components' user agents, the kubelet's reported version and its probes' user agent all say it.
export const KUBERNETES_RELEASE = 'v1.32.3';

const [, MAJOR = '', MINOR = ''] = /^v(\d+)\.(\d+)\./.exec(KUBERNETES_RELEASE) ?? [];
export const RELEASE_MAJOR = MAJOR;
export const RELEASE_MINOR = MINOR;
