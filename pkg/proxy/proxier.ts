// Brings the listening sockets in line with the service ports: opens what is new (adding its ClusterIP to the host
// first), closes what went away, and hands changed endpoints to the running balancers without dropping connections.
// Which endpoints a connection may use is settled when it comes: under a Local traffic policy, by the node it is
// local to (node-topology.ts).
import type { Logger } from 'pino';
import { Balancer } from './balancer.js';
import { openFrontend, type Frontend, type PickEndpoint } from './frontends.js';
import type { NodeTopology } from './node-topology.js';
import type { ServiceAddresses } from './service-addresses.js';
import type { Endpoint, Protocol, ServicePortEntry } from './service-map.js';

export interface ProxierOptions {
  /** Where ClusterIPs become host addresses; without it (not root) only NodePorts are served. */
  addresses?: ServiceAddresses;
  /** Addresses NodePorts listen on (0.0.0.0: all). */
  nodePortAddresses: string[];
  /** The cluster's nodes as last synced: which node a connection is local to. */
  topology: () => NodeTopology;
  logger: Logger;
}

/** The Local traffic policy a frontend's connections are under: the internal one (ClusterIPs) or the external one. */
type LocalPolicy = 'internal' | 'external' | undefined;

interface Wanted {
  service: string;
  protocol: Protocol;
  host: string;
  port: number;
  endpoints: Endpoint[];
  local: LocalPolicy;
  affinityMs?: number;
  clusterIP?: string;
}

/** What a frontend's connections are sent by; replaced in place as the Service changes. */
interface Route {
  balancer: Balancer;
  local: LocalPolicy;
}

export class Proxier {
  private readonly open = new Map<string, { frontend: Frontend; route: Route }>();
  private readonly hostAddresses = new Set<string>();
  /** Frontends that could not be opened, so that the failure is logged once and not at every sync. */
  private readonly failed = new Set<string>();

  constructor(private readonly o: ProxierOptions) {}

  /** The frontends open now, as "TCP 10.96.0.1:443". */
  listening(): string[] { return [...this.open.keys()]; }

  async sync(entries: ServicePortEntry[]): Promise<void> {
    const want = new Map<string, Wanted>();
    for (const e of entries) {
      const base = { service: e.name, protocol: e.protocol, affinityMs: e.affinityMs, endpoints: e.endpoints };
      const internal = { ...base, local: e.internalLocal ? 'internal' as const : undefined };
      const external = { ...base, local: e.externalLocal ? 'external' as const : undefined };
      if (this.o.addresses) {
        for (const ip of e.clusterIPs) want.set(`${e.protocol} ${ip}:${e.port}`, { ...internal, host: ip, port: e.port, clusterIP: ip });
      }
      if (e.nodePort) {
        for (const host of this.o.nodePortAddresses) want.set(`${e.protocol} ${host}:${e.nodePort}`, { ...external, host, port: e.nodePort });
      }
      // the load balancer's addresses are the host's own (the node IPs ServiceLB gives): served as they are
      for (const ip of e.loadBalancerIPs) want.set(`${e.protocol} ${ip}:${e.port}`, { ...external, host: ip, port: e.port });
    }
    for (const [key, f] of this.open) {
      if (want.has(key)) continue;
      f.frontend.close();
      this.open.delete(key);
    }
    for (const key of this.failed) if (!want.has(key)) this.failed.delete(key);
    const stillUsed = new Set([...want.values()].flatMap((w) => (w.clusterIP ? [w.clusterIP] : [])));
    for (const ip of [...this.hostAddresses].filter((a) => !stillUsed.has(a))) {
      await this.o.addresses?.remove(ip);
      this.hostAddresses.delete(ip);
    }
    for (const [key, w] of want) {
      const running = this.open.get(key);
      if (running) {
        running.route.balancer.update(w.endpoints, w.affinityMs);
        running.route.local = w.local;
        continue;
      }
      try {
        if (w.clusterIP && !this.hostAddresses.has(w.clusterIP)) {
          await this.o.addresses?.add(w.clusterIP);
          this.hostAddresses.add(w.clusterIP);
        }
        const route: Route = { balancer: new Balancer(w.endpoints, w.affinityMs), local: w.local };
        const pick: PickEndpoint = (source, destination) => route.balancer.pick(source, this.localNodes(route.local, source, destination));
        this.open.set(key, { frontend: await openFrontend(w.protocol, w.host, w.port, pick), route });
        this.failed.delete(key);
        this.o.logger.debug({ service: w.service, frontend: key, endpoints: w.endpoints.length }, 'serving');
      } catch (err) {
        if (!this.failed.has(key)) this.o.logger.warn({ err, service: w.service, frontend: key }, 'cannot serve this service port; will retry at the next sync');
        this.failed.add(key);
      }
    }
  }

  /** The nodes whose endpoints a connection may use under `local`; undefined: any endpoint. */
  private localNodes(local: LocalPolicy, source: string, destination: string | undefined): string[] | undefined {
    if (local === 'internal') return this.o.topology().internal(source);
    if (local === 'external') return this.o.topology().external(source, destination);
    return undefined;
  }

  async close(): Promise<void> {
    for (const f of this.open.values()) f.frontend.close();
    this.open.clear();
    for (const ip of this.hostAddresses) await this.o.addresses?.remove(ip).catch(() => undefined);
    this.hostAddresses.clear();
  }
}
