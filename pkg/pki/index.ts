export { ensureFrontProxyPki, ensureMetricsServerPki, ensurePki, type CertKeyPaths, type EnsurePkiOptions, type FrontProxyPaths, type MetricsServerPaths, type PkiPaths } from './ensure-pki.js';
export { writeKubeconfig, kubeconfigYaml, type KubeconfigOptions } from './kubeconfig.js';
export { certificateRequestPem, createCa, issueCertificate, type CertificateAuthority, type IssuedPair, type LeafRequest, type Subject } from './certificates.js';
