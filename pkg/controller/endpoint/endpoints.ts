// The endpoints controller (upstream pkg/controller/endpoint): the Endpoints object of every service with a
// selector lists the IPs of its pods — ready ones in addresses, others in notReadyAddresses (or all in addresses
// with publishNotReadyAddresses) — grouped into subsets by the ports they serve (named targetPorts resolved per
// pod). At most 1000 addresses are written (endpoints.kubernetes.io/over-capacity: truncated marks the cut). Services
// without a selector, and ExternalName ones, keep their hand-made Endpoints; a deleted service loses its own. A written
// Endpoints carries endpoints.kubernetes.io/last-change-trigger-time (./trigger-time.ts).
import type { KubeObject } from '../../../api/types.js';
import { Resources, isAlreadyExists, isNotFound } from '../../client/index.js';
import { canonicalJson, objOf, workerLoop } from '../shared/controller-utils.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { isGoneOrTerminating } from '../shared/errors.js';
import { TriggerTimeTracker, withTriggerTime } from './trigger-time.js';
import {
  endpointPorts, enqueueServicesAndTheirPods, hasSelector, isPodReady, podTargetRef, servicesSelecting, shouldPodBeInEndpoints, type EndpointPort,
} from '../shared/service-pods.js';

interface Address { ip: string; nodeName?: string; hostname?: string; targetRef: Record<string, string> }
interface Subset { addresses?: Address[]; notReadyAddresses?: Address[]; ports?: EndpointPort[] }

const byIp = (a: Address, b: Address): number => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : (a.targetRef.uid ?? '').localeCompare(b.targetRef.uid ?? ''));

interface Group { ports: EndpointPort[]; ready: Address[]; notReady: Address[] }

/**
 * Upstream's RepackSubsets of the per-pod, per-port subsets: the ports offered by the same addresses share a subset.
 * Pods come grouped by the ports found on them; with one group (the usual case) there is nothing to repack.
 */
function repack(groups: Group[]): Group[] {
  if (groups.length < 2) return groups;
  const byPort = new Map<string, { port: EndpointPort; groups: number[] }>();
  groups.forEach((g, i) => {
    for (const port of g.ports) {
      const key = canonicalJson(port);
      const entry = byPort.get(key);
      if (entry) entry.groups.push(i); else byPort.set(key, { port, groups: [i] });
    }
  });
  const byGroups = new Map<string, { groups: number[]; ports: EndpointPort[] }>();
  for (const { port, groups: gs } of byPort.values()) {
    const key = gs.join();
    const entry = byGroups.get(key);
    if (entry) entry.ports.push(port); else byGroups.set(key, { groups: gs, ports: [port] });
  }
  return [...byGroups.values()].map(({ groups: gs, ports }) => ({
    ports, ready: gs.flatMap((i) => groups[i]!.ready), notReady: gs.flatMap((i) => groups[i]!.notReady),
  }));
}

/**
 * The subsets of a service's endpoints: every pod under each service port found on it (a pod lacking one is left out
 * of that port's subset only), repacked as upstream's RepackSubsets. A headless service without ports lists its pods
 * in one subset without ports; any other service needs a port found on a pod.
 */
export function computeSubsets(svc: KubeObject, pods: KubeObject[]): Subset[] {
  const groups = new Map<string, Group>();
  const publishAll = !!svc.spec?.publishNotReadyAddresses;
  const portless = !svc.spec?.ports?.length && svc.spec?.clusterIP === 'None';
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, publishAll)) continue; // terminating pods too under publishNotReadyAddresses, as upstream's
    const ports = endpointPorts(pod, svc);
    if (!ports.length && !portless) continue;
    const addr: Address = {
      ip: pod.status.podIP,
      ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
      ...(pod.spec?.hostname && pod.spec?.subdomain === svc.metadata?.name ? { hostname: pod.spec.hostname } : {}),
      targetRef: podTargetRef(pod),
    };
    const key = canonicalJson(ports);
    const g = groups.get(key) ?? { ports, ready: [], notReady: [] };
    (publishAll || isPodReady(pod) ? g.ready : g.notReady).push(addr);
    groups.set(key, g);
  }
  return repack([...groups.values()]).map((g) => [canonicalJson(g.ports), g] as const).sort(([a], [b]) => a.localeCompare(b)).map(([, g]) => ({
    ...(g.ready.length ? { addresses: g.ready.sort(byIp) } : {}),
    ...(g.notReady.length ? { notReadyAddresses: g.notReady.sort(byIp) } : {}),
    ...(g.ports.length ? { ports: g.ports } : {}),
  }));
}

export const OVER_CAPACITY = 'endpoints.kubernetes.io/over-capacity';
const MAX_CAPACITY = 1000;

/**
 * Upstream's truncateEndpoints: past 1000 addresses, the not-ready ones are cut first; past 1000 ready ones, only ready
 * ones are kept. What is kept is shared among the subsets in proportion to what they had (rounded up, the last ones
 * taking what is left). Returns whether it cut anything.
 */
export function truncateSubsets(subsets: Subset[]): boolean {
  let ready = 0;
  let notReady = 0;
  for (const s of subsets) { ready += s.addresses?.length ?? 0; notReady += s.notReadyAddresses?.length ?? 0; }
  if (ready + notReady <= MAX_CAPACITY) return false;
  const cutReady = ready > MAX_CAPACITY;
  const max = cutReady ? MAX_CAPACITY : MAX_CAPACITY - ready;
  const total = cutReady ? ready : notReady;
  let left = max;
  for (const s of subsets) {
    const field = cutReady ? 'addresses' : 'notReadyAddresses';
    const list = s[field] ?? [];
    const kept = list.slice(0, Math.min(Math.ceil((list.length / total) * max), left));
    if (kept.length) s[field] = kept; else delete s[field];
    if (cutReady) delete s.notReadyAddresses;
    left -= kept.length;
  }
  return true;
}

/** `annotations` marked over-capacity: truncated when addresses were cut, unmarked otherwise. */
function withOverCapacity(annotations: Record<string, string>, truncated: boolean): Record<string, string> {
  const { [OVER_CAPACITY]: _old, ...rest } = annotations;
  return truncated ? { ...rest, [OVER_CAPACITY]: 'truncated' } : rest;
}

export async function startEndpointsController(ctx: ClusterControllerContext): Promise<void> {
  const services = ctx.informers.informerFor(Resources.services);
  const pods = ctx.informers.pods();
  const endpoints = ctx.informers.informerFor(Resources.endpoints);
  const svcLister = services.lister();
  const podLister = pods.lister();
  const epLister = endpoints.lister();
  const loop = workerLoop(ctx, 'endpoints-controller', sync);
  const triggerTimes = new TriggerTimeTracker();

  enqueueServicesAndTheirPods(services, pods, (s) => loop.enqueue(s));
  // Someone else's change to an Endpoints we manage is undone.
  endpoints.addEventHandler({ onUpdate: (_o, ep) => { if (svcLister.get(`${ep.metadata!.namespace}/${ep.metadata!.name}`)) loop.enqueue(ep); }, onDelete: (o) => loop.enqueue(objOf(o)) });

  async function sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const client = ctx.client.endpoints(namespace);
    const svc = svcLister.get(key);
    if (!svc) {
      triggerTimes.delete(namespace, name);
      await client.delete(name, { signal: ctx.signal }).catch((e: unknown) => { if (!isNotFound(e)) throw e; });
      return;
    }
    // an ExternalName service gets no endpoints, whatever its selector (upstream's syncService; issue 105986)
    if (svc.spec?.type === 'ExternalName' || !hasSelector(svc)) return;
    const selected = podLister.namespace(namespace).list().filter((p) => servicesSelecting([svc], p).length > 0);
    // computed on every sync, written or not, so that the tracker knows what has been published
    const triggerTime = triggerTimes.compute(svc, selected);
    const subsets = computeSubsets(svc, selected);
    const truncated = truncateSubsets(subsets);
    const labels: Record<string, string> = { ...(svc.metadata?.labels ?? {}) };
    if (svc.spec?.clusterIP === 'None') labels['service.kubernetes.io/headless'] = '';
    const current = epLister.get(key);
    if (current && canonicalJson(current.subsets ?? []) === canonicalJson(subsets) && canonicalJson(current.metadata?.labels ?? {}) === canonicalJson(labels)
      && current.metadata?.annotations?.[OVER_CAPACITY] === (truncated ? 'truncated' : undefined)) return;
    const annotations = withOverCapacity(withTriggerTime(current?.metadata?.annotations, triggerTime), truncated);
    try {
      if (current) {
        await client.update({ ...current, metadata: { ...current.metadata, labels, annotations }, subsets }, { signal: ctx.signal });
      } else {
        await client.create({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name, namespace, labels, annotations }, subsets }, { signal: ctx.signal });
      }
    } catch (e) {
      if (isGoneOrTerminating(e)) return;
      if (isAlreadyExists(e)) { loop.queue.addRateLimited(key); return; }
      throw e;
    }
  }

  await loop.run();
}
