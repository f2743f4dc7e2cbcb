// Protobuf field numbers of certificates.k8s.io/v1 messages, by definition name (k8s.io/api certificates/v1 generated.proto).
import type { ProtoFields } from './types.js';

const C = 'io.k8s.api.certificates.v1.';

export const certificatesV1: ProtoFields = {
  [`${C}CertificateSigningRequest`]: { 1: 'metadata', 2: 'spec', 3: 'status' },
  [`${C}CertificateSigningRequestList`]: { 1: 'metadata', 2: 'items' },
  [`${C}CertificateSigningRequestSpec`]: { 1: 'request', 2: 'username', 3: 'uid', 4: 'groups', 5: 'usages', 6: 'extra', 7: 'signerName*', 8: 'expirationSeconds*' },
  [`${C}CertificateSigningRequestStatus`]: { 1: 'conditions', 2: 'certificate' },
  [`${C}CertificateSigningRequestCondition`]: { 1: 'type*', 2: 'reason', 3: 'message', 4: 'lastUpdateTime', 5: 'lastTransitionTime', 6: 'status*' },
};
