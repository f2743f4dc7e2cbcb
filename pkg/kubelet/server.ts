// The node's HTTPS server, as upstream's kubelet server on :10250: /healthz, /pods, /runningpods/, /logs/ (the
// node's /var/log), /configz, /metrics,
// /stats/summary, /metrics/resource and /metrics/cadvisor (stats.ts), /metrics/probes (probes.ts),
// /containerLogs/{namespace}/{pod}/{container} (follow, tailLines, sinceSeconds, previous, timestamps), /run (exec
// and return the output), and the upgrades /exec/{ns}/{pod}/{container}, /attach/... and /portForward/{ns}/{pod}
// (streaming/), which the apiserver proxies `kubectl logs`, `exec`, `attach` and `port-forward` to. Clients
// authenticate with a certificate from the cluster CA, or (with --authentication-token-webhook) a bearer token the
// apiserver confirms by TokenReview, or (with --anonymous-auth) as system:anonymous, and are authorized by a
// SubjectAccessReview (on this node nodes/metrics
// for /metrics, nodes/stats, nodes/log, nodes/spec for theirs, nodes/proxy for the rest; verb get for GET, create for
// POST), as upstream's webhook authorization mode (or, in AlwaysAllow mode, all
// allowed). The serving certificate is
// self-signed, as a kubelet without --tls-cert-file makes one.
// Simulated nodes of one process share this server: each answers at its own InternalIP (distinct loopback addresses,
// which all reach lo on Linux), and a request is for the node whose address the connection came in on; nodes that
// share an address are served together (the first one's figures, every one's pods).
import { StatsProvider } from './stats.js';
import { runningPods, serveLogPath } from './debug-handlers.js';
import type { IncomingMessage } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { KubeObject, UserIdentity } from '../client/index.js';
import { Registry } from 'prom-client';
import { withProcessMetrics } from '../client/process-metrics.js';
import { selfSignedServingPair } from '../client/self-signed-serving.js';
import type { NodeKubelet } from './kubelet.js';
import { kubeletMetrics } from './metrics.js';
// PodLogOptions' flags decoded as upstream's kubelet does, with the apiserver's parameter codec.
import { isTrue } from '../apiserver/request-info.js';
import { proberMetrics } from './probes.js';
import { servePortForward } from './streaming/portforward.js';
import { rejectUpgrade } from '../apimachinery/httpstream/reject.js';
import { remoteCommandOptions, serveRemoteCommand } from './streaming/remotecommand.js';

export interface NodeServerOptions {
  kubelets: () => NodeKubelet[];
  /** PEM of the CA client certificates must chain to. */
  clientCa: string;
  logger: Logger;
  address?: string;
  port?: number;
  sans?: string[];
  /**
   * Whether the user may `verb` nodes/<subresource> of the node (a SubjectAccessReview, cached); without it only
   * system:masters and kube-apiserver-kubelet-client are allowed.
   */
  authorize?: (who: UserIdentity, node: string, subresource: string, verb: string) => Promise<boolean>;
  /** Who a bearer token belongs to (a TokenReview, cached), or undefined when it is not valid; without it tokens are refused. */
  authenticateToken?: (token: string) => Promise<UserIdentity | undefined>;
  /** Requests without credentials are system:anonymous (group system:unauthenticated), then authorized. */
  anonymous?: boolean;
  /** The effective configuration /configz answers with. */
  configz?: () => unknown;
  /**
   * Listen on every address but serve only connections to loopback ones: simulated nodes on distinct loopback
   * addresses, which no one socket can bind otherwise.
   */
  loopbackOnly?: boolean;
  /** What /logs/ serves (default the node's /var/log). */
  logDir?: string;
  /** Where the self-signed serving pair is kept (kubelet.crt, kubelet.key); without it, one is made at each start. */
  certDir?: string;
}

/** What the kubelet's configuration says of its server (KubeletHost builds the rest). */
export type NodeServerSettings = Pick<NodeServerOptions, 'clientCa' | 'port' | 'address' | 'configz' | 'anonymous' | 'logDir' | 'certDir'> & {
  /** Bearer tokens are reviewed by the apiserver (TokenReview). */
  tokenWebhook?: boolean;
  /** How long a token's review is kept (upstream's authentication.webhook.cacheTTL, 2 min). */
  tokenCacheMs?: number;
  /** How long an allowed / a denied decision is kept (upstream's authorization webhook cache TTLs; 5 min / 30 s). */
  cacheAuthorizedMs?: number;
  cacheUnauthorizedMs?: number;
  /** Webhook (default): SubjectAccessReview; AlwaysAllow: every client with a certificate of the CA. */
  authorizationMode?: 'Webhook' | 'AlwaysAllow';
};

const ALLOWED_USERS = new Set(['kube-apiserver-kubelet-client', 'system:kube-apiserver']);

export class NodeServer {
  private server?: Server;
  /** Upgraded connections (exec, attach, port-forward) are no longer the HTTP server's to close. */
  private readonly upgraded = new Set<Duplex>();

  /** The kubelets answering at each address (several when they share it). */
  private byAddress = new Map<string, NodeKubelet[]>();
  /** /metrics of each node, made when first scraped (one for the nodes sharing an address), and of the process. */
  private readonly metrics = new Map<NodeKubelet | 'shared', Registry>();
  /** The process's figures (CPU, memory, event loop, GC). */
  private readonly process = withProcessMetrics(new Registry());

  constructor(private readonly o: NodeServerOptions) {}

  /** The kubelets a connection is for: the node whose address it came in on, else (a shared address) every one. */
  private scope(socket: TLSSocket): NodeKubelet[] {
    const local = (socket.localAddress ?? '').replace(/^::ffff:/, '');
    const here = this.byAddress.get(local);
    return here?.length === 1 ? here : this.o.kubelets();
  }

  private async metricsText(scope: NodeKubelet[]): Promise<string> {
    const key = scope.length === 1 ? scope[0]! : 'shared';
    let registry = this.metrics.get(key);
    if (!registry) {
      registry = kubeletMetrics(() => scope.map((k) => ({
        nodeName: k.nodeName,
        sandboxStates: () => k.o.runtime.listPodSandboxes().map((sb) => sb.state),
        containerStates: () => k.o.runtime.listContainers().map((c) => c.state),
      })));
      this.metrics.set(key, registry);
    }
    return `${await registry.metrics()}\n${await this.process.metrics()}`;
  }

  /** Listens; returns the port (useful with port 0). */
  async start(): Promise<number> {
    // as upstream's kubelet without --tls-cert-file: kubelet.crt and kubelet.key in its cert dir, made once
    const { generatedIn, ...pair } = await selfSignedServingPair({ commonName: this.o.sans?.[0] ?? 'kubelet', sans: this.o.sans, certDir: this.o.certDir, pairName: 'kubelet' });
    if (generatedIn) this.o.logger.info({ cert: generatedIn.cert, key: generatedIn.key }, 'generated a self-signed serving certificate');
    const server = createServer({ ...pair, ca: this.o.clientCa, requestCert: true, rejectUnauthorized: false }, (req, res) => {
      void this.handle(req.method ?? 'GET', req.url ?? '/', req.socket as TLSSocket, req.headers.authorization, res, () => req.destroyed);
    });
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => socket.destroy());
      this.upgraded.add(socket);
      socket.once('close', () => this.upgraded.delete(socket));
      this.upgrade(req, socket, head).catch((err: unknown) => {
        this.o.logger.warn({ err, url: req.url }, 'kubelet server upgrade failed');
        socket.destroy();
      });
    });
    this.byAddress = new Map();
    for (const k of this.o.kubelets()) {
      const list = this.byAddress.get(k.o.nodeIp) ?? [];
      list.push(k);
      this.byAddress.set(k.o.nodeIp, list);
    }
    if (this.o.loopbackOnly) {
      server.on('connection', (socket: Duplex & { localAddress?: string }) => {
        if (!/^(::ffff:)?127\./.test(socket.localAddress ?? '') && socket.localAddress !== '::1') socket.destroy();
      });
    }
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.o.port ?? 10250, this.o.loopbackOnly ? '0.0.0.0' : this.o.address ?? '0.0.0.0', () => resolve());
    });
    return (server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    const s = this.server;
    if (!s) return;
    s.closeAllConnections();
    for (const socket of this.upgraded) socket.destroy();
    await new Promise<void>((r) => s.close(() => r()));
  }

  /** An error message (401/403) unless the client's certificate may `verb` nodes/proxy. */
  /** Upstream's mapping of a path to the nodes subresource it is authorized as (everything else is nodes/proxy). */
  private static subresourceOf(path: string): string {
    const under = (p: string): boolean => path === p || path.startsWith(`${p}/`);
    if (under('/stats')) return 'stats';
    if (under('/metrics')) return 'metrics';
    if (under('/logs')) return 'log';
    if (under('/spec')) return 'spec';
    return 'proxy';
  }

  private readonly stats = new StatsProvider();

  /** The client: its certificate, else its bearer token, else anonymous when allowed; undefined is 401. */
  private async authenticate(socket: TLSSocket, authorization: string | undefined): Promise<UserIdentity | undefined> {
    if (socket.authorized) {
      const peer = socket.getPeerCertificate();
      return { user: String(peer.subject?.CN), groups: ([] as string[]).concat(peer.subject?.O ?? []) };
    }
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    if (token) {
      if (!this.o.authenticateToken) return undefined;
      try { return await this.o.authenticateToken(token); } catch (err) { this.o.logger.warn({ err }, 'TokenReview failed'); return undefined; }
    }
    return this.o.anonymous ? { user: 'system:anonymous', groups: ['system:unauthenticated'] } : undefined;
  }

  private async authorizeProxy(socket: TLSSocket, method: string, path: string, authorization: string | undefined): Promise<[number, string] | undefined> {
    const who = await this.authenticate(socket, authorization);
    if (!who) return [401, 'Unauthorized'];
    const node = this.scope(socket)[0]?.nodeName ?? '';
    const verb = method === 'POST' ? 'create' : 'get';
    const subresource = NodeServer.subresourceOf(path);
    if (!(await this.allowed(who, node, subresource, verb))) return [403, `Forbidden (user=${who.user}, verb=${verb}, resource=nodes, subresource=${subresource})`];
    return undefined;
  }

  /** exec, attach and portForward: the connection upgrades to SPDY or a WebSocket. */
  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const u = new URL(req.url ?? '/', 'https://kubelet');
    const denied = await this.authorizeProxy(req.socket as TLSSocket, req.method ?? 'GET', u.pathname, req.headers.authorization);
    if (denied) { rejectUpgrade(socket, ...denied); return; }
    // Upstream's paths, with or without the pod's uid before the container.
    const m = /^\/(exec|attach|portForward)\/([^/]+)\/([^/]+)(?:\/([^/]+))?(?:\/([^/]+))?\/?$/.exec(u.pathname);
    if (!m) { rejectUpgrade(socket, 404, '404 page not found'); return; }
    const [kind, ns, podName, a, b] = [m[1]!, ...m.slice(2).map((x) => (x === undefined ? undefined : decodeURIComponent(x)))] as [string, string, string, string?, string?];
    // Upstream's order: the stream options (400), the pod (404), then what the runtime runs, whose absence the
    // streaming server's WriteError answers as any error that is not a gRPC NotFound: 500 with the error's text.
    const o = remoteCommandOptions(u.searchParams);
    if (kind !== 'portForward' && !o.stdin && !o.stdout && !o.stderr) { rejectUpgrade(socket, 400, 'you must specify at least 1 of stdin, stdout, stderr'); return; }
    const found = this.findPod(this.scope(req.socket as TLSSocket), ns, podName);
    if (!found) { rejectUpgrade(socket, 404, 'pod does not exist'); return; }
    const uid = found.pod.metadata!.uid!;
    const logger = this.o.logger.child({ pod: `${ns}/${podName}`, stream: kind });
    const podFullName = `${podName}_${ns}`;
    if (kind === 'portForward') {
      const target = found.kubelet.runningSandbox(found.pod);
      if (!target) { rejectUpgrade(socket, 500, `pod not found ("${podFullName}")`); return; }
      servePortForward(req, socket, head, u.searchParams, { dial: (port) => target.runtime.portForward(target.sandboxId, port), pod: podName, uid, logger });
      return;
    }
    const container = b ?? a;
    if (!container) { rejectUpgrade(socket, 404, '404 page not found'); return; }
    const command = u.searchParams.getAll('command');
    if (kind === 'exec' && !command.length) { rejectUpgrade(socket, 400, 'you must specify at least one command for the container'); return; }
    const target = found.kubelet.runningContainer(found.pod, container);
    // GetExec's and GetAttach's words
    if (!target) { rejectUpgrade(socket, 500, kind === 'exec' ? `container not found ("${container}")` : `container ${container} not found in pod ${podFullName}`); return; }
    const id = target.containerId;
    serveRemoteCommand(req, socket, head, o, kind === 'exec'
      ? { start: (so) => target.runtime.exec(id, command, so), exitCodes: true, describe: `[${command.join(' ')}]`, failure: 'error executing command in container', logger }
      : { start: (so) => target.runtime.attach(id, so), exitCodes: false, describe: '', failure: 'error attaching to container', logger });
  }

  private async handle(method: string, url: string, socket: TLSSocket, authorization: string | undefined, res: import('node:http').ServerResponse, gone: () => boolean): Promise<void> {
    const send = (code: number, body: string, type = 'text/plain; charset=utf-8'): void => { res.writeHead(code, { 'content-type': type }); res.end(body); };
    const u = new URL(url, 'https://kubelet');
    if (u.pathname === '/healthz') { send(200, 'ok'); return; }
    const denied = await this.authorizeProxy(socket, method, u.pathname, authorization);
    if (denied) { send(...denied); return; }
    const scope = this.scope(socket);
    try {
      if (u.pathname === '/metrics') {
        send(200, await this.metricsText(scope), this.process.contentType);
        return;
      }
      const stats = scope[0]?.statsSource();
      if (u.pathname === '/stats/summary' && stats) {
        send(200, JSON.stringify(await this.stats.summary(stats)), 'application/json');
        return;
      }
      if (u.pathname === '/metrics/probes') {
        send(200, await proberMetrics.metrics(), proberMetrics.contentType);
        return;
      }
      if (u.pathname === '/metrics/cadvisor' && stats) {
        send(200, this.stats.cadvisorMetrics(stats), 'text/plain; version=0.0.4; charset=utf-8');
        return;
      }
      if (u.pathname === '/metrics/resource' && stats) {
        send(200, await this.stats.resourceMetrics(stats), 'text/plain; version=0.0.4; charset=utf-8');
        return;
      }
      const run = /^\/run\/([^/]+)\/([^/]+)(?:\/[^/]+)?\/([^/]+)\/?$/.exec(u.pathname);
      if (run && method === 'POST') {
        const [ns, podName, container] = run.slice(1).map(decodeURIComponent) as [string, string, string];
        const found = this.findPod(scope, ns, podName);
        if (!found) { send(404, 'pod does not exist'); return; }
        // RunInContainer's error, written as a 500
        const target = found.kubelet.runningContainer(found.pod, container);
        if (!target) { send(500, `container not found ("${container}")`); return; }
        const r = await target.runtime.execSync(target.containerId, (u.searchParams.get('cmd') ?? '').split(/\s+/).filter(Boolean));
        send(200, r.stdout + r.stderr);
        return;
      }
      if (u.pathname === '/configz' && this.o.configz) {
        send(200, JSON.stringify(this.o.configz()), 'application/json');
        return;
      }
      if (u.pathname === '/runningpods' || u.pathname === '/runningpods/') {
        send(200, JSON.stringify(runningPods(scope.map((k) => k.o.runtime))), 'application/json');
        return;
      }
      if (u.pathname === '/logs' || u.pathname.startsWith('/logs/')) {
        await serveLogPath(res, this.o.logDir ?? '/var/log', u.pathname.slice('/logs/'.length));
        return;
      }
      if (u.pathname === '/pods' || u.pathname === '/pods/') {
        const items = scope.flatMap((k) => k.pods());
        send(200, JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: {}, items }), 'application/json');
        return;
      }
      const m = /^\/containerLogs\/([^/]+)\/([^/]+)\/([^/]+)\/?$/.exec(u.pathname);
      if (!m) { send(404, '404 page not found'); return; }
      const [ns, podName, container] = m.slice(1).map(decodeURIComponent) as [string, string, string];
      const found = this.findPod(scope, ns, podName);
      if (!found) { send(404, `pod ${ns}/${podName} not found`); return; }
      const q = u.searchParams;
      const num = (k: string): number | undefined => (q.get(k) !== null && q.get(k) !== '' ? Number(q.get(k)) : undefined);
      const sinceSeconds = num('sinceSeconds');
      const sinceTime = q.get('sinceTime');
      const opts = {
        previous: isTrue(q.getAll('previous')), timestamps: isTrue(q.getAll('timestamps')), tailLines: num('tailLines'),
        sinceMs: sinceSeconds !== undefined ? Date.now() - sinceSeconds * 1000 : sinceTime ? Date.parse(sinceTime) : undefined,
        limitBytes: num('limitBytes'),
      };
      const logs = found.kubelet.containerLogs(found.pod, container, opts);
      if (typeof logs === 'string') { send(400, logs); return; }
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'transfer-encoding': 'chunked' });
      // a follower of a quiet container has its answer at once, not with the first line it may never get
      const follow = isTrue(q.getAll('follow'));
      if (follow) res.flushHeaders();
      // limitBytes bounds all that is sent, followed lines included
      let budget = opts.limitBytes ?? Infinity;
      const write = (text: string): void => {
        if (!text || budget <= 0) return;
        const bytes = Buffer.from(text);
        res.write(bytes.length > budget ? bytes.subarray(0, budget) : bytes);
        budget -= bytes.length;
      };
      let chunk = await logs.read(opts);
      write(chunk.text);
      if (follow) {
        // what was written since the last read (a read follows the log across a rotation)
        while (!gone() && logs.running() && budget > 0) {
          await new Promise((r) => setTimeout(r, 200));
          chunk = await logs.read(opts, chunk.cursor);
          write(chunk.text);
        }
        write((await logs.read(opts, chunk.cursor)).text);
      }
      res.end();
    } catch (err) {
      this.o.logger.warn({ err, url }, 'kubelet server request failed');
      if (!res.headersSent) send(500, (err as Error).message); else res.end();
    }
  }

  private async allowed(who: UserIdentity, node: string, subresource: string, verb: string): Promise<boolean> {
    if (!this.o.authorize) return ALLOWED_USERS.has(who.user) || who.groups.includes('system:masters');
    try { return await this.o.authorize(who, node, subresource, verb); } catch (err) { this.o.logger.warn({ err }, 'SubjectAccessReview failed'); return false; }
  }

  private findPod(scope: NodeKubelet[], ns: string, name: string): { kubelet: NodeKubelet; pod: KubeObject } | undefined {
    for (const kubelet of scope) {
      const pod = kubelet.pods().find((p) => p.metadata?.namespace === ns && p.metadata?.name === name);
      if (pod) return { kubelet, pod };
    }
    return undefined;
  }
}
