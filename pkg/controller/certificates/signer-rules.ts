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
}

export function factsOf(csr: x509.Pkcs10CertificateRequest, SanExtension: typeof x509.SubjectAlternativeNameExtension): CsrFacts {
  const raw = csr.getExtension('2.5.29.17');
  const names = raw ? new SanExtension(raw.rawData).names.items : [];
  const of = (type: string): string[] => names.filter((n) => n.type === type).map((n) => n.value);
  return {
    commonName: csr.subjectName.getField('CN')[0] ?? '',
    organizations: csr.subjectName.getField('O'),
    dnsNames: of('dns'), ipAddresses: of('ip'), emailAddresses: of('email'), uris: of('url'),
  };
}

/** The usages a kubelet signer takes: exactly these, or these without key encipherment (whatever the key). */
const exactUsages = (usages: string[], last: 'client auth' | 'server auth'): string | undefined => {
  const want = ['digital signature', 'key encipherment', last];
  const got = new Set(usages);
  const matches = (set: string[]): boolean => set.length === got.size && set.every((u) => got.has(u));
  if (matches(want) || matches(want.filter((u) => u !== 'key encipherment'))) return undefined;
  return `usages did not match [${[...want].sort().join(' ')}]`; // as Go prints a sorted set's List()
};

const NODES = 'subject organization is not system:nodes';
const NODE_CN = 'subject common name does not begin with system:node:';
const isNodes = (f: CsrFacts): boolean => f.organizations.length === 1 && f.organizations[0] === 'system:nodes';

/**
 * Why the signer refuses this request (upstream's SignerValidationFailure message), or undefined. The kubelet
 * signers check in upstream's order: the client one its subject, SANs, common name, usages; the serving one its
 * subject, SANs, usages, common name.
 */
export function signerRefusal(signerName: string, usages: string[], f: CsrFacts): string | undefined {
  switch (signerName) {
    case 'kubernetes.io/kube-apiserver-client': {
      const bad = usages.find((u) => !['digital signature', 'key encipherment', 'client auth'].includes(u));
      if (bad !== undefined) return `invalid usage for client certificate: ${bad}`;
      return usages.includes('client auth') ? undefined : 'missing required usage for client certificate: client auth';
    }
    case 'kubernetes.io/kube-apiserver-client-kubelet': {
      if (!isNodes(f)) return NODES;
      if (f.dnsNames.length) return 'DNS subjectAltNames are not allowed';
      if (f.emailAddresses.length) return 'Email subjectAltNames are not allowed';
      if (f.ipAddresses.length) return 'IP subjectAltNames are not allowed';
      if (f.uris.length) return 'URI subjectAltNames are not allowed';
      if (!f.commonName.startsWith('system:node:')) return NODE_CN;
      return exactUsages(usages, 'client auth');
    }
    case 'kubernetes.io/kubelet-serving': {
      if (!isNodes(f)) return NODES;
      if (!f.dnsNames.length && !f.ipAddresses.length) return 'DNS or IP subjectAltName is required';
      if (f.emailAddresses.length) return 'Email subjectAltNames are not allowed';
      if (f.uris.length) return 'URI subjectAltNames are not allowed';
      return exactUsages(usages, 'server auth') ?? (f.commonName.startsWith('system:node:') ? undefined : NODE_CN);
    }
    default:
      return undefined;
  }
}
