// What `kubeadm init` leaves for `kubeadm join --discovery-token`, which `up` leaves too: the ConfigMap
// kube-public/cluster-info whose `kubeconfig` names the server and the cluster CA (no users), readable without
// credentials (the Role and RoleBinding kubeadm:bootstrap-signer-clusterinfo for system:anonymous) and signed by the
// controller-manager's bootstrap signer with each signing token; and the bindings that let a kubelet holding a token of
// kubeadm's group (system:bootstrappers:kubeadm:default-node-token) request its client certificate and have it
// approved, and every node have its renewals approved. No token is made: create one as a Secret
// kube-system/bootstrap-token-<id> of type bootstrap.kubernetes.io/token (auth-extra-groups naming that group).
import { stringifyYaml } from '../pkg/apimachinery/yaml.js';
import type { Client } from '../pkg/client/index.js';
import { applyAddonObjects, type AddonObject } from './addons.js';

export const KUBEADM_NODE_TOKEN_GROUP = 'system:bootstrappers:kubeadm:default-node-token';
const RBAC = 'rbac.authorization.k8s.io';
const CLUSTER_INFO_READER = 'kubeadm:bootstrap-signer-clusterinfo';

/** The kubeconfig kubeadm publishes: one unnamed cluster, nothing else (as clientcmd writes such a Config). */
export const clusterInfoKubeconfig = (server: string, caPem: string): string => stringifyYaml({
  apiVersion: 'v1', kind: 'Config',
  clusters: [{ name: '', cluster: { server, 'certificate-authority-data': Buffer.from(caPem).toString('base64') } }],
  contexts: null, 'current-context': '', preferences: {}, users: null,
});

const rbac = (resource: string, namespaced: boolean, obj: Record<string, unknown>): AddonObject =>
  ({ group: RBAC, version: 'v1', resource, namespaced, obj: { apiVersion: `${RBAC}/v1`, ...obj } });

const clusterRoleBinding = (name: string, role: string, group: string): AddonObject => rbac('clusterrolebindings', false, {
  kind: 'ClusterRoleBinding', metadata: { name }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role }, subjects: [{ apiGroup: RBAC, kind: 'Group', name: group }],
});

export const clusterInfoObjects = (server: string, caPem: string): AddonObject[] => [
  // applied with data.kubeconfig alone: the signer's jws-kubeconfig-* keys stay as they are
  {
    group: '', version: 'v1', resource: 'configmaps', namespaced: true,
    obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cluster-info', namespace: 'kube-public' }, data: { kubeconfig: clusterInfoKubeconfig(server, caPem) } },
  },
  rbac('roles', true, {
    kind: 'Role', metadata: { name: CLUSTER_INFO_READER, namespace: 'kube-public' },
    rules: [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['cluster-info'], verbs: ['get'] }],
  }),
  rbac('rolebindings', true, {
    kind: 'RoleBinding', metadata: { name: CLUSTER_INFO_READER, namespace: 'kube-public' },
    roleRef: { apiGroup: RBAC, kind: 'Role', name: CLUSTER_INFO_READER }, subjects: [{ apiGroup: RBAC, kind: 'User', name: 'system:anonymous' }],
  }),
  clusterRoleBinding('kubeadm:kubelet-bootstrap', 'system:node-bootstrapper', KUBEADM_NODE_TOKEN_GROUP),
  clusterRoleBinding('kubeadm:node-autoapprove-bootstrap', 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', KUBEADM_NODE_TOKEN_GROUP),
  clusterRoleBinding('kubeadm:node-autoapprove-certificate-rotation', 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', 'system:nodes'),
];

export const applyClusterInfoObjects = (admin: Client, server: string, caPem: string): Promise<void> =>
  applyAddonObjects(admin, clusterInfoObjects(server, caPem));
