// metrics-server as one component: informers on nodes and (metadata-only) pods, a scrape of every kubelet per
// resolution into storage, and an HTTPS server for the aggregator (front-proxy certificate + request headers) and
// direct clients (client certificates, tokens), authorized by SubjectAccessReview as a delegating apiserver is.
// /healthz, /livez and /readyz need no authorization (upstream's --authorization-always-allow-paths); /readyz is ok
// once the caches have synced and a first scrape is stored.
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Logger } from 'pino';
import { isStatusError, StatusError } from '../apimachinery/errors.js';
import { DelegatedAuth, NAMESPACE_INDEX, Resources, SharedInformerFactory, type Client, type KubeObject, type UserIdentity } from '../client/index.js';
import { parseLabelSelector } from '../apimachinery/labels.js';
import { discovery, GROUP, serveResource, targetOf, type MetricsSources, type RequestTarget } from './api.js';
import { openApiV3 } from './openapi.js';
import { authenticate, readAuthenticationConfig, type AuthenticationConfig } from './authentication.js';
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
  /** Serving certificate (with its chain) and key, PEM. */
  tls: { cert: string; key: string };
}

const ALWAYS_ALLOWED = new Set(['/healthz', '/livez', '/readyz']);
const AUTH_CONFIG_REFRESH_MS = 60_000;

export class MetricsServer {
  private server?: Server;
  private readonly storage: MetricsStorage;
  private readonly auth: DelegatedAuth;
  private readonly factory: SharedInformerFactory;
  private authConfig: AuthenticationConfig = { clientCa: [] };
  private synced = false;

  constructor(private readonly o: MetricsServerOptions) {
    this.storage = new MetricsStorage(o.resolutionMs, (what, reason) => o.logger.warn({ what, reason }, 'Skipping usage metric'));
    this.auth = new DelegatedAuth(o.client);
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
    this.authConfig = await this.readAuthConfig(signal);
    const server = createServer({ ...this.o.tls, ...this.clientCas(), requestCert: true, rejectUnauthorized: false }, (req, res) => {
      void this.handle(req, res, sources);
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.o.port, this.o.bindAddress, () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    this.o.logger.info({ address: this.o.bindAddress, port }, 'Serving securely');

    const refresh = setInterval(() => {
      void readAuthenticationConfig(this.o.client).then((c) => {
        this.authConfig = c;
        server.setSecureContext({ ...this.o.tls, ...this.clientCas() });
      }, (err: unknown) => this.o.logger.warn({ err }, 'Failed to re-read extension-apiserver-authentication'));
    }, AUTH_CONFIG_REFRESH_MS);
    void (async () => {
      this.synced = await this.factory.waitForCacheSync(signal);
      while (!signal.aborted) {
        const started = Date.now();
        this.storage.store(await scraper.scrape(sources.nodes()));
        await new Promise<void>((r) => {
          const t = setTimeout(r, Math.max(0, this.o.resolutionMs - (Date.now() - started)));
          signal.addEventListener('abort', () => { clearTimeout(t); r(); }, { once: true });
        });
      }
    })().catch((err: unknown) => this.o.logger.error({ err }, 'Scrape loop failed'));
    signal.addEventListener('abort', () => {
      clearInterval(refresh);
      server.closeAllConnections();
      server.close();
      void scraper.close();
    }, { once: true });
    return port;
  }

  /** The CAs client certificates may chain to: the cluster's client CA and the front proxy's. */
  private clientCas(): { ca?: string[] } {
    const cas = [this.authConfig.clientCaPem, this.authConfig.requestHeaderCaPem].filter((p): p is string => !!p);
    return cas.length ? { ca: cas } : {};
  }

  /** kube-system/extension-apiserver-authentication, waited for while the apiserver is not up yet. */
  private async readAuthConfig(signal: AbortSignal): Promise<AuthenticationConfig> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await readAuthenticationConfig(this.o.client);
      } catch (err) {
        if (signal.aborted) throw err;
        if (attempt % 40 === 0) this.o.logger.warn({ err }, 'Unable to read kube-system/extension-apiserver-authentication (retrying); the metrics-server needs the role extension-apiserver-authentication-reader there');
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  private async authorized(who: UserIdentity, t: RequestTarget): Promise<boolean> {
    if (t.kind === 'path') return this.auth.allowed(who, { verb: t.verb, path: t.path });
    return this.auth.allowed(who, { verb: t.verb, group: GROUP, version: 'v1beta1', resource: t.resource, ...(t.namespace ? { namespace: t.namespace } : {}), ...(t.name ? { name: t.name } : {}) });
  }

  private async handle(req: IncomingMessage, res: ServerResponse, sources: MetricsSources): Promise<void> {
    const send = (code: number, body: unknown): void => {
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      res.writeHead(code, { 'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json' });
      res.end(text);
    };
    const fail = (e: StatusError): void => send(e.code, e.toStatus());
    try {
      const url = new URL(req.url ?? '/', 'https://metrics-server');
      const path = url.pathname;
      if (ALWAYS_ALLOWED.has(path)) {
        const ready = path !== '/readyz' || (this.synced && this.storage.ready);
        send(ready ? 200 : 500, ready ? 'ok' : '[-]metric-storage-ready failed: not metrics to serve\nreadyz check failed');
        return;
      }
      const who = await authenticate(this.authConfig, this.auth, req.socket as TLSSocket, req.headers);
      if (typeof who === 'string') { fail(new StatusError(401, 'Unauthorized', 'Unauthorized')); this.o.logger.debug({ reason: who }, 'Unauthorized'); return; }
      const t = targetOf(req.method ?? 'GET', path, url.searchParams);
      if (!(await this.authorized(who, t))) { fail(forbiddenFor(who, t)); return; }
      if (t.kind === 'path') {
        const doc = req.method !== 'GET' ? undefined : discovery(path) ?? openApiV3(path);
        if (doc === undefined) send(404, '404 page not found\n');
        else if (typeof doc === 'string') { res.writeHead(200, { 'content-type': 'application/json' }); res.end(doc); } else send(200, doc);
        return;
      }
      const obj = serveResource(sources, t, url.searchParams);
      send(200, wantsTable(req.headers.accept) ? toTable(obj, url.searchParams.get('includeObject')) : obj);
    } catch (err) {
      if (isStatusError(err)) { fail(err); return; }
      this.o.logger.error({ err, url: req.url }, 'Request failed');
      fail(new StatusError(500, 'InternalError', `Internal error occurred: ${(err as Error).message}`));
    }
  }
}

/** Upstream's wording: `nodes.metrics.k8s.io is forbidden: User "x" cannot list resource "nodes" in API group ...`. */
function forbiddenFor(who: UserIdentity, t: RequestTarget): StatusError {
  if (t.kind === 'path') return new StatusError(403, 'Forbidden', `forbidden: User "${who.user}" cannot ${t.verb} path "${t.path}"`);
  const scope = t.namespace ? `in the namespace "${t.namespace}"` : 'at the cluster scope';
  const name = t.name ? ` "${t.name}"` : '';
  return new StatusError(403, 'Forbidden', `${t.resource}.${GROUP}${name} is forbidden: User "${who.user}" cannot ${t.verb} resource "${t.resource}" in API group "${GROUP}" ${scope}`,
    { ...(t.name ? { name: t.name } : {}), group: GROUP, kind: t.resource });
}
