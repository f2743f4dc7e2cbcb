// Protobuf field numbers of rbac/v1 messages, by definition name. Generated; see ./index.ts.
import type { ProtoFields } from './types.js';

export const rbacV1: ProtoFields = {
  'io.k8s.api.rbac.v1.AggregationRule': { 1: 'clusterRoleSelectors' },
  'io.k8s.api.rbac.v1.ClusterRole': { 1: 'metadata', 2: 'rules', 3: 'aggregationRule' },
  'io.k8s.api.rbac.v1.ClusterRoleBinding': { 1: 'metadata', 2: 'subjects', 3: 'roleRef' },
  'io.k8s.api.rbac.v1.ClusterRoleBindingList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.rbac.v1.ClusterRoleList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.rbac.v1.PolicyRule': {
    1: 'verbs', 2: 'apiGroups', 3: 'resources', 4: 'resourceNames', 5: 'nonResourceURLs',
  },
  'io.k8s.api.rbac.v1.Role': { 1: 'metadata', 2: 'rules' },
  'io.k8s.api.rbac.v1.RoleBinding': { 1: 'metadata', 2: 'subjects', 3: 'roleRef' },
  'io.k8s.api.rbac.v1.RoleBindingList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.rbac.v1.RoleList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.rbac.v1.RoleRef': { 1: 'apiGroup*', 2: 'kind*', 3: 'name*' },
  'io.k8s.api.rbac.v1.Subject': { 1: 'kind*', 2: 'apiGroup', 3: 'name*', 4: 'namespace' },
};
