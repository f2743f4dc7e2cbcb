// Where an APIService's service is reached. mini-kube has no kube-proxy, so a ClusterIP is not routable: the
// aggregator always routes to the service's endpoints, as upstream's does with --enable-aggregator-routing
// (apiserver/pkg/util/proxy ResolveEndpoint); an ExternalName service is reached at its external name and the
// APIService's port, as upstream's cluster resolver does. Failures carry the reasons of upstream's availability
// controller (kube-aggregator pkg/controllers/status/remote, the Endpoints-based 1.32 wording).
import type { RegistrySet } from '../../registry/index.js';

export interface ServiceRef {
  namespace: string;
  name: string;
  port?: number;
}

export type Resolution =
  | { ok: true; host: string; port: number }
  | { ok: false; reason: string; message: string };

interface ServicePort { name?: string; port: number }
interface EndpointSubset { addresses?: { ip: string }[]; ports?: { name?: string; port: number }[] }

export function resolveService(registries: RegistrySet, ref: ServiceRef): Resolution {
  const port = ref.port ?? 443;
  const where = `service/${ref.name} in "${ref.namespace}"`;
  const svc = registries.get('', 'v1', 'services')?.peek(ref.namespace, ref.name)?.object;
  if (!svc) return { ok: false, reason: 'ServiceNotFound', message: `${where} is not present` };
  if (svc.spec?.type === 'ExternalName') return { ok: true, host: String(svc.spec.externalName ?? ''), port };
  const sp = ((svc.spec?.ports ?? []) as ServicePort[]).find((p) => p.port === port);
  if (!sp) return { ok: false, reason: 'ServicePortError', message: `${where} is not listening on port ${port}` };
  const eps = registries.get('', 'v1', 'endpoints')?.peek(ref.namespace, ref.name)?.object;
  if (!eps) return { ok: false, reason: 'EndpointsNotFound', message: `cannot find endpoints for ${where}` };
  const portName = sp.name ?? '';
  const candidates: { host: string; port: number }[] = [];
  for (const subset of (eps.subsets ?? []) as EndpointSubset[]) {
    const epPort = (subset.ports ?? []).find((p) => (p.name ?? '') === portName);
    if (!epPort) continue;
    for (const a of subset.addresses ?? []) candidates.push({ host: a.ip, port: epPort.port });
  }
  if (candidates.length === 0) {
    return { ok: false, reason: 'MissingEndpoints', message: `endpoints for ${where} have no addresses with port name "${portName}"` };
  }
  // Upstream picks one at random: load spreads over the endpoints.
  return { ok: true, ...candidates[Math.floor(Math.random() * candidates.length)]! };
}

/** https://host:port, the host bracketed when it is an IPv6 address. */
export const endpointUrl = (r: { host: string; port: number }): string =>
  `https://${r.host.includes(':') ? `[${r.host}]` : r.host}:${r.port}`;
