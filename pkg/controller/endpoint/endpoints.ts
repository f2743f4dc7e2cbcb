// The endpoints controller (upstream pkg/controller/endpoint): the Endpoints object of every service with a
// selector lists the IPs of its pods — ready ones in addresses, others in notReadyAddresses (or all in addresses
// with publishNotReadyAddresses) — grouped into subsets by the ports they serve (named targetPorts resolved per
// pod). Services without a selector, and ExternalName ones, keep their hand-made Endpoints; a deleted service loses its
// own. A written Endpoints carries endpoints.kubernetes.io/last-change-trigger-time (./trigger-time.ts).
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

/** The subsets of a service's endpoints (upstream's per-pod addresses, then RepackSubsets). */
export function computeSubsets(svc: KubeObject, pods: KubeObject[]): Subset[] {
  const groups = new Map<string, { ports: EndpointPort[]; ready: Address[]; notReady: Address[] }>();
  const publishAll = !!svc.spec?.publishNotReadyAddresses;
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, publishAll)) continue; // terminating pods too under publishNotReadyAddresses, as upstream's
    const ports = endpointPorts(pod, svc);
    if (!ports) continue;
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
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, g]) => ({
    ...(g.ready.length ? { addresses: g.ready.sort(byIp) } : {}),
    ...(g.notReady.length ? { notReadyAddresses: g.notReady.sort(byIp) } : {}),
    ...(g.ports.length ? { ports: g.ports } : {}),
  }));
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
    const labels: Record<string, string> = { ...(svc.metadata?.labels ?? {}) };
    if (svc.spec?.clusterIP === 'None') labels['service.kubernetes.io/headless'] = '';
    const current = epLister.get(key);
    if (current && canonicalJson(current.subsets ?? []) === canonicalJson(subsets) && canonicalJson(current.metadata?.labels ?? {}) === canonicalJson(labels)) return;
    try {
      if (current) {
        const annotations = withTriggerTime(current.metadata?.annotations, triggerTime);
        await client.update({ ...current, metadata: { ...current.metadata, labels, annotations }, subsets }, { signal: ctx.signal });
      } else {
        const annotations = withTriggerTime(undefined, triggerTime);
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
