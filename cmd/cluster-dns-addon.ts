// What `up` applies for its cluster DNS, as kubeadm's CoreDNS addon has it: the ClusterRole system:coredns (read
// Services, EndpointSlices, Endpoints, Pods and Namespaces) bound to the user of the process's certificate, and the
// Service kube-dns in kube-system at the 10th address of the service range (kubeadm's choice, the kubelets'
// --cluster-dns) for port 53 over UDP and TCP, with its Endpoints at the process's loopback port: the service proxy
// carries pods' queries there.
import type { Client } from '../pkg/client/index.js';
import { applyAddonObjects, loopbackEndpoints, mirrored, type AddonObject } from './addons.js';

export const CLUSTER_DNS_USER = 'system:cluster-dns';
export const CLUSTER_DOMAIN = 'cluster.local';
const RBAC = 'rbac.authorization.k8s.io';
const labels = { 'k8s-app': 'kube-dns', 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'CoreDNS' };

/** `ip`: the 10th address of the cluster's service range (service-range.ts). */
export const clusterDnsObjects = (port: number, ip: string): AddonObject[] => [
  {
    group: RBAC, version: 'v1', resource: 'clusterroles', namespaced: false,
    obj: {
      apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'system:coredns' },
      rules: [
        { apiGroups: [''], resources: ['endpoints', 'services', 'pods', 'namespaces'], verbs: ['list', 'watch'] },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
      ],
    },
  },
  {
    group: RBAC, version: 'v1', resource: 'clusterrolebindings', namespaced: false,
    obj: {
      apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'system:coredns' },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'system:coredns' }, subjects: [{ kind: 'User', apiGroup: RBAC, name: CLUSTER_DNS_USER }],
    },
  },
  {
    group: '', version: 'v1', resource: 'services', namespaced: true,
    obj: {
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'kube-dns', namespace: 'kube-system', labels },
      spec: { clusterIP: ip, ports: [{ name: 'dns', port: 53, protocol: 'UDP', targetPort: port }, { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: port }] },
    },
  },
  loopbackEndpoints('kube-dns', 'kube-system', labels, [{ name: 'dns', port, protocol: 'UDP' }, { name: 'dns-tcp', port, protocol: 'TCP' }]),
];

/**
 * Applies them, then waits for kube-dns's EndpointSlice (what the service proxy and the DNS read), so that `up` says
 * ready only once a pod started at once can resolve names.
 */
export async function applyClusterDnsObjects(client: Client, port: number, ip: string, deadline: number): Promise<void> {
  await applyAddonObjects(client, clusterDnsObjects(port, ip));
  if (!(await mirrored(client, 'kube-system', 'kube-dns', deadline))) throw new Error('its EndpointSlice was not made in time (see the controller-manager log)');
}
