// Protobuf field numbers of authorization/v1 messages, by definition name. Generated; see ./index.ts.
import type { ProtoFields } from './types.js';

export const authorizationV1: ProtoFields = {
  'io.k8s.api.authorization.v1.FieldSelectorAttributes': { 1: 'rawSelector' },
  'io.k8s.api.authorization.v1.LabelSelectorAttributes': { 1: 'rawSelector' },
  'io.k8s.api.authorization.v1.LocalSubjectAccessReview': { 1: 'metadata', 2: 'spec', 3: 'status' },
  'io.k8s.api.authorization.v1.NonResourceAttributes': { 1: 'path', 2: 'verb' },
  'io.k8s.api.authorization.v1.NonResourceRule': { 1: 'verbs', 2: 'nonResourceURLs' },
  'io.k8s.api.authorization.v1.ResourceAttributes': {
    1: 'namespace', 2: 'verb', 3: 'group', 4: 'version', 5: 'resource', 6: 'subresource', 7: 'name',
    8: 'fieldSelector', 9: 'labelSelector',
  },
  'io.k8s.api.authorization.v1.ResourceRule': { 1: 'verbs', 2: 'apiGroups', 3: 'resources', 4: 'resourceNames' },
  'io.k8s.api.authorization.v1.SelfSubjectAccessReview': { 1: 'metadata', 2: 'spec', 3: 'status' },
  'io.k8s.api.authorization.v1.SelfSubjectAccessReviewSpec': { 1: 'resourceAttributes', 2: 'nonResourceAttributes' },
  'io.k8s.api.authorization.v1.SelfSubjectRulesReview': { 1: 'metadata', 2: 'spec', 3: 'status' },
  'io.k8s.api.authorization.v1.SelfSubjectRulesReviewSpec': { 1: 'namespace' },
  'io.k8s.api.authorization.v1.SubjectAccessReview': { 1: 'metadata', 2: 'spec', 3: 'status' },
  'io.k8s.api.authorization.v1.SubjectAccessReviewSpec': {
    1: 'resourceAttributes', 2: 'nonResourceAttributes', 3: 'user', 4: 'groups', 5: 'extra', 6: 'uid',
  },
  'io.k8s.api.authorization.v1.SubjectAccessReviewStatus': {
    1: 'allowed*', 2: 'reason', 3: 'evaluationError', 4: 'denied',
  },
  'io.k8s.api.authorization.v1.SubjectRulesReviewStatus': {
    1: 'resourceRules', 2: 'nonResourceRules', 3: 'incomplete*', 4: 'evaluationError',
  },
};
