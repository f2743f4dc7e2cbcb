// Upstream's bootstrap policy (plugin/pkg/auth/authorizer/rbac/bootstrappolicy, as of 1.32): the
// ClusterRoles, ClusterRoleBindings and kube-system/kube-public Roles a fresh cluster has. Facts only:
// names, labels, rules and subjects.
import type { KubeObject } from '../../../api/types.js';
import type { PolicyRule } from '../interface.js';
import { controllerRoleBindings, controllerRoles } from './controller-policy.js';
import { rule, urlRule } from './rules.js';

export const AUTOUPDATE = 'rbac.authorization.kubernetes.io/autoupdate';
const BOOTSTRAP_LABEL = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const RBAC = 'rbac.authorization.k8s.io';

export const READ = ['get', 'list', 'watch'];
export const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
export const READ_WRITE = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
export const EVENTS = rule(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']);

const AGG = (to: string): Record<string, string> => ({ [`rbac.authorization.k8s.io/aggregate-to-${to}`]: 'true' });

export function clusterRole(name: string, rules: PolicyRule[], extra: { labels?: Record<string, string>; aggregateFrom?: string } = {}): KubeObject {
  const role: KubeObject = {
    apiVersion: `${RBAC}/v1`, kind: 'ClusterRole',
    metadata: { name, labels: { ...BOOTSTRAP_LABEL, ...extra.labels }, annotations: { [AUTOUPDATE]: 'true' } },
    rules,
  };
  if (extra.aggregateFrom) role.aggregationRule = { clusterRoleSelectors: [{ matchLabels: AGG(extra.aggregateFrom) }] };
  return role;
}

export function role(namespace: string, name: string, rules: PolicyRule[]): KubeObject {
  return {
    apiVersion: `${RBAC}/v1`, kind: 'Role',
    metadata: { name, namespace, labels: { ...BOOTSTRAP_LABEL }, annotations: { [AUTOUPDATE]: 'true' } },
    rules,
  };
}

export type SubjectSpec = [kind: 'User' | 'Group' | 'ServiceAccount', name: string, namespace?: string];

const subjects = (list: SubjectSpec[]): Array<Record<string, string>> => list.map(([kind, name, namespace]): Record<string, string> =>
  kind === 'ServiceAccount' ? { kind, name, namespace: namespace ?? '' } : { apiGroup: RBAC, kind, name });

export function clusterRoleBinding(name: string, roleName: string, subj: SubjectSpec[]): KubeObject {
  const b: KubeObject = {
    apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding',
    metadata: { name, labels: { ...BOOTSTRAP_LABEL }, annotations: { [AUTOUPDATE]: 'true' } },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName },
  };
  if (subj.length) b.subjects = subjects(subj);
  return b;
}

export function roleBinding(namespace: string, name: string, roleName: string, subj: SubjectSpec[]): KubeObject {
  return {
    apiVersion: `${RBAC}/v1`, kind: 'RoleBinding',
    metadata: { name, namespace, labels: { ...BOOTSTRAP_LABEL }, annotations: { [AUTOUPDATE]: 'true' } },
    roleRef: { apiGroup: RBAC, kind: 'Role', name: roleName },
    subjects: subjects(subj),
  };
}

/** The rules of system:node that the Node authorizer also applies (upstream: NodeRules()). */
export const NODE_RULES: PolicyRule[] = [
  rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
  rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews', 'subjectaccessreviews']),
  rule(READ, [''], ['services']),
  rule(['create', 'get', 'list', 'watch'], [''], ['nodes']),
  rule(['patch', 'update'], [''], ['nodes/status']),
  rule(['patch', 'update'], [''], ['nodes']),
  rule(['create', 'patch', 'update'], [''], ['events']),
  rule(READ, [''], ['pods']),
  rule(['create', 'delete'], [''], ['pods']),
  rule(['patch', 'update'], [''], ['pods/status']),
  rule(['create'], [''], ['pods/eviction']),
  rule(READ, [''], ['configmaps', 'secrets']),
  rule(['get'], [''], ['persistentvolumeclaims', 'persistentvolumes']),
  rule(['get'], [''], ['endpoints']),
  rule(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests']),
  rule(['create', 'delete', 'get', 'patch', 'update'], ['coordination.k8s.io'], ['leases']),
  rule(['get'], ['storage.k8s.io'], ['volumeattachments']),
  rule(['create'], [''], ['serviceaccounts/token']),
  rule(['get', 'patch', 'update'], [''], ['persistentvolumeclaims/status']),
  rule(READ, ['storage.k8s.io'], ['csidrivers']),
  rule(['create', 'delete', 'get', 'patch', 'update'], ['storage.k8s.io'], ['csinodes']),
  rule(READ, ['node.k8s.io'], ['runtimeclasses']),
];

const signer = (verb: string, names: string[]): PolicyRule => rule([verb], ['certificates.k8s.io'], ['signers'], names);

export function bootstrapClusterRoles(): KubeObject[] {
  return [
    clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), urlRule(['*'], ['*'])]),
    clusterRole('system:discovery', [urlRule(['get'], ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'])]),
    clusterRole('system:monitoring', [urlRule(['get'], ['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*'])]),
    clusterRole('system:basic-user', [
      rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      rule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews']),
    ]),
    clusterRole('system:public-info-viewer', [urlRule(['get'], ['/healthz', '/livez', '/readyz', '/version', '/version/'])]),
    clusterRole('admin', [], { aggregateFrom: 'admin' }),
    clusterRole('edit', [], { aggregateFrom: 'edit', labels: AGG('admin') }),
    clusterRole('view', [], { aggregateFrom: 'view', labels: AGG('edit') }),
    clusterRole('system:aggregate-to-admin', [
      rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']),
      rule(READ_WRITE, [RBAC], ['rolebindings', 'roles']),
    ], { labels: AGG('admin') }),
    clusterRole('system:aggregate-to-edit', [
      rule(READ, [''], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy']),
      rule(['impersonate'], [''], ['serviceaccounts']),
      rule(WRITE, [''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy']),
      rule(['create'], [''], ['pods/eviction']),
      rule(WRITE, [''], ['configmaps', 'events', 'persistentvolumeclaims', 'replicationcontrollers', 'replicationcontrollers/scale', 'secrets', 'serviceaccounts', 'services', 'services/proxy']),
      rule(['create'], [''], ['serviceaccounts/token']),
      rule(WRITE, ['apps'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale']),
      rule(WRITE, ['autoscaling'], ['horizontalpodautoscalers']),
      rule(WRITE, ['batch'], ['cronjobs', 'jobs']),
      rule(WRITE, ['extensions'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'ingresses', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale']),
      rule(WRITE, ['policy'], ['poddisruptionbudgets']),
      rule(WRITE, ['networking.k8s.io'], ['ingresses', 'networkpolicies']),
      rule(READ_WRITE, ['coordination.k8s.io'], ['leases']),
    ], { labels: AGG('edit') }),
    clusterRole('system:aggregate-to-view', [
      rule(READ, [''], ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status']),
      rule(READ, [''], ['bindings', 'events', 'limitranges', 'namespaces/status', 'pods/log', 'pods/status', 'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status']),
      rule(READ, [''], ['namespaces']),
      rule(READ, ['discovery.k8s.io'], ['endpointslices']),
      rule(READ, ['apps'], ['controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status']),
      rule(READ, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
      rule(READ, ['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']),
      rule(READ, ['extensions'], ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses', 'ingresses/status', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale']),
      rule(READ, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
      rule(READ, ['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies']),
    ], { labels: AGG('view') }),
    clusterRole('system:heapster', [rule(READ, [''], ['events', 'namespaces', 'nodes', 'pods']), rule(READ, ['extensions'], ['deployments'])]),
    clusterRole('system:node', NODE_RULES),
    clusterRole('system:node-problem-detector', [rule(['get'], [''], ['nodes']), rule(['patch'], [''], ['nodes/status']), EVENTS]),
    clusterRole('system:node-proxier', [
      rule(['list', 'watch'], [''], ['endpoints', 'services']),
      rule(READ, [''], ['nodes']),
      EVENTS,
      rule(['list', 'watch'], ['discovery.k8s.io'], ['endpointslices']),
    ]),
    clusterRole('system:kubelet-api-admin', [
      rule(READ, [''], ['nodes']),
      rule(['proxy'], [''], ['nodes']),
      rule(['*'], [''], ['nodes/log', 'nodes/metrics', 'nodes/proxy', 'nodes/stats']),
    ]),
    clusterRole('system:node-bootstrapper', [rule(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests'])]),
    clusterRole('system:auth-delegator', [
      rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
      rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
    ]),
    clusterRole('system:kube-aggregator', [rule(READ, [''], ['endpoints', 'services'])]),
    clusterRole('system:kube-controller-manager', [
      EVENTS,
      rule(['create'], ['coordination.k8s.io'], ['leases']),
      rule(['get', 'update'], ['coordination.k8s.io'], ['leases'], ['kube-controller-manager']),
      rule(['create'], [''], ['secrets', 'serviceaccounts']),
      rule(['delete'], [''], ['secrets']),
      rule(['get'], [''], ['configmaps', 'namespaces', 'secrets', 'serviceaccounts']),
      rule(['update'], [''], ['secrets', 'serviceaccounts']),
      rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
      rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
      rule(['list', 'watch'], ['*'], ['*']),
      rule(['create'], [''], ['serviceaccounts/token']),
    ]),
    clusterRole('system:kube-dns', [rule(['list', 'watch'], [''], ['endpoints', 'services'])]),
    clusterRole('system:persistent-volume-provisioner', [
      rule(['create', 'delete', 'get', 'list', 'watch'], [''], ['persistentvolumes']),
      rule(['get', 'list', 'update', 'watch'], [''], ['persistentvolumeclaims']),
      rule(READ, ['storage.k8s.io'], ['storageclasses']),
      rule(['watch'], [''], ['events']),
      EVENTS,
    ]),
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:nodeclient', [rule(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/nodeclient'])]),
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', [rule(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/selfnodeclient'])]),
    clusterRole('system:certificates.k8s.io:kube-apiserver-client-approver', [signer('approve', ['kubernetes.io/kube-apiserver-client'])]),
    clusterRole('system:certificates.k8s.io:kube-apiserver-client-kubelet-approver', [signer('approve', ['kubernetes.io/kube-apiserver-client-kubelet'])]),
    clusterRole('system:certificates.k8s.io:kubelet-serving-approver', [signer('approve', ['kubernetes.io/kubelet-serving'])]),
    clusterRole('system:certificates.k8s.io:legacy-unknown-approver', [signer('approve', ['kubernetes.io/legacy-unknown'])]),
    clusterRole('system:kube-scheduler', [
      EVENTS,
      rule(['create'], ['coordination.k8s.io'], ['leases']),
      rule(['get', 'update'], ['coordination.k8s.io'], ['leases'], ['kube-scheduler']),
      rule(READ, [''], ['nodes']),
      rule(['delete', 'get', 'list', 'watch'], [''], ['pods']),
      rule(['create'], [''], ['bindings', 'pods/binding']),
      rule(['patch', 'update'], [''], ['pods/status']),
      rule(READ, [''], ['replicationcontrollers', 'services']),
      rule(READ, ['apps', 'extensions'], ['replicasets']),
      rule(READ, ['apps'], ['statefulsets']),
      rule(READ, ['policy'], ['poddisruptionbudgets']),
      rule(READ, [''], ['persistentvolumeclaims', 'persistentvolumes']),
      rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
      rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
      rule(READ, ['storage.k8s.io'], ['csinodes']),
      rule(READ, [''], ['namespaces']),
      rule(READ, ['storage.k8s.io'], ['csidrivers']),
      rule(READ, ['storage.k8s.io'], ['csistoragecapacities']),
    ]),
    clusterRole('system:volume-scheduler', [
      rule(['get', 'list', 'patch', 'update', 'watch'], [''], ['persistentvolumes']),
      rule(READ, ['storage.k8s.io'], ['storageclasses']),
      rule(['get', 'list', 'patch', 'update', 'watch'], [''], ['persistentvolumeclaims']),
    ]),
    clusterRole('system:service-account-issuer-discovery', [urlRule(['get'], ['/.well-known/openid-configuration', '/openid/v1/jwks'])]),
    ...controllerRoles(),
  ];
}

export function bootstrapClusterRoleBindings(): KubeObject[] {
  return [
    clusterRoleBinding('cluster-admin', 'cluster-admin', [['Group', 'system:masters']]),
    clusterRoleBinding('system:monitoring', 'system:monitoring', [['Group', 'system:monitoring']]),
    clusterRoleBinding('system:discovery', 'system:discovery', [['Group', 'system:authenticated']]),
    clusterRoleBinding('system:basic-user', 'system:basic-user', [['Group', 'system:authenticated']]),
    clusterRoleBinding('system:public-info-viewer', 'system:public-info-viewer', [['Group', 'system:authenticated'], ['Group', 'system:unauthenticated']]),
    clusterRoleBinding('system:node-proxier', 'system:node-proxier', [['User', 'system:kube-proxy']]),
    clusterRoleBinding('system:kube-controller-manager', 'system:kube-controller-manager', [['User', 'system:kube-controller-manager']]),
    clusterRoleBinding('system:kube-dns', 'system:kube-dns', [['ServiceAccount', 'kube-dns', 'kube-system']]),
    clusterRoleBinding('system:kube-scheduler', 'system:kube-scheduler', [['User', 'system:kube-scheduler']]),
    clusterRoleBinding('system:volume-scheduler', 'system:volume-scheduler', [['User', 'system:kube-scheduler']]),
    // No subjects: nodes get these rules through the Node authorizer.
    clusterRoleBinding('system:node', 'system:node', []),
    clusterRoleBinding('system:service-account-issuer-discovery', 'system:service-account-issuer-discovery', [['Group', 'system:serviceaccounts']]),
    ...controllerRoleBindings(),
  ];
}

const LEADER_LOCKING = [
  rule(['create', 'get', 'list', 'update', 'watch'], ['coordination.k8s.io'], ['leases']),
  rule(['create', 'get', 'list', 'update', 'watch'], ['coordination.k8s.io'], ['leasecandidates']),
];

export function bootstrapRoles(): KubeObject[] {
  return [
    role('kube-system', 'extension-apiserver-authentication-reader', [rule(READ, [''], ['configmaps'], ['extension-apiserver-authentication'])]),
    role('kube-system', 'system::leader-locking-kube-controller-manager', LEADER_LOCKING),
    role('kube-system', 'system::leader-locking-kube-scheduler', LEADER_LOCKING),
    role('kube-system', 'system:controller:bootstrap-signer', [rule(READ, [''], ['secrets'])]),
    role('kube-system', 'system:controller:cloud-provider', [rule(['create', 'get', 'list', 'watch'], [''], ['configmaps'])]),
    role('kube-system', 'system:controller:token-cleaner', [rule(['delete', 'get', 'list', 'watch'], [''], ['secrets']), EVENTS]),
    role('kube-public', 'system:controller:bootstrap-signer', [
      rule(READ, [''], ['configmaps']),
      rule(['update'], [''], ['configmaps'], ['cluster-info']),
      EVENTS,
    ]),
  ];
}

export function bootstrapRoleBindings(): KubeObject[] {
  const sa = (name: string): SubjectSpec => ['ServiceAccount', name, 'kube-system'];
  return [
    roleBinding('kube-system', 'system::extension-apiserver-authentication-reader', 'extension-apiserver-authentication-reader',
      [['User', 'system:kube-controller-manager'], ['User', 'system:kube-scheduler']]),
    roleBinding('kube-system', 'system::leader-locking-kube-controller-manager', 'system::leader-locking-kube-controller-manager',
      [['User', 'system:kube-controller-manager'], sa('kube-controller-manager')]),
    roleBinding('kube-system', 'system::leader-locking-kube-scheduler', 'system::leader-locking-kube-scheduler',
      [['User', 'system:kube-scheduler'], sa('kube-scheduler')]),
    roleBinding('kube-system', 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', [sa('bootstrap-signer')]),
    roleBinding('kube-system', 'system:controller:cloud-provider', 'system:controller:cloud-provider', [sa('cloud-provider')]),
    roleBinding('kube-system', 'system:controller:token-cleaner', 'system:controller:token-cleaner', [sa('token-cleaner')]),
    roleBinding('kube-public', 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', [sa('bootstrap-signer')]),
  ];
}
