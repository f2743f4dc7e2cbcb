// What each Kubernetes signer accepts (upstream pkg/controller/certificates/signer/signer.go and
// pkg/apis/certificates/helpers.go): usages allowed and required, and the subject the kubelet signers insist on.
import type { x509 } from '../../pki/csr-signing.js';

export const KUBERNETES_SIGNERS = [
  'kubernetes.io/kube-apiserver-client', 'kubernetes.io/kube-apiserver-client-kubelet', 'kubernetes.io/kubelet-serving',
  'kubernetes.io/legacy-unknown',
];

export interface CsrFacts {
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
  rsa: boolean;
}

export function factsOf(csr: x509.Pkcs10CertificateRequest, SanExtension: typeof x509.SubjectAlternativeNameExtension): CsrFacts {
  const raw = csr.getExtension('2.5.29.17');
  const names = raw ? new SanExtension(raw.rawData).names.items : [];
  const of = (type: string): string[] => names.filter((n) => n.type === type).map((n) => n.value);
  return {
    commonName: csr.subjectName.getField('CN')[0] ?? '',
    organizations: csr.subjectName.getField('O'),
    dnsNames: of('dns'), ipAddresses: of('ip'), emailAddresses: of('email'), uris: of('url'),
    rsa: csr.publicKey.algorithm.name.startsWith('RSA'),
  };
}

const usageProblem = (usages: string[], allowed: string[], required: string): string | undefined => {
  const bad = usages.filter((u) => !allowed.includes(u));
  if (bad.length) return `invalid usage for client certificate: ${bad[0]}`;
  if (!usages.includes(required)) return `missing required usage: ${required}`;
  return undefined;
};

/** Why the signer refuses this request (upstream's SignerValidationFailure message), or undefined. */
export function signerRefusal(signerName: string, usages: string[], f: CsrFacts): string | undefined {
  switch (signerName) {
    case 'kubernetes.io/kube-apiserver-client':
      return usageProblem(usages, ['digital signature', 'key encipherment', 'client auth'], 'client auth');
    case 'kubernetes.io/kube-apiserver-client-kubelet': {
      if (f.organizations.length !== 1 || f.organizations[0] !== 'system:nodes') return 'subject organization is not system:nodes';
      if (!f.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
      if (f.dnsNames.length || f.emailAddresses.length || f.ipAddresses.length || f.uris.length) return 'DNS, email, IP and URI subjectAltNames are not allowed';
      return usageProblem(usages, f.rsa ? ['digital signature', 'key encipherment', 'client auth'] : ['digital signature', 'client auth'], 'client auth');
    }
    case 'kubernetes.io/kubelet-serving': {
      if (f.organizations.length !== 1 || f.organizations[0] !== 'system:nodes') return 'subject organization is not system:nodes';
      if (!f.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
      if (f.emailAddresses.length || f.uris.length) return 'email and URI subjectAltNames are not allowed';
      if (!f.dnsNames.length && !f.ipAddresses.length) return 'DNS or IP subjectAltName is required';
      const bad = usages.filter((u) => !(f.rsa ? ['digital signature', 'key encipherment', 'server auth'] : ['digital signature', 'server auth']).includes(u));
      if (bad.length) return `invalid usage for serving certificate: ${bad[0]}`;
      return usages.includes('server auth') ? undefined : 'missing required usage: server auth';
    }
    default:
      return undefined;
  }
}
