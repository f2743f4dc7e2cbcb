// Where an APIService's service is reached. mini-kube has no kube-proxy, so a ClusterIP is not routable: the
// aggregator always routes to the service's endpoints, as upstream's does with --enable-aggregator-routing
// (pkg/apimachinery/service-endpoint.ts); an ExternalName service is reached at its external name and the
// APIService's port, as upstream's cluster resolver does. Failures carry the reasons of upstream's availability
// controller (kube-aggregator pkg/controllers/status/remote, the Endpoints-based 1.32 wording).
import { resolveServiceEndpoint, type ServiceReference } from '../../apimachinery/service-endpoint.js';
import type { RegistrySet } from '../../registry/index.js';

export { endpointUrl } from '../../apimachinery/service-endpoint.js';

export type Resolution =
  | { ok: true; host: string; port: number }
  | { ok: false; reason: string; message: string };

export function resolveService(registries: RegistrySet, ref: ServiceReference): Resolution {
  const port = ref.port ?? 443;
  const get = (resource: 'services' | 'endpoints', namespace: string, name: string) => registries.get('', 'v1', resource)?.peek(namespace, name)?.object;
  const svc = get('services', ref.namespace, ref.name);
  if (svc?.spec?.type === 'ExternalName') return { ok: true, host: String(svc.spec.externalName ?? ''), port };
  const r = resolveServiceEndpoint(get, ref);
  if (r.ok) return r;
  const where = `service/${ref.name} in "${ref.namespace}"`;
  switch (r.failure) {
    case 'ServiceNotFound': return { ok: false, reason: r.failure, message: `${where} is not present` };
    case 'ServicePortError': return { ok: false, reason: r.failure, message: `${where} is not listening on port ${port}` };
    case 'EndpointsNotFound': return { ok: false, reason: r.failure, message: `cannot find endpoints for ${where}` };
    case 'MissingEndpoints': return { ok: false, reason: r.failure, message: `endpoints for ${where} have no addresses with port name "${r.portName}"` };
    default: return { ok: false, reason: r.failure, message: r.message };
  }
}
