// One reverse proxy for every place the apiserver forwards a request as it came (upstream's UpgradeAwareHandler):
// aggregated APIs, pods/proxy and services/proxy. The client's credentials never go on (upstream's authentication
// filter drops Authorization once it has used it); bodies stream both ways unread, so watches and large downloads
// flow as they come; upgrade requests (WebSocket, SPDY) get a connection of their own, spliced to the client's.
import { connect as netConnect, type Socket } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { goHttpsTransportError, goTransportError } from '../apimachinery/go-net-errors.js';
import { undici } from '../apimachinery/undici.js';
import { dialTls, spliceUpgrade, upgradeHead } from './upgrade.js';

export interface ProxyDestination {
  scheme: 'http' | 'https';
  host: string;
  port: number;
  /** Path and query on the backend. */
  path: string;
  dispatcher: Dispatcher;
  /** TLS options for upgrades over https (they bypass the dispatcher). */
  tls?: ConnectionOptions;
  /** Headers the proxy asserts (the aggregator's X-Remote-*). */
  extraHeaders?: Record<string, string | string[]>;
}

/** Headers that describe one connection, not the message (RFC 9110 7.6.1), and HTTP/2 pseudo-headers. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host', 'http2-settings']);

const isCredentialHeader = (h: string): boolean =>
  h === 'authorization' || h === 'proxy-authorization' || h.startsWith('x-remote-') || h.startsWith('impersonate-');

/** The headers to send on: the client's, less credentials and hop-by-hop ones, plus what the proxy asserts. */
export function forwardedHeaders(incoming: FastifyRequest['headers'], extra: Record<string, string | string[]> = {}): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [h, v] of Object.entries(incoming)) {
    if (v === undefined || h.startsWith(':') || HOP_BY_HOP.has(h) || isCredentialHeader(h)) continue;
    out[h] = v;
  }
  return { ...out, ...extra };
}

/** The proxy writes the answer itself; headers set earlier in the chain (audit-id) go out with it. */
export function takeOver(reply: FastifyReply): void {
  reply.hijack();
  for (const [h, v] of Object.entries(reply.getHeaders())) if (v !== undefined) reply.raw.setHeader(h, v as string);
}

/** Upstream answers with http.Error: plain text and a newline. */
export function plainError(reply: FastifyReply, code: number, message: string): void {
  reply.raw.writeHead(code, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
  reply.raw.end(`${message}\n`);
}

const hostPort = (d: { host: string; port: number }): string => `${d.host.includes(':') ? `[${d.host}]` : d.host}:${d.port}`;

const dialPlain = (host: string, port: number): Promise<Socket> => new Promise<Socket>((resolve, reject) => {
  const s = netConnect({ host, port });
  s.once('connect', () => { s.off('error', reject); resolve(s); });
  s.once('error', reject);
});

const PROXIED_RESPONSE_LISTENERS = 20;

/**
 * Forwards the request (already authenticated and authorized) to `to` and streams the answer back. When the
 * backend cannot be reached nothing is written yet: `fail` answers (or throws a Status error), each caller as its
 * upstream counterpart does.
 */
export async function proxyTo(request: FastifyRequest, reply: FastifyReply, to: ProxyDestination, fail: (err: Error) => void): Promise<void> {
  // the error as upstream's Go transport words it: "dial tcp 10.244.1.5:80: connect: connection refused"
  const failed = (e: Error): void =>
    fail(new Error(to.scheme === 'https' ? goHttpsTransportError(e, to.host, to.port, to.tls?.servername) : goTransportError(to.host, to.port, e)));
  if (upgradeHead(request.raw)) {
    let upstream: Socket;
    try {
      upstream = await (to.scheme === 'https' ? dialTls({ ...to.tls, host: to.host, port: to.port }) : dialPlain(to.host, to.port));
    } catch (err) {
      return failed(err as Error);
    }
    takeOver(reply);
    spliceUpgrade(request.raw, upstream, to.path, hostPort(to), to.extraHeaders);
    return;
  }
  const abort = new AbortController();
  // The chain's own 'close' listeners (in-flight seat, deadline, audit, shutdown counts, fastify's), the body's pipe
  // and this abort pass Node's default ten on a proxied response: not a leak, so its limit is raised. (One listener
  // for all of them, calling a list kept in a WeakMap or in a symbol property of each response, measured 10-20 µs
  // more CPU per request in the bench's gets than a listener each.)
  reply.raw.setMaxListeners(PROXIED_RESPONSE_LISTENERS);
  reply.raw.once('close', () => abort.abort());
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const { request: undiciRequest } = await undici();
  let res: Dispatcher.ResponseData;
  try {
    res = await undiciRequest(`${to.scheme}://${hostPort(to)}${to.path}`, {
      method: request.method as 'GET',
      headers: forwardedHeaders(request.headers, to.extraHeaders),
      body: hasBody ? request.raw : undefined,
      dispatcher: to.dispatcher,
      signal: abort.signal,
      headersTimeout: 60_000,
      // A watch or a log may be quiet for long.
      bodyTimeout: 0,
    });
  } catch (err) {
    if (abort.signal.aborted) return;
    const e = err as Error & { cause?: Error };
    return failed(e.cause ?? e);
  }
  takeOver(reply);
  const headers: Record<string, string | string[]> = {};
  for (const [h, v] of Object.entries(res.headers)) if (v !== undefined && !HOP_BY_HOP.has(h)) headers[h] = v;
  reply.raw.writeHead(res.statusCode, headers);
  // Each chunk goes out as it arrives (watch events); the client hanging up aborts the upstream request.
  reply.raw.flushHeaders?.();
  await pipeline(res.body, reply.raw).catch(() => abort.abort());
}
