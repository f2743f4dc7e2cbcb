// Roles, ClusterRoles and their bindings.
import { arr, kind, listKind, obj, ref, str, type Definitions } from '../../schema.js';

export const R = 'io.k8s.api.rbac.v1.';
const gvk = (k: string) => ({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: k });
const strings = (description: string) => arr(str(undefined, { default: '' }), description);
const rules = arr(ref(`${R}PolicyRule`), 'The permissions granted.');
const binding = (k: string, scope: string) => kind(gvk(k), {
  roleRef: ref(`${R}RoleRef`, 'The role granted; immutable.'),
  subjects: arr(ref(`${R}Subject`), 'Who the role is granted to.'),
}, `Grants the permissions of a role ${scope}.`, { required: ['roleRef'] });

export const definitions: Definitions = {
  [`${R}Role`]: kind(gvk('Role'), { rules }, 'Namespaced set of permissions.'),
  [`${R}RoleList`]: listKind(gvk('RoleList'), `${R}Role`),
  [`${R}ClusterRole`]: kind(gvk('ClusterRole'), {
    aggregationRule: ref(`${R}AggregationRule`, 'When set, rules are computed from the selected ClusterRoles.'),
    rules,
  }, 'Cluster-wide set of permissions.'),
  [`${R}ClusterRoleList`]: listKind(gvk('ClusterRoleList'), `${R}ClusterRole`),
  [`${R}RoleBinding`]: binding('RoleBinding', 'within a namespace'),
  [`${R}RoleBindingList`]: listKind(gvk('RoleBindingList'), `${R}RoleBinding`),
  [`${R}ClusterRoleBinding`]: binding('ClusterRoleBinding', 'cluster-wide'),
  [`${R}ClusterRoleBindingList`]: listKind(gvk('ClusterRoleBindingList'), `${R}ClusterRoleBinding`),
  [`${R}AggregationRule`]: obj({
    clusterRoleSelectors: arr(ref('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector'), 'Selectors of the ClusterRoles to aggregate.'),
  }, 'How a ClusterRole is aggregated from others.'),
  [`${R}PolicyRule`]: obj({
    apiGroups: strings('API groups the rule covers; "" is the core group, "*" all.'),
    nonResourceURLs: strings('Non-resource URLs the rule covers (ClusterRoles only).'),
    resourceNames: strings('Names of the objects the rule is restricted to.'),
    resources: strings('Resources the rule covers; "*" all.'),
    verbs: strings('Verbs allowed; "*" all.'),
  }, 'One permission: verbs on resources or URLs.', { required: ['verbs'] }),
  [`${R}RoleRef`]: obj({
    apiGroup: str('Group of the referenced role.', { default: '' }),
    kind: str('Role or ClusterRole.', { default: '' }),
    name: str('Name of the role.', { default: '' }),
  }, 'The role a binding grants.', { required: ['apiGroup', 'kind', 'name'], 'x-kubernetes-map-type': 'atomic' }),
  [`${R}Subject`]: obj({
    apiGroup: str('Group of the subject: "" for ServiceAccount, rbac.authorization.k8s.io for User and Group.'),
    kind: str('User, Group or ServiceAccount.', { default: '' }),
    name: str('Name of the subject.', { default: '' }),
    namespace: str('Namespace of a ServiceAccount subject.'),
  }, 'Who a binding applies to.', { required: ['kind', 'name'], 'x-kubernetes-map-type': 'atomic' }),
};
