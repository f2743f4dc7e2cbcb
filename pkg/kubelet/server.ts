// The node's HTTPS server, as upstream's kubelet server on :10250: /healthz, /pods and
// /containerLogs/{namespace}/{pod}/{container} (follow, tailLines, sinceSeconds, previous, timestamps), which the
// apiserver proxies `kubectl logs` to. Clients must present a certificate from the cluster CA and are authorized
// by a SubjectAccessReview (get nodes/proxy on this node), as upstream's webhook authorization mode. The serving
// certificate is self-signed, as a kubelet without --tls-cert-file makes one.
import { createServer, type Server } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createCa, issueCertificate } from '../pki/index.js';
import type { KubeObject } from '../client/index.js';
import type { NodeKubelet } from './kubelet.js';

export interface NodeServerOptions {
  kubelets: () => NodeKubelet[];
  /** PEM of the CA client certificates must chain to. */
  clientCa: string;
  logger: Logger;
  address?: string;
  port?: number;
  sans?: string[];
  /**
   * Asks the apiserver (SubjectAccessReview) whether the user may `get` nodes/<subresource> of the node; without
   * it only system:masters and kube-apiserver-kubelet-client are allowed.
   */
  authorize?: (user: string, groups: string[], node: string, subresource: string) => Promise<boolean>;
}

const ALLOWED_USERS = new Set(['kube-apiserver-kubelet-client', 'system:kube-apiserver']);
const ALLOW_TTL_MS = 5 * 60_000;
const DENY_TTL_MS = 30_000;

export class NodeServer {
  private server?: Server;

  constructor(private readonly o: NodeServerOptions) {}

  /** Listens; returns the port (useful with port 0). */
  async start(): Promise<number> {
    const ca = await createCa(`${this.o.sans?.[0] ?? 'kubelet'}-ca@${Math.floor(Date.now() / 1000)}`, 365);
    const leaf = await issueCertificate(ca, { subject: { commonName: this.o.sans?.[0] ?? 'kubelet' }, usage: 'server', sans: ['localhost', '127.0.0.1', ...(this.o.sans ?? [])], days: 365 });
    const server = createServer({ cert: `${leaf.certPem.trimEnd()}\n${ca.cert.toString('pem').trimEnd()}\n`, key: leaf.keyPem, ca: this.o.clientCa, requestCert: true, rejectUnauthorized: false }, (req, res) => {
      void this.handle(req.url ?? '/', req.socket as TLSSocket, res, () => req.destroyed);
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.o.port ?? 10250, this.o.address ?? '0.0.0.0', () => resolve());
    });
    return (server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    const s = this.server;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }

  private async handle(url: string, socket: TLSSocket, res: import('node:http').ServerResponse, gone: () => boolean): Promise<void> {
    const send = (code: number, body: string, type = 'text/plain; charset=utf-8'): void => { res.writeHead(code, { 'content-type': type }); res.end(body); };
    const u = new URL(url, 'https://kubelet');
    if (u.pathname === '/healthz') { send(200, 'ok'); return; }
    if (!socket.authorized) { send(401, 'Unauthorized'); return; }
    const peer = socket.getPeerCertificate();
    const cn = peer.subject?.CN;
    const orgs = ([] as string[]).concat(peer.subject?.O ?? []);
    const node = this.o.kubelets()[0]?.nodeName ?? '';
    if (!(await this.allowed(String(cn), orgs, node, 'proxy'))) { send(403, `Forbidden (user=${String(cn)}, verb=get, resource=nodes, subresource=proxy)`); return; }
    try {
      if (u.pathname === '/pods' || u.pathname === '/pods/') {
        const items = this.o.kubelets().flatMap((k) => k.pods());
        send(200, JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: {}, items }), 'application/json');
        return;
      }
      const m = /^\/containerLogs\/([^/]+)\/([^/]+)\/([^/]+)\/?$/.exec(u.pathname);
      if (!m) { send(404, '404 page not found'); return; }
      const [ns, podName, container] = m.slice(1).map(decodeURIComponent) as [string, string, string];
      const found = this.findPod(ns, podName);
      if (!found) { send(404, `pod ${ns}/${podName} not found`); return; }
      const q = u.searchParams;
      const num = (k: string): number | undefined => (q.get(k) !== null && q.get(k) !== '' ? Number(q.get(k)) : undefined);
      const sinceSeconds = num('sinceSeconds');
      const sinceTime = q.get('sinceTime');
      const opts = {
        previous: q.get('previous') === 'true', timestamps: q.get('timestamps') === 'true', tailLines: num('tailLines'),
        sinceMs: sinceSeconds !== undefined ? Date.now() - sinceSeconds * 1000 : sinceTime ? Date.parse(sinceTime) : undefined,
        limitBytes: num('limitBytes'),
      };
      const logs = found.kubelet.containerLogs(found.pod, container, opts);
      if (typeof logs === 'string') { send(400, logs); return; }
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'transfer-encoding': 'chunked' });
      let text = await logs.read(opts);
      if (opts.limitBytes !== undefined) text = text.slice(0, opts.limitBytes);
      res.write(text);
      if (q.get('follow') === 'true') {
        let seen = await logs.read({ ...opts, tailLines: undefined });
        while (!gone() && logs.running()) {
          await new Promise((r) => setTimeout(r, 200));
          const now = await logs.read({ ...opts, tailLines: undefined });
          if (now.length > seen.length && now.startsWith(seen)) res.write(now.slice(seen.length));
          seen = now;
        }
        const last = await logs.read({ ...opts, tailLines: undefined });
        if (last.length > seen.length && last.startsWith(seen)) res.write(last.slice(seen.length));
      }
      res.end();
    } catch (err) {
      this.o.logger.warn({ err, url }, 'kubelet server request failed');
      if (!res.headersSent) send(500, (err as Error).message); else res.end();
    }
  }

  private readonly decisions = new Map<string, { allowed: boolean; until: number }>();

  /** Cached as upstream's webhook authorizer: allowed for 5 min, denied for 30 s. */
  private async allowed(user: string, groups: string[], node: string, subresource: string): Promise<boolean> {
    if (!this.o.authorize) return ALLOWED_USERS.has(user) || groups.includes('system:masters');
    const key = JSON.stringify([user, groups, node, subresource]);
    const hit = this.decisions.get(key);
    if (hit && hit.until > Date.now()) return hit.allowed;
    let allowed = false;
    try { allowed = await this.o.authorize(user, groups, node, subresource); } catch (err) { this.o.logger.warn({ err }, 'SubjectAccessReview failed'); return false; }
    this.decisions.set(key, { allowed, until: Date.now() + (allowed ? ALLOW_TTL_MS : DENY_TTL_MS) });
    return allowed;
  }

  private findPod(ns: string, name: string): { kubelet: NodeKubelet; pod: KubeObject } | undefined {
    for (const kubelet of this.o.kubelets()) {
      const pod = kubelet.pods().find((p) => p.metadata?.namespace === ns && p.metadata?.name === name);
      if (pod) return { kubelet, pod };
    }
    return undefined;
  }
}
