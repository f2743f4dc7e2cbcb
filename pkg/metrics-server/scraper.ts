// Reads every node's kubelet /metrics/resource once per resolution, as metrics-server's scraper does: the nodes come
// from the informer's cache (optionally narrowed by a label selector), each reached at its first address of the
// preferred types and at its kubelet port (the Node's daemonEndpoints with useNodeStatusPort), over HTTPS with the
// component's client certificate or token; requests are spread over a short random delay so that many nodes are
// not asked at once, and each has a timeout. A node that fails is logged and left out of the batch.
import type { Logger } from 'pino';
import type { Agent } from 'undici';
import { undici } from '../apimachinery/undici.js';
import type { KubeObject } from '../client/index.js';
import { decodeBatch, type MetricsBatch } from './decode.js';

export interface KubeletClientOptions {
  /** Address types in order of preference (metrics-server's default: Hostname,InternalDNS,InternalIP,ExternalDNS,ExternalIP). */
  preferredAddressTypes: string[];
  /** Port when the Node does not say (or when useNodeStatusPort is off). */
  port: number;
  useNodeStatusPort: boolean;
  /** PEM the kubelets' serving certificates must chain to; with insecure, none is checked. */
  ca?: string;
  insecure: boolean;
  cert?: string;
  key?: string;
  bearerToken?: string;
  timeoutMs: number;
}

/** Upstream's spreading of requests: 8 ms per node, at most 4 s. */
const DELAY_PER_NODE_MS = 8;
const MAX_DELAY_MS = 4_000;
/** Upstream's annotation that moves a node's resource metrics elsewhere. */
const METRICS_PATH_ANNOTATION = 'metrics.k8s.io/resource-metrics-path';

interface NodeAddress { type: string; address: string }

export function nodeAddress(node: KubeObject, preferred: string[]): string | undefined {
  const addresses = ((node.status as { addresses?: NodeAddress[] } | undefined)?.addresses ?? []);
  for (const type of preferred) {
    const a = addresses.find((x) => x.type === type);
    if (a) return a.address;
  }
  return undefined;
}

export class Scraper {
  private agent?: Promise<Agent>;

  constructor(private readonly o: KubeletClientOptions, private readonly logger: Logger) {}

  private dispatcher(): Promise<Agent> {
    return (this.agent ??= undici().then(({ Agent }) => new Agent({
      keepAliveTimeout: 60_000,
      connect: { rejectUnauthorized: !this.o.insecure, ...(this.o.ca ? { ca: this.o.ca } : {}), ...(this.o.cert ? { cert: this.o.cert, key: this.o.key } : {}) },
    })));
  }

  /** One node's figures. */
  async scrapeNode(node: KubeObject): Promise<MetricsBatch> {
    const name = node.metadata!.name!;
    const address = nodeAddress(node, this.o.preferredAddressTypes);
    if (!address) throw new Error(`no address of the preferred types ${this.o.preferredAddressTypes.join(',')} for node "${name}"`);
    const statusPort = (node.status as { daemonEndpoints?: { kubeletEndpoint?: { Port?: number } } } | undefined)?.daemonEndpoints?.kubeletEndpoint?.Port ?? 0;
    const port = this.o.useNodeStatusPort && statusPort ? statusPort : this.o.port;
    const path = node.metadata?.annotations?.[METRICS_PATH_ANNOTATION] || '/metrics/resource';
    const url = `https://${address.includes(':') ? `[${address}]` : address}:${port}${path}`;
    const { request } = await undici();
    const scrapedAt = Date.now();
    const res = await request(url, {
      dispatcher: await this.dispatcher(), headers: this.o.bearerToken ? { authorization: `Bearer ${this.o.bearerToken}` } : {},
      signal: AbortSignal.timeout(this.o.timeoutMs),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`request failed, status: "${res.statusCode}": ${text.trim().slice(0, 200)}`);
    return decodeBatch(text, scrapedAt, name);
  }

  /** Every node's figures, merged into one batch (a duplicate node or pod keeps the first). */
  async scrape(nodes: KubeObject[]): Promise<MetricsBatch> {
    const delayMs = Math.min(DELAY_PER_NODE_MS * nodes.length, MAX_DELAY_MS);
    const started = Date.now();
    const batches = await Promise.all(nodes.map(async (node) => {
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * delayMs)));
      try {
        return await this.scrapeNode(node);
      } catch (err) {
        const ready = ((node.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
        // a node that is not ready failing is expected, and not worth more than a debug line
        this.logger[ready ? 'error' : 'debug']({ err, node: node.metadata?.name }, 'Failed to scrape node');
        return undefined;
      }
    }));
    const batch: MetricsBatch = { nodes: new Map(), pods: new Map() };
    for (const b of batches) {
      if (!b) continue;
      for (const [k, v] of b.nodes) if (!batch.nodes.has(k)) batch.nodes.set(k, v);
      for (const [k, v] of b.pods) if (!batch.pods.has(k)) batch.pods.set(k, v);
    }
    this.logger.debug({ durationMs: Date.now() - started, nodeCount: batch.nodes.size, podCount: batch.pods.size }, 'Scrape finished');
    return batch;
  }

  async close(): Promise<void> {
    if (this.agent) await (await this.agent).close();
  }
}
