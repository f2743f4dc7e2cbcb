// The health checks of LoadBalancer Services with externalTrafficPolicy Local, as kube-proxy serves them: on the
// Service's healthCheckNodePort, HTTP on any path, 200 while the node has a ready endpoint of the Service and 503
// while it has none, so that the load balancer sends traffic only to nodes that keep it local. Every node's
// kube-proxy answers for its node; here one proxy answers for the node whose address the request was sent to
// (node-topology.ts). The body and headers are kube-proxy's.
import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import type { NodeTopology } from './node-topology.js';

export interface HealthCheck {
  namespace: string;
  name: string;
  nodePort: number;
  /** The addresses of the Service's ready endpoints, by node. */
  readyByNode: ReadonlyMap<string, ReadonlySet<string>>;
}

/** The ready endpoints of the Service on these nodes, distinct addresses counted (kube-proxy's LocalReadyEndpoints). */
export const localEndpoints = (c: HealthCheck, nodes: readonly string[]): number =>
  new Set(nodes.flatMap((n) => [...(c.readyByNode.get(n) ?? [])])).size;

const body = (c: HealthCheck, count: number): string => [
  '{',
  '\t"service": {',
  `\t\t"namespace": ${JSON.stringify(c.namespace)},`,
  `\t\t"name": ${JSON.stringify(c.name)}`,
  '\t},',
  `\t"localEndpoints": ${count},`,
  '\t"serviceProxyHealthy": true',
  '}',
].join('\n');

export class HealthCheckServers {
  /** By "address:port": the server, and the check it answers for (replaced in place as endpoints change). */
  private readonly open = new Map<string, { server: Server; check: HealthCheck }>();
  private readonly failed = new Set<string>();

  constructor(private readonly o: { addresses: string[]; topology: () => NodeTopology; logger: Logger }) {}

  /** Serves exactly `checks`: opens the new ports, closes those no Service has any more. */
  async sync(checks: HealthCheck[]): Promise<void> {
    const want = new Map<string, { host: string; check: HealthCheck }>();
    for (const check of checks) for (const host of this.o.addresses) want.set(`${host}:${check.nodePort}`, { host, check });
    for (const [key, s] of this.open) {
      if (want.has(key)) continue;
      s.server.close();
      this.open.delete(key);
    }
    for (const key of this.failed) if (!want.has(key)) this.failed.delete(key);
    for (const [key, { host, check }] of want) {
      const running = this.open.get(key);
      if (running) {
        running.check = check;
        continue;
      }
      const entry = { server: createServer((req, res) => {
        const c = entry.check;
        const count = localEndpoints(c, this.o.topology().receivers(req.socket.localAddress));
        const text = body(c, count);
        res.writeHead(count > 0 ? 200 : 503, {
          'Content-Type': 'application/json', 'X-Content-Type-Options': 'nosniff', 'X-Load-Balancing-Endpoint-Weight': String(count),
          'Content-Length': Buffer.byteLength(text),
        });
        res.end(text);
      }), check };
      try {
        await new Promise<void>((resolve, reject) => {
          entry.server.once('error', reject);
          entry.server.listen({ host, port: check.nodePort, exclusive: true }, () => { entry.server.off('error', reject); resolve(); });
        });
        this.open.set(key, entry);
        this.failed.delete(key);
      } catch (err) {
        if (!this.failed.has(key)) this.o.logger.warn({ err, service: `${check.namespace}/${check.name}`, port: check.nodePort }, 'cannot serve the health check node port; will retry at the next sync');
        this.failed.add(key);
      }
    }
  }

  /** The ports served now, as "127.0.0.1:30001". */
  listening(): string[] { return [...this.open.keys()]; }

  close(): void {
    for (const s of this.open.values()) s.server.close();
    this.open.clear();
  }
}
