// metrics-server as one component: informers on nodes and (metadata-only) pods, a scrape of every kubelet per
// resolution into storage, and an HTTPS server for the aggregator (front-proxy certificate + request headers) and
// direct clients (client certificates, tokens), authorized by SubjectAccessReview as a delegating apiserver is.
// /healthz, /livez and /readyz need no authorization (upstream's --authorization-always-allow-paths); /readyz is ok
// once the caches have synced and a first scrape is stored.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { StatusError } from '../apimachinery/errors.js';
import { NAMESPACE_INDEX, Resources, SharedInformerFactory, type AccessAttributes, type Client, type KubeObject, type UserIdentity } from '../client/index.js';
import { forbiddenPath, SecureServer, send } from '../client/secure-serving.js';
import { parseLabelSelector } from '../apimachinery/labels.js';
import { discovery, GROUP, serveResource, targetOf, type MetricsSources, type RequestTarget } from './api.js';
import { openApiV3 } from './openapi.js';
import { Scraper, type KubeletClientOptions } from './scraper.js';
import { MetricsStorage } from './storage.js';
import { toTable, wantsTable } from './table.js';

export interface MetricsServerOptions {
  client: Client;
  logger: Logger;
  resolutionMs: number;
  kubelet: KubeletClientOptions;
  /** Only nodes with these labels are scraped and served (upstream's --node-selector). */
  nodeSelector?: string;
  bindAddress: string;
  port: number;
  /** Serving certificate (with its chain) and key, PEM; default a self-signed one for localhost. */
  tls?: { cert: string; key: string };
}

export class MetricsServer {
  private readonly storage: MetricsStorage;
  private readonly factory: SharedInformerFactory;
  private synced = false;

  constructor(private readonly o: MetricsServerOptions) {
    this.storage = new MetricsStorage(o.resolutionMs, (what, reason) => o.logger.warn({ what, reason }, 'Skipping usage metric'));
    this.factory = new SharedInformerFactory(o.client);
  }

  private get sources(): MetricsSources {
    const nodes = this.factory.informerFor(Resources.nodes).indexer;
    const pods = this.factory.metadataInformerFor(Resources.pods).indexer;
    const selector = this.o.nodeSelector ? parseLabelSelector(this.o.nodeSelector) : undefined;
    const chosen = (n: KubeObject | undefined): KubeObject | undefined => (n && (!selector || selector.matches(n.metadata?.labels)) ? n : undefined);
    return {
      storage: this.storage,
      nodes: () => nodes.list().filter((n) => chosen(n)),
      node: (name) => chosen(nodes.getByKey(name)),
      pods: (ns) => (ns ? pods.byIndex(NAMESPACE_INDEX, ns) : pods.list()),
      pod: (ns, name) => pods.getByKey(`${ns}/${name}`),
    };
  }

  /** Serves until the signal aborts; resolves with the port once listening (the loops keep running). */
  async start(signal: AbortSignal): Promise<number> {
    const scraper = new Scraper(this.o.kubelet, this.o.logger);
    const sources = this.sources;
    this.factory.start(signal);
    const server = new SecureServer({
      client: this.o.client, logger: this.o.logger, bindAddress: this.o.bindAddress, port: this.o.port, tls: this.o.tls,
      health: { healthz: [], livez: [], readyz: [{ name: 'metric-storage-ready', check: () => this.synced && this.storage.ready }] },
      attributes: (method, url) => attributesOf(targetOf(method, url.pathname, url.searchParams)),
      forbidden: forbiddenFor,
      handler: (req, res, _who, url) => this.handle(req, res, url, sources),
    });
    const port = await server.start(signal);
    void (async () => {
      this.synced = await this.factory.waitForCacheSync(signal);
      await everyPeriod(signal, this.o.resolutionMs, async () => { this.storage.store(await scraper.scrape(sources.nodes())); });
    })().catch((err: unknown) => this.o.logger.error({ err }, 'Scrape loop failed'));
    signal.addEventListener('abort', () => void scraper.close(), { once: true });
    return port;
  }

  private handle(req: IncomingMessage, res: ServerResponse, url: URL, sources: MetricsSources): void {
    const path = url.pathname;
    const t = targetOf(req.method ?? 'GET', path, url.searchParams);
    if (t.kind === 'path') {
      const doc = req.method !== 'GET' ? undefined : discovery(path) ?? openApiV3(path);
      if (doc === undefined) send(res, 404, '404 page not found\n');
      else if (typeof doc === 'string') { res.writeHead(200, { 'content-type': 'application/json' }); res.end(doc); } else send(res, 200, doc);
      return;
    }
    const obj = serveResource(sources, t, url.searchParams);
    send(res, 200, wantsTable(req.headers.accept) ? toTable(obj, url.searchParams.get('includeObject')) : obj);
  }
}

/**
 * Runs `work` once per period (the next run a period after the last one began) until the signal aborts. The wait
 * leaves nothing on the signal once over: the signal lives as long as the server, the loop runs every 15 s.
 */
export async function everyPeriod(signal: AbortSignal, periodMs: number, work: () => Promise<void>): Promise<void> {
  while (!signal.aborted) {
    const started = Date.now();
    await work();
    await sleep(Math.max(0, periodMs - (Date.now() - started)), undefined, { signal }).catch(() => undefined);
  }
}

/** What a request asks of the authorizer: a metrics.k8s.io resource, or a path. */
function attributesOf(t: RequestTarget): AccessAttributes {
  if (t.kind === 'path') return { verb: t.verb, path: t.path };
  return { verb: t.verb, group: GROUP, version: 'v1beta1', resource: t.resource, ...(t.namespace ? { namespace: t.namespace } : {}), ...(t.name ? { name: t.name } : {}) };
}

/** Upstream's wording: `nodes.metrics.k8s.io is forbidden: User "x" cannot list resource "nodes" in API group ...`. */
function forbiddenFor(who: UserIdentity, t: AccessAttributes): StatusError {
  if ('path' in t) return forbiddenPath(who, t);
  const scope = t.namespace ? `in the namespace "${t.namespace}"` : 'at the cluster scope';
  const name = t.name ? ` "${t.name}"` : '';
  return new StatusError(403, 'Forbidden', `${t.resource}.${GROUP}${name} is forbidden: User "${who.user}" cannot ${t.verb} resource "${t.resource}" in API group "${GROUP}" ${scope}`,
    { ...(t.name ? { name: t.name } : {}), group: GROUP, kind: t.resource });
}
