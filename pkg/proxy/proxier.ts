// Brings the listening sockets in line with the service ports: opens what is new (adding its ClusterIP to the host
// first), closes what went away, and hands changed endpoints to the running balancers without dropping connections.
import type { Logger } from 'pino';
import { Balancer } from './balancer.js';
import { openFrontend, type Frontend } from './frontends.js';
import type { ServiceAddresses } from './service-addresses.js';
import type { Backend, Protocol, ServicePortEntry } from './service-map.js';

export interface ProxierOptions {
  /** Where ClusterIPs become host addresses; without it (not root) only NodePorts are served. */
  addresses?: ServiceAddresses;
  /** Addresses NodePorts listen on (0.0.0.0: all). */
  nodePortAddresses: string[];
  logger: Logger;
}

interface Wanted {
  service: string;
  protocol: Protocol;
  host: string;
  port: number;
  backends: Backend[];
  affinityMs?: number;
  clusterIP?: string;
}

export class Proxier {
  private readonly open = new Map<string, { frontend: Frontend; balancer: Balancer }>();
  private readonly hostAddresses = new Set<string>();
  /** Frontends that could not be opened, so that the failure is logged once and not at every sync. */
  private readonly failed = new Set<string>();

  constructor(private readonly o: ProxierOptions) {}

  /** The frontends open now, as "TCP 10.96.0.1:443". */
  listening(): string[] { return [...this.open.keys()]; }

  async sync(entries: ServicePortEntry[]): Promise<void> {
    const want = new Map<string, Wanted>();
    for (const e of entries) {
      const base = { service: e.name, protocol: e.protocol, affinityMs: e.affinityMs };
      if (this.o.addresses) {
        for (const ip of e.clusterIPs) want.set(`${e.protocol} ${ip}:${e.port}`, { ...base, host: ip, port: e.port, backends: e.clusterBackends, clusterIP: ip });
      }
      if (e.nodePort) {
        for (const host of this.o.nodePortAddresses) want.set(`${e.protocol} ${host}:${e.nodePort}`, { ...base, host, port: e.nodePort, backends: e.nodePortBackends });
      }
      // the load balancer's addresses are the host's own (the node IPs ServiceLB gives): served as they are
      for (const ip of e.loadBalancerIPs) want.set(`${e.protocol} ${ip}:${e.port}`, { ...base, host: ip, port: e.port, backends: e.nodePortBackends });
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
        running.balancer.update(w.backends, w.affinityMs);
        continue;
      }
      try {
        if (w.clusterIP && !this.hostAddresses.has(w.clusterIP)) {
          await this.o.addresses?.add(w.clusterIP);
          this.hostAddresses.add(w.clusterIP);
        }
        const balancer = new Balancer(w.backends, w.affinityMs);
        this.open.set(key, { frontend: await openFrontend(w.protocol, w.host, w.port, balancer), balancer });
        this.failed.delete(key);
        this.o.logger.debug({ service: w.service, frontend: key, endpoints: w.backends.length }, 'serving');
      } catch (err) {
        if (!this.failed.has(key)) this.o.logger.warn({ err, service: w.service, frontend: key }, 'cannot serve this service port; will retry at the next sync');
        this.failed.add(key);
      }
    }
  }

  async close(): Promise<void> {
    for (const f of this.open.values()) f.frontend.close();
    this.open.clear();
    for (const ip of this.hostAddresses) await this.o.addresses?.remove(ip).catch(() => undefined);
    this.hostAddresses.clear();
  }
}
