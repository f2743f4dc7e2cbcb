// What the proxy serves, read from Services and EndpointSlices as kube-proxy's change trackers read them: one entry
// per service port, reachable at each of its ClusterIPs, at its NodePort and at its load balancer's ingress IPs, with
// the endpoints it may pick from.
import { LABEL_SERVICE_NAME } from '../../api/discovery/v1/index.js';
import type { KubeObject } from '../../api/types.js';
import type { HealthCheck } from './health-checks.js';

export type Protocol = 'TCP' | 'UDP';

export interface Backend {
  ip: string;
  port: number;
}

export interface ServicePortEntry {
  /** namespace/name:port, as kube-proxy names a service port in its logs. */
  name: string;
  protocol: Protocol;
  clusterIPs: string[];
  port: number;
  nodePort?: number;
  /** A LoadBalancer Service's status.loadBalancer.ingress IPs (IPv4, not ipMode Proxy), served at `port`. */
  loadBalancerIPs: string[];
  /** Every endpoint of the port; which of them a connection may use is decided per connection (balancer.ts). */
  endpoints: Endpoint[];
  /** internalTrafficPolicy Local: traffic to a ClusterIP stays on its node. */
  internalLocal: boolean;
  /** externalTrafficPolicy Local: traffic to the NodePort and the load balancer IPs stays on the node it arrives at. */
  externalLocal: boolean;
  /** sessionAffinity ClientIP: how long a client keeps its endpoint. */
  affinityMs?: number;
}

interface SliceEndpoint {
  addresses?: string[];
  nodeName?: string;
  conditions?: { ready?: boolean; serving?: boolean; terminating?: boolean };
}
interface SlicePort { name?: string; port?: number; protocol?: string }
export interface Endpoint extends Backend { node?: string; ready: boolean; servingTerminating: boolean }

/**
 * The endpoints a connection may use, as upstream's CategorizeEndpoints chooses them: the ready ones; when none is
 * ready, those serving while terminating, so that connections still land during a rolling update. Under a Local
 * policy (`nodes` given), the same among the endpoints on those nodes only, the fallback decided for them alone.
 */
export const usableEndpoints = (all: Endpoint[], nodes?: readonly string[]): Backend[] => {
  const mine = nodes ? all.filter((c) => c.node !== undefined && nodes.includes(c.node)) : all;
  const ready = mine.filter((c) => c.ready);
  const chosen = ready.length ? ready : mine.filter((c) => c.servingTerminating);
  const seen = new Set<string>();
  return chosen.filter((c) => !seen.has(`${c.ip}:${c.port}`) && !!seen.add(`${c.ip}:${c.port}`)).map(({ ip, port }) => ({ ip, port }));
};

/** The endpoints of one service port across its EndpointSlices (IPv4 only: the proxy binds IPv4 addresses). */
const endpointsOf = (slices: KubeObject[], portName: string, protocol: Protocol): Endpoint[] => {
  const out: Endpoint[] = [];
  for (const slice of slices) {
    if (slice.addressType !== 'IPv4') continue;
    const port = ((slice.ports ?? []) as SlicePort[]).find((p) => (p.name ?? '') === portName && (p.protocol ?? 'TCP') === protocol);
    if (!port?.port) continue;
    for (const e of (slice.endpoints ?? []) as SliceEndpoint[]) {
      const ip = e.addresses?.[0];
      if (!ip) continue;
      const c = e.conditions ?? {};
      out.push({
        ip, port: port.port, node: e.nodeName,
        ready: c.ready !== false && c.terminating !== true,
        servingTerminating: c.serving !== false && c.terminating === true,
      });
    }
  }
  return out;
};

/** Every service port the proxy should serve, from the cluster's Services and EndpointSlices. */
export function servicePorts(services: KubeObject[], slices: KubeObject[]): ServicePortEntry[] {
  const slicesOf = new Map<string, KubeObject[]>();
  for (const s of slices) {
    const svc = s.metadata?.labels?.[LABEL_SERVICE_NAME];
    if (!svc) continue;
    const key = `${s.metadata?.namespace ?? ''}/${svc}`;
    const list = slicesOf.get(key);
    if (list) list.push(s); else slicesOf.set(key, [s]);
  }
  const out: ServicePortEntry[] = [];
  for (const svc of services) {
    const spec = (svc.spec ?? {}) as Record<string, unknown>;
    if (spec.type === 'ExternalName') continue;
    const key = `${svc.metadata?.namespace ?? ''}/${svc.metadata?.name ?? ''}`;
    const clusterIPs = ((spec.clusterIPs as string[] | undefined) ?? (spec.clusterIP ? [spec.clusterIP as string] : []))
      .filter((ip) => ip && ip !== 'None' && !ip.includes(':'));
    // as kube-proxy: an ingress IP in ipMode Proxy is the load balancer's own, which sends traffic to the NodePort
    const ingress = spec.type === 'LoadBalancer' ? ((svc.status?.loadBalancer?.ingress ?? []) as { ip?: string; ipMode?: string }[]) : [];
    const loadBalancerIPs = ingress.filter((i) => i.ip && !i.ip.includes(':') && i.ipMode !== 'Proxy').map((i) => i.ip!);
    const affinity = spec.sessionAffinity === 'ClientIP'
      ? ((spec.sessionAffinityConfig as { clientIP?: { timeoutSeconds?: number } } | undefined)?.clientIP?.timeoutSeconds ?? 10_800) * 1000
      : undefined;
    for (const p of (spec.ports ?? []) as { name?: string; port: number; protocol?: string; nodePort?: number }[]) {
      const protocol = (p.protocol ?? 'TCP') as Protocol;
      if (protocol !== 'TCP' && protocol !== 'UDP') continue; // SCTP: not proxied
      out.push({
        name: `${key}${p.name ? `:${p.name}` : ''}`,
        protocol, clusterIPs, port: p.port,
        nodePort: spec.type === 'NodePort' || spec.type === 'LoadBalancer' ? p.nodePort : undefined,
        loadBalancerIPs,
        endpoints: endpointsOf(slicesOf.get(key) ?? [], p.name ?? '', protocol),
        internalLocal: spec.internalTrafficPolicy === 'Local',
        externalLocal: spec.externalTrafficPolicy === 'Local',
        affinityMs: affinity,
      });
    }
  }
  return out;
}

/**
 * The health checks the proxy answers (health-checks.ts): LoadBalancer Services with externalTrafficPolicy Local and a
 * healthCheckNodePort, each with its ready endpoints' addresses by node (any port).
 */
export function healthChecks(services: KubeObject[], slices: KubeObject[]): HealthCheck[] {
  const ready = new Map<string, Map<string, Set<string>>>();
  for (const slice of slices) {
    const svc = slice.metadata?.labels?.[LABEL_SERVICE_NAME];
    if (!svc) continue;
    const key = `${slice.metadata?.namespace ?? ''}/${svc}`;
    for (const e of (slice.endpoints ?? []) as SliceEndpoint[]) {
      const c = e.conditions ?? {};
      if (!e.nodeName || c.ready === false || c.terminating === true || !e.addresses?.[0]) continue;
      let byNode = ready.get(key);
      if (!byNode) ready.set(key, (byNode = new Map()));
      let ips = byNode.get(e.nodeName);
      if (!ips) byNode.set(e.nodeName, (ips = new Set()));
      ips.add(e.addresses[0]);
    }
  }
  const out: HealthCheck[] = [];
  for (const svc of services) {
    const spec = (svc.spec ?? {}) as { type?: string; externalTrafficPolicy?: string; healthCheckNodePort?: number };
    if (spec.type !== 'LoadBalancer' || spec.externalTrafficPolicy !== 'Local' || !spec.healthCheckNodePort) continue;
    const namespace = svc.metadata?.namespace ?? '';
    const name = svc.metadata?.name ?? '';
    out.push({ namespace, name, nodePort: spec.healthCheckNodePort, readyByNode: ready.get(`${namespace}/${name}`) ?? new Map() });
  }
  return out;
}
