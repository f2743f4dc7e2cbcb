// The resource metrics API, metrics.k8s.io/v1beta1, as metrics-server serves it: NodeMetrics (cluster-scoped,
// `nodes`) and PodMetrics (namespaced, `pods`), get and list only, for the nodes and pods of the informers' caches
// that have usage in storage; label selectors, and field selectors on metadata.name / metadata.namespace; lists
// sorted by namespace and name; Table output with upstream's columns (Name, cpu, memory, Window). Discovery (/apis,
// the group, the group-version) and the group's OpenAPI v3 document are served for the aggregator and kubectl.
import { badRequest, notFound, StatusError } from '../apimachinery/errors.js';
import { parseFieldSelector, type FieldSelector } from '../apimachinery/fields.js';
import { parseLabelSelector, type Selector } from '../apimachinery/labels.js';
import { goDuration } from '../apimachinery/protobuf/scalars.js';
import { formatTime, type KubeObject } from '../client/index.js';
import { podKey } from './decode.js';
import type { MetricsStorage, Usage } from './storage.js';

export const GROUP = 'metrics.k8s.io';
export const VERSION = 'v1beta1';
const GROUP_VERSION = `${GROUP}/${VERSION}`;

export interface MetricsSources {
  storage: MetricsStorage;
  nodes(): KubeObject[];
  node(name: string): KubeObject | undefined;
  /** PartialObjectMetadata of pods, all or of one namespace. */
  pods(namespace?: string): KubeObject[];
  pod(namespace: string, name: string): KubeObject | undefined;
}

/** What a request asks, in the terms authorization needs (upstream's RequestInfo). */
export type RequestTarget =
  | { kind: 'resource'; verb: string; resource: 'nodes' | 'pods'; namespace?: string; name?: string }
  | { kind: 'path'; verb: string; path: string };

const RESOURCE_PATH = /^\/apis\/metrics\.k8s\.io\/v1beta1\/(?:namespaces\/([^/]+)\/)?(nodes|pods)(?:\/([^/]+))?\/?$/;

export function targetOf(method: string, path: string, query: URLSearchParams): RequestTarget {
  const m = RESOURCE_PATH.exec(path);
  const read = method === 'GET' || method === 'HEAD';
  if (!m) return { kind: 'path', verb: read ? 'get' : method.toLowerCase(), path };
  const [, namespace, resource, name] = m;
  const verb = !read ? ({ POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: name ? 'delete' : 'deletecollection' } as Record<string, string>)[method] ?? method.toLowerCase()
    : name ? 'get' : query.get('watch') === 'true' || query.get('watch') === '1' ? 'watch' : 'list';
  return { kind: 'resource', verb, resource: resource as 'nodes' | 'pods', ...(namespace ? { namespace: decodeURIComponent(namespace) } : {}), ...(name ? { name: decodeURIComponent(name) } : {}) };
}

export const apiResourceList = (): Record<string, unknown> => ({
  kind: 'APIResourceList', apiVersion: 'v1', groupVersion: GROUP_VERSION,
  resources: [
    { name: 'nodes', singularName: '', namespaced: false, kind: 'NodeMetrics', verbs: ['get', 'list'] },
    { name: 'pods', singularName: '', namespaced: true, kind: 'PodMetrics', verbs: ['get', 'list'] },
  ],
});

const apiGroup = (): Record<string, unknown> => ({
  kind: 'APIGroup', apiVersion: 'v1', name: GROUP,
  versions: [{ groupVersion: GROUP_VERSION, version: VERSION }], preferredVersion: { groupVersion: GROUP_VERSION, version: VERSION },
});

/** Discovery documents by path, or undefined. */
export function discovery(path: string): Record<string, unknown> | undefined {
  const p = path.replace(/\/$/, '');
  if (p === '/apis') return { kind: 'APIGroupList', apiVersion: 'v1', groups: [apiGroup()] };
  if (p === `/apis/${GROUP}`) return apiGroup();
  if (p === `/apis/${GROUP_VERSION}`) return apiResourceList();
  return undefined;
}

const windowOf = (ms: number): string => goDuration(BigInt(Math.round(ms)) * 1_000_000n);

const nodeMetrics = (node: KubeObject, u: Usage, now: number): KubeObject => ({
  kind: 'NodeMetrics', apiVersion: GROUP_VERSION,
  metadata: { name: node.metadata!.name!, creationTimestamp: formatTime(now), ...(node.metadata?.labels ? { labels: node.metadata.labels } : {}) },
  timestamp: formatTime(u.timestamp), window: windowOf(u.windowMs), usage: { cpu: u.cpu, memory: u.memory },
} as KubeObject);

function podMetrics(pod: KubeObject, storage: MetricsStorage, now: number): KubeObject | undefined {
  const m = pod.metadata!;
  const usage = storage.podUsage(podKey(m.namespace ?? '', m.name ?? ''));
  if (!usage) return undefined;
  return {
    kind: 'PodMetrics', apiVersion: GROUP_VERSION,
    metadata: { name: m.name!, namespace: m.namespace!, creationTimestamp: formatTime(now), ...(m.labels ? { labels: m.labels } : {}) },
    timestamp: formatTime(usage.timestamp), window: windowOf(usage.windowMs),
    containers: usage.containers.map((c) => ({ name: c.name, usage: { cpu: c.usage.cpu, memory: c.usage.memory } })),
  } as KubeObject;
}

/** Field selectors on these kinds know metadata.name and metadata.namespace only (the default conversion). */
function fieldSelector(text: string | null): FieldSelector | undefined {
  if (!text) return undefined;
  const s = parseFieldSelector(text);
  for (const r of s.requirements) {
    if (r.field !== 'metadata.name' && r.field !== 'metadata.namespace') throw badRequest(`field label not supported: ${r.field}`);
  }
  return s;
}

const labelSelector = (text: string | null): Selector | undefined => (text ? parseLabelSelector(text) : undefined);

const byNamespaceAndName = (a: KubeObject, b: KubeObject): number =>
  (a.metadata!.namespace ?? '').localeCompare(b.metadata!.namespace ?? '') || a.metadata!.name!.localeCompare(b.metadata!.name!);

const selected = (objs: KubeObject[], labels: Selector | undefined, fields: FieldSelector | undefined, namespaced: boolean): KubeObject[] =>
  objs.filter((o) => (!labels || labels.matches(o.metadata?.labels as Record<string, string> | undefined))
    && (!fields || fields.matches({ 'metadata.name': o.metadata?.name ?? '', ...(namespaced ? { 'metadata.namespace': o.metadata?.namespace ?? '' } : {}) })));

/** GET of a resource path: the object or list, or a StatusError thrown. */
export function serveResource(src: MetricsSources, t: Extract<RequestTarget, { kind: 'resource' }>, query: URLSearchParams, now = Date.now()): KubeObject {
  if (t.verb !== 'get' && t.verb !== 'list') {
    throw new StatusError(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`);
  }
  if (t.resource === 'nodes') {
    if (t.namespace) throw notFound({ group: '', resource: 'nodes' }, t.name ?? '');
    if (t.name) {
      const node = src.node(t.name);
      if (!node) throw notFound({ group: '', resource: 'node' }, t.name);
      const u = src.storage.nodeUsage(t.name);
      if (!u) throw notFound({ group: GROUP, resource: 'nodemetrics' }, t.name);
      return nodeMetrics(node, u, now);
    }
    const nodes = selected(src.nodes(), labelSelector(query.get('labelSelector')), fieldSelector(query.get('fieldSelector')), false);
    const items = nodes.flatMap((n) => { const u = src.storage.nodeUsage(n.metadata!.name!); return u ? [nodeMetrics(n, u, now)] : []; });
    return { kind: 'NodeMetricsList', apiVersion: GROUP_VERSION, metadata: {}, items: items.sort(byNamespaceAndName) } as KubeObject;
  }
  if (t.name) {
    const ns = t.namespace ?? '';
    const pod = src.pod(ns, t.name);
    if (!pod) throw notFound({ group: '', resource: 'pods' }, t.name);
    const m = podMetrics(pod, src.storage, now);
    if (!m) throw notFound({ group: GROUP, resource: 'podmetrics' }, `${ns}/${t.name}`);
    return m;
  }
  const pods = selected(src.pods(t.namespace), labelSelector(query.get('labelSelector')), fieldSelector(query.get('fieldSelector')), true);
  const items = pods.flatMap((p) => podMetrics(p, src.storage, now) ?? []);
  return { kind: 'PodMetricsList', apiVersion: GROUP_VERSION, metadata: {}, items: items.sort(byNamespaceAndName) } as KubeObject;
}
