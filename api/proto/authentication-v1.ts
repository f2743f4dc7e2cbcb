// Protobuf field numbers of authentication/v1 messages, by definition name. Generated; see ./index.ts.
import type { ProtoFields } from './types.js';

export const authenticationV1: ProtoFields = {
  'io.k8s.api.authentication.v1.BoundObjectReference': { 1: 'kind', 2: 'apiVersion', 3: 'name', 4: 'uid' },
  'io.k8s.api.authentication.v1.TokenRequest': { 1: 'metadata', 2: 'spec', 3: 'status' },
  'io.k8s.api.authentication.v1.TokenRequestSpec': { 1: 'audiences', 3: 'boundObjectRef', 4: 'expirationSeconds*' },
  'io.k8s.api.authentication.v1.TokenRequestStatus': { 1: 'token*', 2: 'expirationTimestamp' },
};
