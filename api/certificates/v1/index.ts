// certificates.k8s.io/v1: CertificateSigningRequests (status written by signers, approval by approvers).
import { arr, bytes, enumStr, int32, kind, listKind, mapList, mapOf, obj, ref, str } from '../../schema.js';
import { ALL_VERBS, type GroupVersion } from '../../types.js';

const C = 'io.k8s.api.certificates.v1.';
const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const gvk = (k: string) => ({ group: 'certificates.k8s.io', version: 'v1', kind: k });
const sub = (name: string) => ({ name, group: 'certificates.k8s.io', version: 'v1', kind: 'CertificateSigningRequest', verbs: ['get', 'patch', 'update'] as ('get' | 'patch' | 'update')[] });

/** Upstream's KeyUsage values. */
export const KEY_USAGES = [
  'signing', 'digital signature', 'content commitment', 'key encipherment', 'key agreement', 'data encipherment',
  'cert sign', 'crl sign', 'encipher only', 'decipher only', 'any', 'server auth', 'client auth', 'code signing',
  'email protection', 's/mime', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'timestamping', 'ocsp signing',
  'microsoft sgc', 'netscape sgc',
];

export const groupVersion: GroupVersion = {
  group: 'certificates.k8s.io',
  version: 'v1',
  resources: [{
    group: 'certificates.k8s.io', version: 'v1', kind: 'CertificateSigningRequest', plural: 'certificatesigningrequests',
    singular: 'certificatesigningrequest', namespaced: false, verbs: ALL_VERBS, shortNames: ['csr'],
    subresources: [sub('approval'), sub('status')],
    definition: `${C}CertificateSigningRequest`,
  }],
  definitions: {
    [`${C}CertificateSigningRequest`]: kind(gvk('CertificateSigningRequest'), {
      spec: ref(`${C}CertificateSigningRequestSpec`, 'The certificate request; immutable after creation.'),
      status: ref(`${C}CertificateSigningRequestStatus`, 'Approval or denial, and the certificate once issued.'),
    }, 'Asks a signer for an X.509 certificate; issued once approved.', { required: ['spec'] }),
    [`${C}CertificateSigningRequestList`]: listKind(gvk('CertificateSigningRequestList'), `${C}CertificateSigningRequest`),
    [`${C}CertificateSigningRequestSpec`]: obj({
      expirationSeconds: int32('Requested validity of the certificate, at least 600.'),
      extra: mapOf(arr(str()), 'Extra attributes of the requesting user; set by the server.'),
      groups: arr(str(), 'Groups of the requesting user; set by the server.'),
      request: bytes('The PEM "CERTIFICATE REQUEST" block.'),
      signerName: str('The signer asked for (kubernetes.io/kube-apiserver-client, ...).', { default: '' }),
      uid: str('UID of the requesting user; set by the server.'),
      usages: arr(enumStr(KEY_USAGES), 'Key usages asked for in the certificate.'),
      username: str('Name of the requesting user; set by the server.'),
    }, 'The certificate request.', { required: ['request', 'signerName'] }),
    [`${C}CertificateSigningRequestStatus`]: obj({
      certificate: { ...bytes('The issued certificate (PEM), set by the signer through /status; immutable once set.'), 'x-kubernetes-list-type': 'atomic' },
      conditions: mapList(ref(`${C}CertificateSigningRequestCondition`), 'type', 'Approved, Denied and Failed conditions.'),
    }, 'State of a CertificateSigningRequest.'),
    [`${C}CertificateSigningRequestCondition`]: obj({
      lastTransitionTime: ref(`${M}Time`, 'When the condition last changed status.'),
      lastUpdateTime: ref(`${M}Time`, 'When the condition was last updated.'),
      message: str('Details of the request state.'),
      reason: str('Why the request is in this state.'),
      status: str('True, False or Unknown.', { default: '' }),
      type: str('Approved, Denied or Failed.', { default: '' }),
    }, 'One condition of a CertificateSigningRequest.', { required: ['type', 'status'] }),
  },
};
