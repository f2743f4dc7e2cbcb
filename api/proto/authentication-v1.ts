// Protobuf field numbers of authentication/v1 messages, by definition name. Generated; see ./index.ts.
import type { ProtoFields } from './types.js';

export const authenticationV1: ProtoFields = {
  'io.k8s.api.authentication.v1.BoundObjectReference': { 1: 'kind', 2: 'apiVersion', 3: 'name', 4: 'uid' },
  'io.k8s.api.authentication.v1.SelfSubjectReview': { 1: 'metadata', 2: 'status' },
  'io.k8s.api.authentication.v1.SelfSubjectReviewStatus': { 1: 'userInfo' },
  'io.k8s.api.authentication.v1.TokenRequest': { 1: 'metadata', 2: 'spec', 3: 'status' },
  'io.k8s.api.authentication.v1.TokenRequestSpec': { 1: 'audiences', 3: 'boundObjectRef', 4: 'expirationSeconds*' },
  'io.k8s.api.authentication.v1.TokenRequestStatus': { 1: 'token*', 2: 'expirationTimestamp' },
  'io.k8s.api.authentication.v1.TokenReview': { 1: 'metadata', 2: 'spec', 3: 'status' },
  'io.k8s.api.authentication.v1.TokenReviewSpec': { 1: 'token', 2: 'audiences' },
  'io.k8s.api.authentication.v1.TokenReviewStatus': { 1: 'authenticated', 2: 'user', 3: 'error', 4: 'audiences' },
  'io.k8s.api.authentication.v1.UserInfo': { 1: 'username', 2: 'uid', 3: 'groups', 4: 'extra' },
};
