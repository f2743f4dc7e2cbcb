// What `up` applies for its metrics-server, as metrics-server's own manifests (components.yaml) and minikube's
// addon have it: the roles (read nodes, pods and nodes/metrics; review tokens and accesses; read the
// extension-apiserver-authentication ConfigMap), the aggregated reader role that puts metrics.k8s.io in view, edit
// and admin, a Service without selector with its Endpoints at the process's port, and the APIService
// v1beta1.metrics.k8s.io with the cluster CA as caBundle. The subject is the user of its certificate,
// system:metrics-server, where a cluster's manifests name a ServiceAccount: the process runs on the host, not in a pod.
// Server-side applied, so a restart on another port moves the Endpoints.
import type { Client, KubeObject } from '../pkg/client/index.js';
import { applyAddonObjects, listening, loopbackEndpoints, type AddonObject } from './addons.js';

export const METRICS_SERVER_USER = 'system:metrics-server';
const RBAC = 'rbac.authorization.k8s.io';
const subjects = [{ kind: 'User', apiGroup: RBAC, name: METRICS_SERVER_USER }];
const labels = { 'k8s-app': 'metrics-server' };

export function metricsServerObjects(port: number, caPem: string): AddonObject[] {
  const rbac = (resource: string, namespaced: boolean, obj: Record<string, unknown>) => ({ group: RBAC, version: 'v1', resource, namespaced, obj: { apiVersion: `${RBAC}/v1`, ...obj } as KubeObject });
  return [
    rbac('clusterroles', false, {
      kind: 'ClusterRole',
      metadata: { name: 'system:aggregated-metrics-reader', labels: { ...labels, 'rbac.authorization.k8s.io/aggregate-to-view': 'true', 'rbac.authorization.k8s.io/aggregate-to-edit': 'true', 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } },
      rules: [{ apiGroups: ['metrics.k8s.io'], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] }],
    }),
    rbac('clusterroles', false, {
      kind: 'ClusterRole', metadata: { name: 'system:metrics-server', labels },
      rules: [{ apiGroups: [''], resources: ['nodes/metrics'], verbs: ['get'] }, { apiGroups: [''], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] }],
    }),
    rbac('clusterrolebindings', false, { kind: 'ClusterRoleBinding', metadata: { name: 'system:metrics-server', labels }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'system:metrics-server' }, subjects }),
    rbac('clusterrolebindings', false, { kind: 'ClusterRoleBinding', metadata: { name: 'metrics-server:system:auth-delegator', labels }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'system:auth-delegator' }, subjects }),
    rbac('rolebindings', true, { kind: 'RoleBinding', metadata: { name: 'metrics-server-auth-reader', namespace: 'kube-system', labels }, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'extension-apiserver-authentication-reader' }, subjects }),
    {
      group: '', version: 'v1', resource: 'services', namespaced: true,
      obj: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'metrics-server', namespace: 'kube-system', labels }, spec: { ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: port }] } } as KubeObject,
    },
    loopbackEndpoints('metrics-server', 'kube-system', labels, [{ name: 'https', port, protocol: 'TCP' }]),
    {
      group: 'apiregistration.k8s.io', version: 'v1', resource: 'apiservices', namespaced: false,
      obj: {
        apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1beta1.metrics.k8s.io', labels },
        spec: { group: 'metrics.k8s.io', version: 'v1beta1', service: { name: 'metrics-server', namespace: 'kube-system', port: 443 }, caBundle: Buffer.from(caPem).toString('base64'), groupPriorityMinimum: 100, versionPriority: 100 },
      } as KubeObject,
    },
  ];
}

/**
 * Applies every object in order (roles before their bindings, the service before the APIService). The APIService
 * comes once the server listens (it can only once the roles let it read its configuration): registered earlier,
 * the aggregator's first availability check fails and the next comes 30 s later.
 */
export async function applyMetricsServerObjects(client: Client, port: number, caPem: string, waitMs = 0): Promise<void> {
  await applyAddonObjects(client, metricsServerObjects(port, caPem), (obj) => (obj.kind === 'APIService' && waitMs ? listening(port, Date.now() + waitMs) : Promise.resolve()));
}
