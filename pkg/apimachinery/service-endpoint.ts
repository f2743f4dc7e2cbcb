// Which endpoint a service reference reaches, as upstream's apiserver/pkg/util/proxy ResolveEndpoint: mini-kube has no
// cluster IP routing in the apiserver, so admission webhooks, conversion webhooks and aggregated APIs all go to one of
// the service's ready addresses serving the referenced port, chosen at random so that load spreads.
import type { KubeObject } from '../../api/types.js';

export interface ServiceReference {
  namespace: string;
  name: string;
  port?: number;
}

/** Reads a Service or an Endpoints object from the apiserver's own state. */
export type ServiceGetter = (resource: 'services' | 'endpoints', namespace: string, name: string) => KubeObject | undefined;

/** Why no endpoint was found: the aggregator's availability reasons name these. */
export type EndpointFailure = 'ServiceNotFound' | 'ServicePortError' | 'UnsupportedServiceType' | 'EndpointsNotFound' | 'MissingEndpoints';

export type EndpointResolution =
  | { ok: true; host: string; port: number }
  /** `message` is ResolveEndpoint's error; `portName` the service port's name the endpoints were searched for. */
  | { ok: false; failure: EndpointFailure; message: string; portName: string };

interface ServicePort { name?: string; port?: number }
interface EndpointSubset { addresses?: { ip: string }[]; ports?: { name?: string; port: number }[] }

export function resolveServiceEndpoint(get: ServiceGetter, ref: ServiceReference): EndpointResolution {
  const fail = (failure: EndpointFailure, message: string, portName = ''): EndpointResolution => ({ ok: false, failure, message, portName });
  const svc = get('services', ref.namespace, ref.name);
  if (!svc) return fail('ServiceNotFound', `service "${ref.name}" not found`);
  const port = ref.port ?? 443;
  const sp = ((svc.spec?.ports ?? []) as ServicePort[]).find((p) => p.port === port);
  if (!sp) return fail('ServicePortError', `no service port ${port} found for service "${ref.name}"`);
  const type = String(svc.spec?.type ?? 'ClusterIP');
  if (type !== 'ClusterIP' && type !== 'LoadBalancer' && type !== 'NodePort') return fail('UnsupportedServiceType', `unsupported service type "${type}"`);
  const portName = sp.name ?? '';
  const eps = get('endpoints', ref.namespace, ref.name);
  if (!eps) return fail('EndpointsNotFound', `endpoints "${ref.name}" not found`, portName);
  const candidates: { host: string; port: number }[] = [];
  for (const subset of (eps.subsets ?? []) as EndpointSubset[]) {
    for (const p of subset.ports ?? []) {
      if ((p.name ?? '') !== portName) continue;
      for (const a of subset.addresses ?? []) candidates.push({ host: a.ip, port: p.port });
    }
  }
  if (candidates.length === 0) return fail('MissingEndpoints', `no endpoints available for service "${ref.name}"`, portName);
  return { ok: true, ...candidates[Math.floor(Math.random() * candidates.length)]! };
}

/** https://host:port, the host bracketed when it is an IPv6 address. */
export const endpointUrl = (r: { host: string; port: number }): string =>
  `https://${r.host.includes(':') ? `[${r.host}]` : r.host}:${r.port}`;
