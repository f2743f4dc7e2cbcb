// The spec.podCIDR of each node a process runs, for runtimes that hand out pod addresses themselves (the fake one):
// as the Node was last read or written by its agent, else looked up when a pod first needs it — one GET for a
// single node, one list for many, shared by every caller waiting meanwhile — so no pod costs a request of its own.
// A node still without one (no node-ipam) is looked up again at most every `retryMs`.
import type { Logger } from 'pino';
import { realClock, type Client, type Clock, type KubeObject } from '../client/index.js';

export interface PodCidrsOptions {
  client: Client;
  nodeNames: string[];
  logger: Logger;
  clock?: Clock;
  /** The podCIDR of the Node as its agent last saw it. */
  seen: (nodeName: string) => string | undefined;
  retryMs?: number;
}

export class PodCidrs {
  private readonly known = new Map<string, string>();
  private readonly mine: Set<string>;
  private lookup?: Promise<void>;
  private lookedUpAt = -Infinity;
  private readonly clock: Clock;

  constructor(private readonly o: PodCidrsOptions) {
    this.clock = o.clock ?? realClock;
    this.mine = new Set(o.nodeNames);
  }

  async of(nodeName: string): Promise<string | undefined> {
    const have = this.known.get(nodeName) ?? this.o.seen(nodeName);
    if (have) return have;
    if (!this.lookup && this.clock.now() - this.lookedUpAt >= (this.o.retryMs ?? 1_000)) {
      this.lookup = this.read().finally(() => { this.lookup = undefined; this.lookedUpAt = this.clock.now(); });
    }
    await this.lookup;
    return this.known.get(nodeName);
  }

  private async read(): Promise<void> {
    const nodes = this.o.client.nodes();
    try {
      const items: KubeObject[] = this.mine.size === 1 ? [await nodes.get(this.o.nodeNames[0]!)] : (await nodes.listAll()).items;
      for (const n of items) {
        const cidr = n.spec?.podCIDR as string | undefined;
        if (cidr && this.mine.has(n.metadata!.name!)) this.known.set(n.metadata!.name!, cidr);
      }
    } catch (err) {
      this.o.logger.warn({ err }, 'cannot read the nodes for their podCIDR, will retry');
    }
  }
}
