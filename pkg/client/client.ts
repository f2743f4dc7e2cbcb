// The client: a RestClient plus typed helpers for the common built-in resources and a dynamic `resource()` for
// anything else (custom resources included). Pods add the binding and eviction subresources and logs.
import type { KubeObject } from '../../api/types.js';
import type { RestConfig } from './config.js';
import { loadKubeconfig, type LoadOptions } from './kubeconfig.js';
import { ResourceClient, type CallOptions, type ResourceRef, type WriteOptions } from './resource.js';
import { RestClient } from './rest.js';
import type { CoreEvent, Lease } from './types.js';

const core = (resource: string, kind: string, namespaced = true): ResourceRef => ({ group: '', version: 'v1', resource, kind, namespaced });
const gv = (group: string, version: string) => (resource: string, kind: string, namespaced = true): ResourceRef =>
  ({ group, version, resource, kind, namespaced });
const apps = gv('apps', 'v1');
const batch = gv('batch', 'v1');

/** The built-in resources the typed helpers use; pass any of them (or your own ResourceRef) to `client.resource()`. */
export const Resources = {
  pods: core('pods', 'Pod'),
  nodes: core('nodes', 'Node', false),
  namespaces: core('namespaces', 'Namespace', false),
  configMaps: core('configmaps', 'ConfigMap'),
  secrets: core('secrets', 'Secret'),
  services: core('services', 'Service'),
  endpoints: core('endpoints', 'Endpoints'),
  events: core('events', 'Event'),
  serviceAccounts: core('serviceaccounts', 'ServiceAccount'),
  persistentVolumes: core('persistentvolumes', 'PersistentVolume', false),
  persistentVolumeClaims: core('persistentvolumeclaims', 'PersistentVolumeClaim'),
  replicationControllers: core('replicationcontrollers', 'ReplicationController'),
  resourceQuotas: core('resourcequotas', 'ResourceQuota'),
  limitRanges: core('limitranges', 'LimitRange'),
  deployments: apps('deployments', 'Deployment'),
  replicaSets: apps('replicasets', 'ReplicaSet'),
  statefulSets: apps('statefulsets', 'StatefulSet'),
  daemonSets: apps('daemonsets', 'DaemonSet'),
  controllerRevisions: apps('controllerrevisions', 'ControllerRevision'),
  jobs: batch('jobs', 'Job'),
  cronJobs: batch('cronjobs', 'CronJob'),
  leases: gv('coordination.k8s.io', 'v1')('leases', 'Lease'),
  eventsV1: gv('events.k8s.io', 'v1')('events', 'Event'),
  endpointSlices: gv('discovery.k8s.io', 'v1')('endpointslices', 'EndpointSlice'),
  podDisruptionBudgets: gv('policy', 'v1')('poddisruptionbudgets', 'PodDisruptionBudget'),
  horizontalPodAutoscalers: gv('autoscaling', 'v2')('horizontalpodautoscalers', 'HorizontalPodAutoscaler'),
  certificateSigningRequests: gv('certificates.k8s.io', 'v1')('certificatesigningrequests', 'CertificateSigningRequest', false),
  priorityClasses: gv('scheduling.k8s.io', 'v1')('priorityclasses', 'PriorityClass', false),
  runtimeClasses: gv('node.k8s.io', 'v1')('runtimeclasses', 'RuntimeClass', false),
  storageClasses: gv('storage.k8s.io', 'v1')('storageclasses', 'StorageClass', false),
  csiNodes: gv('storage.k8s.io', 'v1')('csinodes', 'CSINode', false),
  csiDrivers: gv('storage.k8s.io', 'v1')('csidrivers', 'CSIDriver', false),
  roles: gv('rbac.authorization.k8s.io', 'v1')('roles', 'Role'),
  roleBindings: gv('rbac.authorization.k8s.io', 'v1')('rolebindings', 'RoleBinding'),
  clusterRoles: gv('rbac.authorization.k8s.io', 'v1')('clusterroles', 'ClusterRole', false),
  clusterRoleBindings: gv('rbac.authorization.k8s.io', 'v1')('clusterrolebindings', 'ClusterRoleBinding', false),
} satisfies Record<string, ResourceRef>;

/**
 * The ResourceRef of a built-in resource by apiVersion ("apps/v1") and plural ("deployments"), from api/'s table
 * (loaded on first use: it carries every schema).
 */
export const builtinResource = async (apiVersion: string, plural: string): Promise<ResourceRef | undefined> => {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') as [string, string] : ['', apiVersion];
  const { findResource } = await import('../../api/index.js');
  const rt = findResource(group, version, plural);
  return rt && { group: rt.group, version: rt.version, resource: rt.plural, namespaced: rt.namespaced, kind: rt.kind };
};

export interface EvictOptions extends WriteOptions {
  gracePeriodSeconds?: number;
}

export interface LogOptions extends CallOptions {
  container?: string;
  previous?: boolean;
  tailLines?: number;
  sinceSeconds?: number;
  timestamps?: boolean;
}

/** Pods: the dynamic client plus binding (what a scheduler does), eviction (honours PodDisruptionBudgets) and logs. */
export class PodClient<T extends KubeObject = KubeObject> extends ResourceClient<T> {
  override namespace(ns: string | undefined): PodClient<T> {
    return new PodClient<T>(this.rest, this.ref, ns);
  }

  /** POST pods/<name>/binding: assigns the pod to a node. */
  bind(name: string, nodeName: string, o: WriteOptions & { namespace?: string; uid?: string } = {}): Promise<unknown> {
    const ns = o.namespace ?? this.ns;
    const body = { apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace: ns, ...(o.uid ? { uid: o.uid } : {}) }, target: { apiVersion: 'v1', kind: 'Node', name: nodeName } };
    return this.namespace(ns).createSubresource(name, 'binding', body, o);
  }

  /** POST pods/<name>/eviction: a 429 TooManyRequests StatusError when a disruption budget forbids it. */
  evict(name: string, o: EvictOptions = {}): Promise<unknown> {
    const body = {
      apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: this.ns },
      ...(o.gracePeriodSeconds !== undefined ? { deleteOptions: { gracePeriodSeconds: o.gracePeriodSeconds } } : {}),
    };
    return this.createSubresource(name, 'eviction', body, o);
  }

  /** The text of a container's log. */
  logs(name: string, o: LogOptions = {}): Promise<string> {
    return this.rest.requestText({
      method: 'GET', path: this.path(name, 'log'), accept: 'text/plain', signal: o.signal,
      query: { container: o.container, previous: o.previous, tailLines: o.tailLines, sinceSeconds: o.sinceSeconds, timestamps: o.timestamps },
    });
  }
}

/** One apiserver's client: typed helpers (namespace optional: all namespaces) and the dynamic `resource()`. */
export class Client {
  readonly rest: RestClient;

  constructor(configOrRest: RestConfig | RestClient) {
    this.rest = configOrRest instanceof RestClient ? configOrRest : new RestClient(configOrRest);
  }

  /** A client from a kubeconfig (see loadKubeconfig), with overrides such as qps, burst and userAgent. */
  static async fromKubeconfig(path?: string, overrides: Partial<RestConfig> = {}, options: LoadOptions = {}): Promise<Client> {
    const { namespace: _ns, ...config } = await loadKubeconfig(path, options);
    return new Client({ ...config, ...overrides });
  }

  /** The dynamic client for any resource. */
  resource<T extends KubeObject = KubeObject>(ref: ResourceRef, namespace?: string): ResourceClient<T> {
    return new ResourceClient<T>(this.rest, ref, namespace);
  }

  pods<T extends KubeObject = KubeObject>(namespace?: string): PodClient<T> { return new PodClient<T>(this.rest, Resources.pods, namespace); }
  nodes<T extends KubeObject = KubeObject>(): ResourceClient<T> { return this.resource<T>(Resources.nodes); }
  namespaces<T extends KubeObject = KubeObject>(): ResourceClient<T> { return this.resource<T>(Resources.namespaces); }
  configMaps<T extends KubeObject = KubeObject>(namespace?: string): ResourceClient<T> { return this.resource<T>(Resources.configMaps, namespace); }
  secrets<T extends KubeObject = KubeObject>(namespace?: string): ResourceClient<T> { return this.resource<T>(Resources.secrets, namespace); }
  services<T extends KubeObject = KubeObject>(namespace?: string): ResourceClient<T> { return this.resource<T>(Resources.services, namespace); }
  endpoints<T extends KubeObject = KubeObject>(namespace?: string): ResourceClient<T> { return this.resource<T>(Resources.endpoints, namespace); }
  events(namespace?: string): ResourceClient<CoreEvent> { return this.resource<CoreEvent>(Resources.events, namespace); }
  serviceAccounts<T extends KubeObject = KubeObject>(namespace?: string): ResourceClient<T> { return this.resource<T>(Resources.serviceAccounts, namespace); }
  persistentVolumeClaims<T extends KubeObject = KubeObject>(namespace?: string): ResourceClient<T> { return this.resource<T>(Resources.persistentVolumeClaims, namespace); }
  persistentVolumes<T extends KubeObject = KubeObject>(): ResourceClient<T> { return this.resource<T>(Resources.persistentVolumes); }
  deployments<T extends KubeObject = KubeObject>(namespace?: string): ResourceClient<T> { return this.resource<T>(Resources.deployments, namespace); }
  replicaSets<T extends KubeObject = KubeObject>(namespace?: string): ResourceClient<T> { return this.resource<T>(Resources.replicaSets, namespace); }
  statefulSets<T extends KubeObject = KubeObject>(namespace?: string): ResourceClient<T> { return this.resource<T>(Resources.statefulSets, namespace); }
  daemonSets<T extends KubeObject = KubeObject>(namespace?: string): ResourceClient<T> { return this.resource<T>(Resources.daemonSets, namespace); }
  jobs<T extends KubeObject = KubeObject>(namespace?: string): ResourceClient<T> { return this.resource<T>(Resources.jobs, namespace); }
  cronJobs<T extends KubeObject = KubeObject>(namespace?: string): ResourceClient<T> { return this.resource<T>(Resources.cronJobs, namespace); }
  leases(namespace?: string): ResourceClient<Lease> { return this.resource<Lease>(Resources.leases, namespace); }

  close(): Promise<void> { return this.rest.close(); }
}
