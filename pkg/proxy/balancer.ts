// Which endpoint a new connection goes to: round-robin over those it may use (all usable ones, or under a Local
// traffic policy those of its nodes), or with sessionAffinity ClientIP the endpoint the client had, while the client
// came back within the affinity timeout and may still use it (as iptables' recent lists, which are the endpoint's and
// so shared by the Cluster and Local choices).
import { usableEndpoints, type Backend, type Endpoint } from './service-map.js';

const same = (a: Backend, b: Backend): boolean => a.ip === b.ip && a.port === b.port;

export class Balancer {
  /** By node set ('' for the cluster-wide choice): the usable endpoints, and the round-robin position among them. */
  private readonly choices = new Map<string, { backends: Backend[]; next: number }>();
  private readonly affinity = new Map<string, { backend: Backend; until: number }>();

  constructor(private endpoints: Endpoint[], private affinityMs?: number, private readonly now: () => number = Date.now) {}

  update(endpoints: Endpoint[], affinityMs: number | undefined): void {
    this.endpoints = endpoints;
    this.affinityMs = affinityMs;
    for (const [key, c] of this.choices) c.backends = usableEndpoints(endpoints, key ? key.split(',') : undefined);
    if (!affinityMs) this.affinity.clear();
    for (const [client, a] of this.affinity) if (!endpoints.some((b) => same(b, a.backend))) this.affinity.delete(client);
  }

  /**
   * The endpoint for a new connection or flow from `client` (its IP), among those on `nodes` when given (a Local
   * traffic policy), or undefined when there is none.
   */
  pick(client: string, nodes?: readonly string[]): Backend | undefined {
    const key = nodes ? nodes.join(',') : '';
    let choice = this.choices.get(key);
    if (!choice) this.choices.set(key, (choice = { backends: usableEndpoints(this.endpoints, nodes), next: 0 }));
    const { backends } = choice;
    if (!backends.length) return undefined;
    const now = this.now();
    if (this.affinityMs) {
      const had = this.affinity.get(client);
      if (had && had.until > now && backends.some((b) => same(b, had.backend))) {
        had.until = now + this.affinityMs;
        return had.backend;
      }
    }
    const backend = backends[choice.next++ % backends.length]!;
    if (this.affinityMs) this.affinity.set(client, { backend, until: now + this.affinityMs });
    return backend;
  }
}
