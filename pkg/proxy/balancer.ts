// Which endpoint a new connection goes to: round-robin, or with sessionAffinity ClientIP the endpoint the client had,
// while it is still an endpoint and the client came back within the affinity timeout.
import type { Backend } from './service-map.js';

const same = (a: Backend, b: Backend): boolean => a.ip === b.ip && a.port === b.port;

export class Balancer {
  private next = 0;
  private readonly affinity = new Map<string, { backend: Backend; until: number }>();

  constructor(private backends: Backend[], private affinityMs?: number, private readonly now: () => number = Date.now) {}

  update(backends: Backend[], affinityMs: number | undefined): void {
    this.backends = backends;
    this.affinityMs = affinityMs;
    if (!affinityMs) this.affinity.clear();
    for (const [client, a] of this.affinity) if (!backends.some((b) => same(b, a.backend))) this.affinity.delete(client);
  }

  get size(): number { return this.backends.length; }

  /** The endpoint for a new connection or flow from `client` (its IP), or undefined when there is none. */
  pick(client: string): Backend | undefined {
    if (!this.backends.length) return undefined;
    const now = this.now();
    if (this.affinityMs) {
      const had = this.affinity.get(client);
      if (had && had.until > now) {
        had.until = now + this.affinityMs;
        return had.backend;
      }
    }
    const backend = this.backends[this.next++ % this.backends.length]!;
    if (this.affinityMs) this.affinity.set(client, { backend, until: now + this.affinityMs });
    return backend;
  }
}
