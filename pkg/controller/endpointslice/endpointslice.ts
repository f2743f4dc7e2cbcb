// The EndpointSlice controller (upstream pkg/controller/endpointslice, reconciler simplified): every service with a
// selector owns discovery.k8s.io/v1 EndpointSlices labelled kubernetes.io/service-name and managed-by
// endpointslice-controller.k8s.io — one slice per distinct port mapping (at most 100 endpoints each), each endpoint a
// pod IP with ready / serving / terminating conditions, its hostname, node, zone and targetRef, and hints: under
// trafficDistribution PreferClose its own zone; under the topology annotation's Auto, the zones the topology cache
// (./topology-hints.ts) allots it, kept up with the nodes' zones and CPU. Slices no longer wanted are deleted; the
// garbage collector removes them with their service; a service that loses its selector keeps them. An ExternalName
// service gets none. A pod whose node is not in the informer is left out (unless the service publishes not-ready
// addresses) and the sync fails once the slices are written, so that the service is retried until the node shows.
// Slices written carry endpoints.kubernetes.io/last-change-trigger-time (../endpoint/trigger-time.ts). The slices it
// writes are tracked (../shared/slice-tracker.ts): a sync while the informer is behind them is retried with backoff,
// without an event, rather than refused as a conflict; a slice someone else changed or deleted resyncs its service.
import { LABEL_MANAGED_BY, LABEL_SERVICE_NAME } from '../../../api/discovery/v1/index.js';
import type { KubeObject } from '../../../api/types.js';
import { aggregateMessage } from '../../apimachinery/errors.js';
import { defaultControllerRateLimiter, Resources } from '../../client/index.js';
import { TriggerTimeTracker, withTriggerTime } from '../endpoint/trigger-time.js';
import { canonicalJson, workerLoop } from '../shared/controller-utils.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { managedSlices, writeSlices } from '../shared/endpoint-slices.js';
import { SliceTracker, sliceEventHandler, StaleInformerCache } from '../shared/slice-tracker.js';
import { hintsAnnotated, nodeTopologyChanged, TopologyCache, zoneOfNode } from './topology-hints.js';
import {
  endpointPorts, enqueueServicesAndTheirPods, hasSelector, isPodReady, podTargetRef, servicesSelecting, shouldPodBeInEndpoints, type EndpointPort,
} from '../shared/service-pods.js';

export const MANAGED_BY = 'endpointslice-controller.k8s.io';
const MAX_ENDPOINTS_PER_SLICE = 100;
/** Upstream's endpointSliceChangeMinSyncDelay: a slice's change syncs its service after this, batching changes. */
const SLICE_CHANGE_MIN_SYNC_DELAY_MS = 1_000;

interface Endpoint {
  addresses: string[]; conditions: { ready: boolean; serving: boolean; terminating: boolean }; hostname?: string; nodeName?: string; zone?: string;
  hints?: { forZones: { name: string }[] }; targetRef: Record<string, string>;
}

/** A slice's ports: as the Endpoints', but an unnamed one is named "" (as the apiserver keeps it, so a slice compares equal). */
const slicePorts = (pod: KubeObject, svc: KubeObject): EndpointPort[] => endpointPorts(pod, svc).map((p) => ({ name: '', ...p }));

/**
 * Whether the service's ready endpoints get a hint for their own zone: trafficDistribution PreferClose (upstream's
 * trafficdist preferCloseHeuristic), unless the topology annotation asks for Auto hints, which take precedence
 * (the topology cache's, added by the controller).
 */
const preferClose = (svc: KubeObject): boolean => svc.spec?.trafficDistribution === 'PreferClose' && !hintsAnnotated(svc.metadata?.annotations);

interface DesiredSlices {
  slices: { ports: EndpointPort[]; endpoints: Endpoint[] }[];
  /** Why pods were left out: their node is not known (yet). */
  skipped: string[];
}

/**
 * The slices of a service over its selected pods; `nodeOf` finds a node in the informer. A pod whose node it does not
 * find (nor a pod without a node name: upstream's lister finds no "") is skipped unless the service publishes
 * not-ready addresses, when it is an endpoint without a zone (upstream's reconcileByAddressType).
 */
export function desiredSlices(svc: KubeObject, selected: KubeObject[], nodeOf: (name: string) => KubeObject | undefined): DesiredSlices {
  const groups = new Map<string, { ports: EndpointPort[]; endpoints: Endpoint[] }>();
  const skipped: string[] = [];
  const publishAll = !!svc.spec?.publishNotReadyAddresses;
  const hints = preferClose(svc);
  for (const pod of selected) {
    if (!shouldPodBeInEndpoints(pod, true)) continue;
    const nodeName: string = pod.spec?.nodeName ?? '';
    const node = nodeOf(nodeName);
    if (!node && !publishAll) {
      skipped.push(`skipping Pod ${pod.metadata?.name} for Service ${svc.metadata?.namespace}/${svc.metadata?.name}: Node ${nodeName} Not Found`);
      continue;
    }
    // a pod with none of the service's ports is still an endpoint, in a slice without ports (upstream's getEndpointPorts)
    const ports = slicePorts(pod, svc);
    const terminating = !!pod.metadata?.deletionTimestamp;
    const serving = isPodReady(pod);
    const ready = publishAll || (serving && !terminating);
    const zone = (node && zoneOfNode(node)) || undefined;
    const key = canonicalJson(ports);
    const g = groups.get(key) ?? { ports, endpoints: [] };
    g.endpoints.push({
      addresses: [pod.status.podIP],
      // publishNotReadyAddresses forces ready only: serving stays the pod's readiness (upstream's podToEndpoint)
      conditions: { ready, serving, terminating },
      // as upstream's ShouldSetHostname: a pod naming this service as its subdomain (StatefulSet pods) is found by name
      ...(pod.spec?.hostname && pod.spec?.subdomain === svc.metadata?.name ? { hostname: pod.spec.hostname as string } : {}),
      ...(nodeName ? { nodeName } : {}),
      ...(zone ? { zone } : {}),
      ...(hints && ready && zone ? { hints: { forZones: [{ name: zone }] } } : {}),
      targetRef: podTargetRef(pod),
    });
    groups.set(key, g);
  }
  const out: { ports: EndpointPort[]; endpoints: Endpoint[] }[] = [];
  for (const g of groups.values()) {
    g.endpoints.sort((a, b) => a.addresses[0]!.localeCompare(b.addresses[0]!));
    for (let i = 0; i < g.endpoints.length; i += MAX_ENDPOINTS_PER_SLICE) out.push({ ports: g.ports, endpoints: g.endpoints.slice(i, i + MAX_ENDPOINTS_PER_SLICE) });
  }
  // A service with no endpoints still has one (empty) slice with its ports, as upstream's placeholder.
  if (!out.length) out.push({ ports: [], endpoints: [] });
  return { slices: out, skipped };
}

export async function startEndpointSliceController(ctx: ClusterControllerContext): Promise<void> {
  const services = ctx.informers.informerFor(Resources.services);
  const pods = ctx.informers.pods();
  const nodes = ctx.informers.nodes();
  const slices = ctx.informers.informerFor(Resources.endpointSlices);
  const svcLister = services.lister();
  const podLister = pods.lister();
  const nodeLister = nodes.lister();
  const sliceLister = slices.lister();
  // upstream's: client-go's default limiter with a 1 s first backoff (not 5 ms) growing to 1000 s, so that a service
  // retried for a pod on a node not seen yet keeps being retried for over an hour, not a few minutes
  const loop = workerLoop(ctx, 'endpointslice-controller', sync, 15, (clock) => defaultControllerRateLimiter(clock, 1_000));
  const tracker = new SliceTracker();
  const triggerTimes = new TriggerTimeTracker();
  const topology = new TopologyCache();
  // The cache follows the nodes lazily: a sync reads them when they changed; a change also requeues, once the burst
  // is over, the services it leaves overloaded (upstream's checkNodeTopologyDistribution).
  let nodesSeen = false;
  const seeNodes = (): void => { if (!nodesSeen) { topology.setNodes(nodeLister.list()); nodesSeen = true; } };
  const nodesChanged = (): void => {
    if (!nodesSeen) return;
    nodesSeen = false;
    setImmediate(() => { seeNodes(); for (const key of topology.overloadedServices()) loop.queue.add(key); });
  };
  nodes.addEventHandler({ onAdd: nodesChanged, onDelete: nodesChanged, onUpdate: (o, n) => { if (nodeTopologyChanged(o, n)) nodesChanged(); } });

  enqueueServicesAndTheirPods(services, pods, (s) => loop.enqueue(s));
  slices.addEventHandler(sliceEventHandler(tracker, MANAGED_BY, (key) => loop.enqueueAfter(key, SLICE_CHANGE_MIN_SYNC_DELAY_MS)));


  async function sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const svc = svcLister.get(key);
    if (!svc) { triggerTimes.delete(namespace, name); topology.forget(key); tracker.deleteService(key); }
    // an ExternalName service gets no endpoints, whatever its selector (upstream's syncService; issue 105986)
    if (svc?.spec?.type === 'ExternalName') return;
    // The garbage collector deletes the slices of a deleted service; a service without selector (or that lost it) keeps
    // whatever slices it has (upstream's syncService returns early).
    if (!svc || !hasSelector(svc)) return;
    const client = ctx.client.resource(Resources.endpointSlices, namespace);
    // a slice being deleted is left alone, lest a finalizer on it keep the service stale for good (upstream's
    // dropEndpointSlicesPendingDeletion)
    const existing = managedSlices(sliceLister, namespace, name, MANAGED_BY).filter((s) => !s.metadata?.deletionTimestamp);
    if (tracker.stale(key, existing)) throw new StaleInformerCache();
    const labels: Record<string, string> = { ...(svc.metadata?.labels ?? {}), [LABEL_SERVICE_NAME]: name, [LABEL_MANAGED_BY]: MANAGED_BY };
    if (svc.spec?.clusterIP === 'None') labels['service.kubernetes.io/headless'] = '';
    // computed on every sync, written or not, so that the tracker knows what has been published
    const selected = podLister.namespace(namespace).list().filter((p) => servicesSelecting([svc], p).length > 0);
    const triggerTime = triggerTimes.compute(svc, selected);
    const { slices: wanted, skipped } = desiredSlices(svc, selected, (node) => nodeLister.get(node));
    seeNodes();
    const events = hintsAnnotated(svc.metadata?.annotations) ? topology.addHints(key, wanted, existing) : topology.disable(key);
    // the reconciler's errors: the pods skipped, then the writes' first failure
    const errors = [...skipped];
    try {
      await writeSlices({
        client, signal: ctx.signal, service: name, namespace, labels, existing,
        wanted: wanted.map((d) => ({ addressType: 'IPv4', endpoints: d.endpoints, ports: d.ports })),
        owner: { apiVersion: 'v1', kind: 'Service', name, uid: svc.metadata!.uid!, controller: true, blockOwnerDeletion: true },
        ownerDeleting: !!svc.metadata?.deletionTimestamp,
        tracker,
        annotate: (current) => withTriggerTime(current, triggerTime),
      });
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      errors.push(err instanceof Error ? err.message : String(err));
    } finally {
      // recorded whether the writes succeeded or not, as upstream's reconciler does
      for (const e of events) ctx.recorder.event(svc, e.type, e.reason, e.message);
    }
    // upstream's syncService warns on the service and requeues it (rate limited), so a pod whose node is not known
    // yet gets in once it is
    if (errors.length) {
      const err = new Error(aggregateMessage(errors));
      ctx.recorder.event(svc, 'Warning', 'FailedToUpdateEndpointSlices', `Error updating Endpoint Slices for Service ${namespace}/${name}: ${err.message}`);
      throw err;
    }
  }

  await loop.run();
}
