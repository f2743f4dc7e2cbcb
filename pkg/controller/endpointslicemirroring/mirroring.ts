// The EndpointSlice mirroring controller (upstream pkg/controller/endpointslicemirroring): the Endpoints of a Service
// without selector, written by hand or by another tool, are mirrored into EndpointSlices labelled managed-by
// endpointslicemirroring-controller.k8s.io and owned by the Endpoints, so that what reads slices (the service proxy,
// the cluster DNS) sees them. Addresses are ready endpoints, notReadyAddresses not ready ones, one slice per subset's
// ports and address family (at most 100 endpoints each, at most 1,000 addresses mirrored per subset). Endpoints
// labelled endpointslice.kubernetes.io/skip-mirror=true, and those of a service with a selector, are not mirrored.
import { LABEL_MANAGED_BY, LABEL_SERVICE_NAME } from '../../../api/discovery/v1/index.js';
import type { KubeObject } from '../../../api/types.js';
import { Resources } from '../../client/index.js';
import { objOf, workerLoop } from '../shared/controller-utils.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { CreatedSlices, deleteSlices, managedSlices, writeSlices, type WantedSlice } from '../shared/endpoint-slices.js';
import { hasSelector } from '../shared/service-pods.js';

export const MIRRORING_MANAGED_BY = 'endpointslicemirroring-controller.k8s.io';
const SKIP_MIRROR = 'endpointslice.kubernetes.io/skip-mirror';
const LAST_CHANGE = 'endpoints.kubernetes.io/last-change-trigger-time';
const MAX_ENDPOINTS_PER_SLICE = 100;
const MAX_ENDPOINTS_PER_SUBSET = 1000;

interface Address { ip: string; hostname?: string; nodeName?: string; targetRef?: Record<string, unknown> }
interface Subset { addresses?: Address[]; notReadyAddresses?: Address[]; ports?: { name?: string; port: number; protocol?: string; appProtocol?: string }[] }

/** The slices an Endpoints object mirrors into. */
export function mirroredSlices(endpoints: KubeObject): WantedSlice[] {
  const out: WantedSlice[] = [];
  for (const subset of (endpoints.subsets ?? []) as Subset[]) {
    const ports = (subset.ports ?? []).map((p) => ({ name: p.name ?? '', port: p.port, protocol: p.protocol ?? 'TCP', ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}) }));
    const byFamily = new Map<string, unknown[]>();
    const all = [...(subset.addresses ?? []).map((a) => [a, true] as const), ...(subset.notReadyAddresses ?? []).map((a) => [a, false] as const)]
      .slice(0, MAX_ENDPOINTS_PER_SUBSET);
    for (const [a, ready] of all) {
      const family = a.ip.includes(':') ? 'IPv6' : 'IPv4';
      const endpoint = {
        addresses: [a.ip], conditions: { ready },
        ...(a.hostname ? { hostname: a.hostname } : {}),
        ...(a.targetRef ? { targetRef: a.targetRef } : {}),
        ...(a.nodeName ? { nodeName: a.nodeName } : {}),
      };
      const list = byFamily.get(family);
      if (list) list.push(endpoint); else byFamily.set(family, [endpoint]);
    }
    for (const [addressType, endpoints] of byFamily) {
      for (let i = 0; i < endpoints.length; i += MAX_ENDPOINTS_PER_SLICE) out.push({ addressType, ports, endpoints: endpoints.slice(i, i + MAX_ENDPOINTS_PER_SLICE) });
    }
  }
  return out;
}

export async function startEndpointSliceMirroringController(ctx: ClusterControllerContext): Promise<void> {
  const endpoints = ctx.informers.informerFor(Resources.endpoints);
  const services = ctx.informers.informerFor(Resources.services);
  const slices = ctx.informers.informerFor(Resources.endpointSlices);
  const epLister = endpoints.lister();
  const svcLister = services.lister();
  const sliceLister = slices.lister();
  const loop = workerLoop(ctx, 'endpointslice-mirroring-controller', sync);
  const created = new CreatedSlices();

  const enqueue = { onAdd: (o: KubeObject) => loop.enqueue(o), onUpdate: (_o: KubeObject, n: KubeObject) => loop.enqueue(n), onDelete: (o: unknown) => loop.enqueue(objOf(o as KubeObject)) };
  endpoints.addEventHandler(enqueue);
  services.addEventHandler(enqueue);
  const onSlice = (s: KubeObject): void => {
    const svc = s.metadata?.labels?.[LABEL_SERVICE_NAME];
    if (svc && s.metadata?.labels?.[LABEL_MANAGED_BY] === MIRRORING_MANAGED_BY) loop.queue.add(`${s.metadata!.namespace}/${svc}`);
  };
  slices.addEventHandler({ onUpdate: (_o, s) => onSlice(s), onDelete: (o) => onSlice(objOf(o)) });

  async function sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    if (created.waiting(key, namespace, sliceLister)) { loop.enqueueAfter(key, 100); return; }
    const ep = epLister.get(key);
    const svc = svcLister.get(key);
    const client = ctx.client.resource(Resources.endpointSlices, namespace);
    const existing = managedSlices(sliceLister, namespace, name, MIRRORING_MANAGED_BY);
    if (!ep || !svc || hasSelector(svc) || ep.metadata?.labels?.[SKIP_MIRROR] === 'true') {
      await deleteSlices(client, existing, ctx.signal);
      return;
    }
    const { [SKIP_MIRROR]: _skip, [LAST_CHANGE]: _change, ...copied } = ep.metadata?.labels ?? {};
    await writeSlices({
      client, signal: ctx.signal, service: name, namespace, existing,
      labels: { ...copied, [LABEL_SERVICE_NAME]: name, [LABEL_MANAGED_BY]: MIRRORING_MANAGED_BY },
      wanted: mirroredSlices(ep),
      owner: { apiVersion: 'v1', kind: 'Endpoints', name, uid: ep.metadata!.uid!, controller: true, blockOwnerDeletion: true },
      onCreated: (n) => created.add(key, n),
    });
  }

  await loop.run();
}
