// Upstream's controller roles (bootstrappolicy/controller_policy.go, as of 1.32): one ClusterRole
// `system:controller:<name>` per controller, bound to the service account kube-system/<name>.
import type { KubeObject } from '../../../api/types.js';
import type { PolicyRule } from '../interface.js';
import { clusterRole, clusterRoleBinding } from './policy.js';
import { rule } from './rules.js';

const READ = ['get', 'list', 'watch'];
const EVENTS = rule(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']);
const ALL_WRITE = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

const CONTROLLERS: Record<string, PolicyRule[]> = {
  'attachdetach-controller': [
    rule(['list', 'watch'], [''], ['persistentvolumeclaims', 'persistentvolumes']),
    rule(READ, [''], ['nodes']),
    rule(['patch', 'update'], [''], ['nodes/status']),
    rule(['list', 'watch'], [''], ['pods']),
    EVENTS,
    rule(['create', 'delete', 'get', 'list', 'watch'], ['storage.k8s.io'], ['volumeattachments']),
    rule(READ, ['storage.k8s.io'], ['csidrivers']),
    rule(READ, ['storage.k8s.io'], ['csinodes']),
  ],
  'certificate-controller': [
    rule(['delete', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests']),
    rule(['update'], ['certificates.k8s.io'], ['certificatesigningrequests/approval', 'certificatesigningrequests/status']),
    rule(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/kube-apiserver-client-kubelet']),
    rule(['sign'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/kube-apiserver-client', 'kubernetes.io/kube-apiserver-client-kubelet', 'kubernetes.io/kubelet-serving', 'kubernetes.io/legacy-unknown']),
    rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
    EVENTS,
  ],
  'clusterrole-aggregation-controller': [
    rule(['escalate', 'get', 'list', 'patch', 'update', 'watch'], ['rbac.authorization.k8s.io'], ['clusterroles']),
  ],
  'cronjob-controller': [
    rule(['get', 'list', 'update', 'watch'], ['batch'], ['cronjobs']),
    rule(ALL_WRITE, ['batch'], ['jobs']),
    rule(['update'], ['batch'], ['cronjobs/status']),
    rule(['update'], ['batch'], ['cronjobs/finalizers']),
    rule(['delete', 'list', 'watch'], [''], ['pods']),
    EVENTS,
  ],
  'daemon-set-controller': [
    rule(READ, ['apps', 'extensions'], ['daemonsets']),
    rule(['update'], ['apps', 'extensions'], ['daemonsets/status']),
    rule(['update'], ['apps', 'extensions'], ['daemonsets/finalizers']),
    rule(['list', 'watch'], [''], ['nodes']),
    rule(['create', 'delete', 'list', 'patch', 'watch'], [''], ['pods']),
    rule(['create'], [''], ['pods/binding']),
    rule(ALL_WRITE, ['apps'], ['controllerrevisions']),
    EVENTS,
  ],
  'deployment-controller': [
    rule(['get', 'list', 'update', 'watch'], ['apps', 'extensions'], ['deployments']),
    rule(['update'], ['apps', 'extensions'], ['deployments/status']),
    rule(['update'], ['apps', 'extensions'], ['deployments/finalizers']),
    rule(ALL_WRITE, ['apps', 'extensions'], ['replicasets']),
    rule(['get', 'list', 'update', 'watch'], [''], ['pods']),
    EVENTS,
  ],
  'disruption-controller': [
    rule(READ, ['apps', 'extensions'], ['deployments']),
    rule(READ, ['apps', 'extensions'], ['replicasets']),
    rule(READ, [''], ['replicationcontrollers']),
    rule(READ, ['policy'], ['poddisruptionbudgets']),
    rule(READ, ['apps'], ['statefulsets']),
    rule(['update'], ['policy'], ['poddisruptionbudgets/status']),
    rule(['patch', 'update'], [''], ['pods/status']),
    rule(['get'], ['*'], ['*/scale']),
    EVENTS,
  ],
  'endpoint-controller': [
    rule(READ, [''], ['pods', 'services']),
    rule(['create', 'delete', 'get', 'list', 'update', 'watch'], [''], ['endpoints']),
    rule(['create'], [''], ['endpoints/restricted']),
    EVENTS,
  ],
  'endpointslice-controller': [
    rule(READ, [''], ['nodes', 'pods', 'services']),
    rule(['update'], [''], ['services/finalizers']),
    rule(['create', 'delete', 'get', 'list', 'update', 'watch'], ['discovery.k8s.io'], ['endpointslices']),
    EVENTS,
  ],
  'endpointslicemirroring-controller': [
    rule(READ, [''], ['endpoints', 'services']),
    rule(['update'], [''], ['services/finalizers']),
    rule(['update'], [''], ['endpoints/finalizers']),
    rule(['create', 'delete', 'get', 'list', 'update', 'watch'], ['discovery.k8s.io'], ['endpointslices']),
    EVENTS,
  ],
  'ephemeral-volume-controller': [
    rule(READ, [''], ['pods']),
    rule(['update'], [''], ['pods/finalizers']),
    rule(['create', 'get', 'list', 'watch'], [''], ['persistentvolumeclaims']),
    EVENTS,
  ],
  'expand-controller': [
    rule(['get', 'list', 'patch', 'update', 'watch'], [''], ['persistentvolumes']),
    rule(['patch', 'update'], [''], ['persistentvolumeclaims/status']),
    rule(READ, [''], ['persistentvolumeclaims']),
    EVENTS,
  ],
  'generic-garbage-collector': [
    rule(['delete', 'get', 'list', 'patch', 'update', 'watch'], ['*'], ['*']),
    EVENTS,
  ],
  'horizontal-pod-autoscaler': [
    rule(READ, ['autoscaling'], ['horizontalpodautoscalers']),
    rule(['update'], ['autoscaling'], ['horizontalpodautoscalers/status']),
    rule(['get', 'update'], ['*'], ['*/scale']),
    rule(['list', 'watch'], [''], ['pods']),
    rule(['list', 'watch'], ['metrics.k8s.io'], ['pods']),
    rule(READ, ['custom.metrics.k8s.io'], ['*']),
    rule(READ, ['external.metrics.k8s.io'], ['*']),
    EVENTS,
  ],
  'job-controller': [
    rule(['get', 'list', 'patch', 'update', 'watch'], ['batch'], ['jobs']),
    rule(['update'], ['batch'], ['jobs/status']),
    rule(['update'], ['batch'], ['jobs/finalizers']),
    rule(['create', 'delete', 'list', 'patch', 'watch'], [''], ['pods']),
    EVENTS,
  ],
  'legacy-service-account-token-cleaner': [
    rule(['get'], [''], ['configmaps'], ['kube-apiserver-legacy-service-account-token-tracking']),
    rule(['delete', 'patch'], [''], ['secrets']),
  ],
  'namespace-controller': [
    rule(['delete', 'get', 'list', 'watch'], [''], ['namespaces']),
    rule(['update'], [''], ['namespaces/finalize', 'namespaces/status']),
    rule(['delete', 'deletecollection', 'get', 'list', 'watch'], ['*'], ['*']),
  ],
  'node-controller': [
    rule(['delete', 'get', 'list', 'patch', 'update', 'watch'], [''], ['nodes']),
    rule(['patch', 'update'], [''], ['nodes/status']),
    rule(['patch', 'update'], [''], ['pods/status']),
    rule(['delete', 'get', 'list', 'watch'], [''], ['pods']),
    EVENTS,
  ],
  'persistent-volume-binder': [
    rule(['create', 'delete', 'get', 'list', 'update', 'watch'], [''], ['persistentvolumes']),
    rule(['update'], [''], ['persistentvolumes/status']),
    rule(['get', 'list', 'update', 'watch'], [''], ['persistentvolumeclaims']),
    rule(['update'], [''], ['persistentvolumeclaims/status']),
    rule(['create', 'delete', 'get', 'list', 'watch'], [''], ['pods']),
    rule(READ, ['storage.k8s.io'], ['storageclasses']),
    rule(['list', 'watch'], [''], ['nodes']),
    EVENTS,
    rule(['watch'], [''], ['events']),
  ],
  'pod-garbage-collector': [
    rule(['delete', 'list', 'watch'], [''], ['pods']),
    rule(READ, [''], ['nodes']),
    rule(['patch'], [''], ['pods/status']),
  ],
  'pv-protection-controller': [rule(['get', 'list', 'update', 'watch'], [''], ['persistentvolumes']), EVENTS],
  'pvc-protection-controller': [
    rule(['get', 'list', 'update', 'watch'], [''], ['persistentvolumeclaims']),
    rule(['update'], [''], ['persistentvolumeclaims/status']),
    rule(READ, [''], ['pods']),
    EVENTS,
  ],
  'replicaset-controller': [
    rule(['get', 'list', 'update', 'watch'], ['apps', 'extensions'], ['replicasets']),
    rule(['update'], ['apps', 'extensions'], ['replicasets/status']),
    rule(['update'], ['apps', 'extensions'], ['replicasets/finalizers']),
    rule(['create', 'delete', 'list', 'patch', 'watch'], [''], ['pods']),
    EVENTS,
  ],
  'replication-controller': [
    rule(['get', 'list', 'update', 'watch'], [''], ['replicationcontrollers']),
    rule(['update'], [''], ['replicationcontrollers/status']),
    rule(['update'], [''], ['replicationcontrollers/finalizers']),
    rule(['create', 'delete', 'list', 'patch', 'watch'], [''], ['pods']),
    EVENTS,
  ],
  'resourcequota-controller': [
    rule(['list', 'watch'], ['*'], ['*']),
    rule(['update'], [''], ['resourcequotas/status']),
    EVENTS,
  ],
  'root-ca-cert-publisher': [rule(['create', 'update'], [''], ['configmaps']), EVENTS],
  'route-controller': [rule(['list', 'watch'], [''], ['nodes']), rule(['patch'], [''], ['nodes/status']), EVENTS],
  'service-account-controller': [rule(['create'], [''], ['serviceaccounts']), EVENTS],
  'service-controller': [
    rule(READ, [''], ['services']),
    rule(['patch', 'update'], [''], ['services']),
    rule(['patch', 'update'], [''], ['services/status']),
    rule(['list', 'watch'], [''], ['nodes']),
    EVENTS,
  ],
  'statefulset-controller': [
    rule(['list', 'watch'], [''], ['pods']),
    rule(READ, ['apps'], ['statefulsets']),
    rule(['update'], ['apps'], ['statefulsets/status']),
    rule(['update'], ['apps'], ['statefulsets/finalizers']),
    rule(['create', 'delete', 'get', 'patch', 'update'], [''], ['pods']),
    rule(ALL_WRITE, ['apps'], ['controllerrevisions']),
    rule(['create', 'get', 'list', 'watch'], [''], ['persistentvolumeclaims']),
    rule(['delete', 'update'], [''], ['persistentvolumeclaims']),
    rule(['update'], [''], ['pods/finalizers']),
    EVENTS,
  ],
  'ttl-after-finished-controller': [rule(['delete', 'get', 'list', 'watch'], ['batch'], ['jobs']), EVENTS],
  'ttl-controller': [rule(['list', 'patch', 'update', 'watch'], [''], ['nodes']), EVENTS],
  'validatingadmissionpolicy-status-controller': [
    rule(READ, ['admissionregistration.k8s.io'], ['validatingadmissionpolicies']),
    rule(['get', 'patch', 'update'], ['admissionregistration.k8s.io'], ['validatingadmissionpolicies/status']),
    EVENTS,
  ],
};

export const CONTROLLER_NAMES = Object.keys(CONTROLLERS);

export const controllerRoles = (): KubeObject[] =>
  Object.entries(CONTROLLERS).map(([name, rules]) => clusterRole(`system:controller:${name}`, rules));

export const controllerRoleBindings = (): KubeObject[] =>
  CONTROLLER_NAMES.map((name) => clusterRoleBinding(`system:controller:${name}`, `system:controller:${name}`, [['ServiceAccount', name, 'kube-system']]));
