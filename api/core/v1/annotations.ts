// Annotations of core/v1 objects that mean something to the system (upstream: k8s.io/api/core/v1 annotation_key_constants.go).

/** On a mirror pod: the hash of the static pod it stands for (set by the kubelet at creation, never changed). */
export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
/** Per container: its AppArmor profile (the pre-1.30 way; fixed at creation). */
export const APPARMOR_CONTAINER_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
/** The pod's seccomp profile (deprecated for securityContext.seccompProfile since 1.19). */
export const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
/** Per container: its seccomp profile (deprecated likewise). */
export const SECCOMP_CONTAINER_ANNOTATION_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';
