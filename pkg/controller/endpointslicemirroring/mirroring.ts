// The EndpointSlice mirroring controller (upstream pkg/controller/endpointslicemirroring): the Endpoints of a Service
// without selector, written by hand or by another tool, are mirrored into EndpointSlices labelled managed-by
// endpointslicemirroring-controller.k8s.io and owned by the Endpoints, so that what reads slices (the service proxy,
// the cluster DNS) sees them. The subsets are repacked first (addresses deduplicated); addresses are ready endpoints,
// notReadyAddresses not ready ones, one slice per subset and address family, of at most 1,000 addresses (the rest
// skipped, with a Warning event). The slices carry the Endpoints' labels and annotations (but its trigger time and
// last-applied configuration). Endpoints labelled endpointslice.kubernetes.io/skip-mirror=true, and those of a service
// with a selector, are not mirrored. The slices written are tracked as the EndpointSlice controller's are
// (../shared/slice-tracker.ts).
import { isIPv6 } from 'node:net';
import { LABEL_MANAGED_BY, LABEL_SERVICE_NAME } from '../../../api/discovery/v1/index.js';
import type { KubeObject } from '../../../api/types.js';
import { defaultControllerRateLimiter, Resources, type Clock, type ItemRateLimiter } from '../../client/index.js';
import { canonicalJson, objOf, workerLoop } from '../shared/controller-utils.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { deleteSlices, managedSlices, writeSlices, type WantedSlice } from '../shared/endpoint-slices.js';
import { SliceTracker, sliceEventHandler, StaleInformerCache } from '../shared/slice-tracker.js';
import { hasSelector } from '../shared/service-pods.js';

export const MIRRORING_MANAGED_BY = 'endpointslicemirroring-controller.k8s.io';
const SKIP_MIRROR = 'endpointslice.kubernetes.io/skip-mirror';
/** Annotations of the Endpoints not copied onto its slices (upstream's newEndpointSlice). */
const NOT_MIRRORED = ['endpoints.kubernetes.io/last-change-trigger-time', 'kubectl.kubernetes.io/last-applied-configuration'];
/** Upstream's --mirroring-max-endpoints-per-subset default: the addresses mirrored per subset, in one slice per family. */
const MAX_ENDPOINTS_PER_SUBSET = 1000;

interface Address { ip: string; hostname?: string; nodeName?: string; targetRef?: Record<string, unknown> }
interface Port { name?: string; port: number; protocol?: string; appProtocol?: string }
interface Subset { addresses?: Address[]; notReadyAddresses?: Address[]; ports?: Port[] }

/**
 * Upstream's RepackSubsets: addresses deduplicated by IP and targetRef UID (not-ready winning over ready), and the
 * ports served by the same addresses gathered in one subset (a subset without ports kept as such).
 */
export function repackSubsets(subsets: Subset[]): Subset[] {
  const addresses = new Map<string, Address>();
  const byPort = new Map<string, { port?: Port; ready: Map<string, boolean> }>();
  for (const subset of subsets) {
    for (const port of subset.ports?.length ? subset.ports : [undefined]) {
      const key = port ? canonicalJson([port.name ?? '', port.port, port.protocol ?? 'TCP', port.appProtocol ?? null]) : '';
      let entry = byPort.get(key);
      if (!entry) byPort.set(key, (entry = { ...(port ? { port } : {}), ready: new Map() }));
      for (const [list, ready] of [[subset.addresses, true], [subset.notReadyAddresses, false]] as const) {
        for (const a of list ?? []) {
          const id = `${a.ip}/${String(a.targetRef?.uid ?? '')}`;
          if (!addresses.has(id)) addresses.set(id, a);
          if (entry.ready.get(id) !== false) entry.ready.set(id, ready);
        }
      }
    }
  }
  const bySet = new Map<string, { ready: Map<string, boolean>; ports: Port[] }>();
  for (const { port, ready } of byPort.values()) {
    const key = [...ready].map(([id, r]) => `${id}=${r}`).sort().join(',');
    let entry = bySet.get(key);
    if (!entry) bySet.set(key, (entry = { ready, ports: [] }));
    if (port) entry.ports.push(port);
  }
  const byIp = (a: Address, b: Address): number => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : String(a.targetRef?.uid ?? '').localeCompare(String(b.targetRef?.uid ?? '')));
  const pick = (ready: Map<string, boolean>, want: boolean): Address[] => [...ready].filter(([, r]) => r === want).map(([id]) => addresses.get(id)!).sort(byIp);
  return [...bySet.values()].map(({ ready, ports }) => ({ addresses: pick(ready, true), notReadyAddresses: pick(ready, false), ports }));
}

/** An address's IP as a slice holds it, and its family; undefined for no IP (upstream's ParseIPSloppy, restringified). */
function sliceAddress(ip: string): { ip: string; family: 'IPv4' | 'IPv6' } | undefined {
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  if (v4) {
    const octets = v4.slice(1).map(Number);
    return octets.every((o) => o <= 255) ? { ip: octets.join('.'), family: 'IPv4' } : undefined;
  }
  return !ip.includes('%') && isIPv6(ip) ? { ip, family: 'IPv6' } : undefined;
}

export interface Mirrored {
  slices: WantedSlice[];
  /** Addresses that are no IP. */
  invalid: number;
  /** Addresses left out, past the 1000 of a subset or invalid. */
  skipped: number;
}

/** The slices an Endpoints object mirrors into: one per repacked subset and address family (upstream's reconcile). */
export function mirroredSlices(endpoints: KubeObject): Mirrored {
  const slices: WantedSlice[] = [];
  let invalid = 0;
  let skipped = 0;
  for (const subset of repackSubsets((endpoints.subsets ?? []) as Subset[])) {
    const ports = (subset.ports ?? []).map((p) => ({ name: p.name ?? '', port: p.port, protocol: p.protocol ?? 'TCP', ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}) }));
    // an endpoint is one per IP, hostname and target (upstream's EndpointSet: a later one replaces an earlier one)
    const byFamily = new Map<string, Map<string, unknown>>();
    let added = 0;
    const all = [...subset.addresses!.map((a) => [a, true] as const), ...subset.notReadyAddresses!.map((a) => [a, false] as const)];
    for (const [a, ready] of all) {
      if (added >= MAX_ENDPOINTS_PER_SUBSET) break;
      const address = sliceAddress(a.ip);
      if (!address) { invalid++; continue; }
      added++;
      const endpoint = {
        addresses: [address.ip], conditions: { ready },
        ...(a.hostname ? { hostname: a.hostname } : {}),
        ...(a.targetRef ? { targetRef: a.targetRef } : {}),
        ...(a.nodeName ? { nodeName: a.nodeName } : {}),
      };
      const family = byFamily.get(address.family) ?? new Map<string, unknown>();
      family.set(`${address.ip}/${a.hostname ?? ''}/${String(a.targetRef?.namespace ?? '')}/${String(a.targetRef?.name ?? '')}`, endpoint);
      byFamily.set(address.family, family);
    }
    skipped += all.length - added;
    for (const [addressType, endpoints] of byFamily) slices.push({ addressType, ports, endpoints: [...endpoints.values()] });
  }
  return { slices, invalid, skipped };
}

/**
 * Upstream's queue: client-go's default limiter with a per-item backoff from 1 s (defaultSyncBackOff, not 5 ms) to
 * 100 s (maxSyncBackOff), as a mirroring can mean many slice writes that the apiserver should not be flooded with.
 */
export const mirroringRateLimiter = (clock: Clock): ItemRateLimiter<string> => defaultControllerRateLimiter(clock, 1_000, 100_000);

export async function startEndpointSliceMirroringController(ctx: ClusterControllerContext): Promise<void> {
  const endpoints = ctx.informers.informerFor(Resources.endpoints);
  const services = ctx.informers.informerFor(Resources.services);
  const slices = ctx.informers.informerFor(Resources.endpointSlices);
  const epLister = endpoints.lister();
  const svcLister = services.lister();
  const sliceLister = slices.lister();
  const loop = workerLoop(ctx, 'endpointslice-mirroring-controller', sync, 15, mirroringRateLimiter);
  const tracker = new SliceTracker();

  const enqueue = { onAdd: (o: KubeObject) => loop.enqueue(o), onUpdate: (_o: KubeObject, n: KubeObject) => loop.enqueue(n), onDelete: (o: unknown) => loop.enqueue(objOf(o as KubeObject)) };
  endpoints.addEventHandler(enqueue);
  services.addEventHandler(enqueue);
  slices.addEventHandler(sliceEventHandler(tracker, MIRRORING_MANAGED_BY, (key) => loop.queue.add(key)));

  async function sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const ep = epLister.get(key);
    const svc = svcLister.get(key);
    const client = ctx.client.resource(Resources.endpointSlices, namespace);
    const existing = managedSlices(sliceLister, namespace, name, MIRRORING_MANAGED_BY);
    if (!ep || !svc || hasSelector(svc) || ep.metadata?.labels?.[SKIP_MIRROR] === 'true') {
      tracker.deleteService(key);
      await deleteSlices(client, existing, ctx.signal);
      return;
    }
    if (tracker.stale(key, existing)) throw new StaleInformerCache();
    const { slices: wanted, invalid, skipped } = mirroredSlices(ep);
    if (invalid > 0) ctx.recorder.event(ep, 'Warning', 'InvalidIPAddress', `Skipped ${invalid} invalid IP addresses when mirroring to EndpointSlices`);
    if (skipped > invalid) {
      ctx.recorder.event(ep, 'Warning', 'TooManyAddressesToMirror',
        `A max of ${MAX_ENDPOINTS_PER_SUBSET} addresses can be mirrored to EndpointSlices per Endpoints subset. ${skipped} addresses were skipped`);
    }
    const annotations = Object.fromEntries(Object.entries(ep.metadata?.annotations ?? {}).filter(([k]) => !NOT_MIRRORED.includes(k)));
    await writeSlices({
      client, signal: ctx.signal, service: name, namespace, existing,
      labels: { ...(ep.metadata?.labels ?? {}), [LABEL_SERVICE_NAME]: name, [LABEL_MANAGED_BY]: MIRRORING_MANAGED_BY },
      wanted,
      owner: { apiVersion: 'v1', kind: 'Endpoints', name, uid: ep.metadata!.uid!, controller: true, blockOwnerDeletion: true },
      ownerDeleting: !!ep.metadata?.deletionTimestamp,
      tracker,
      annotate: () => annotations,
      // upstream compares a mirrored slice's annotations with the Endpoints' too
      annotated: (current) => canonicalJson(current ?? {}) === canonicalJson(annotations),
    });
  }

  await loop.run();
}
