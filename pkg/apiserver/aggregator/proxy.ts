// Proxying a request for an aggregated group-version to its extension apiserver (upstream: kube-aggregator
// pkg/apiserver/handler_proxy.go). It runs after the whole request chain: the user is authenticated and the
// request authorized here, as upstream's kube-apiserver does before its proxy handler; the extension apiserver
// then learns the user from the X-Remote-* headers, which it believes because the connection shows the
// front-proxy client certificate. Bodies stream both ways unread (watches flow as they come); upgrade requests
// (WebSocket, SPDY) get a connection of their own, spliced to the client's once written.
import { pipeline } from 'node:stream/promises';
import type { ConnectionOptions } from 'node:tls';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Agent, Dispatcher } from 'undici';
import { undici } from '../../apimachinery/undici.js';
import type { UserInfo } from '../../authentication/interface.js';
import { dialTls, spliceUpgrade, upgradeHead } from '../upgrade.js';
import { endpointUrl, type Resolution } from './resolve.js';

export interface ProxyTarget {
  /** The APIService's Available condition is True. */
  available: boolean;
  agent: Agent;
  /** The agent's connection options, for upgrades (which bypass it). */
  tls: ConnectionOptions;
  resolve(): Resolution;
}

/** Headers that describe one connection, not the message (RFC 9110 7.6.1), and HTTP/2 pseudo-headers. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host', 'http2-settings']);

const isCredentialHeader = (h: string): boolean =>
  h === 'authorization' || h.startsWith('x-remote-') || h.startsWith('impersonate-');

/** The headers to send on: the client's, less credentials and hop-by-hop ones, plus who the user is. */
export function forwardedHeaders(incoming: FastifyRequest['headers'], user: UserInfo): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [h, v] of Object.entries(incoming)) {
    if (v === undefined || h.startsWith(':') || HOP_BY_HOP.has(h) || isCredentialHeader(h)) continue;
    out[h] = v;
  }
  return { ...out, ...remoteUserHeaders(user) };
}

/** Who the user is, in the request-header authentication the extension apiserver trusts. */
function remoteUserHeaders(user: UserInfo): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  out['x-remote-user'] = user.name;
  if (user.groups.length) out['x-remote-group'] = [...user.groups];
  for (const [k, vs] of Object.entries(user.extra ?? {})) out[`x-remote-extra-${encodeURIComponent(k)}`] = [...vs];
  return out;
}

/** Upstream answers with http.Error: plain text and a newline. */
function plainError(reply: FastifyReply, code: number, message: string): void {
  reply.raw.writeHead(code, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
  reply.raw.end(`${message}\n`);
}

export async function proxyRequest(request: FastifyRequest, reply: FastifyReply, target: ProxyTarget, onError: (err: unknown) => void): Promise<void> {
  reply.hijack();
  // Headers set earlier in the chain (audit-id) go out with the proxied answer.
  for (const [h, v] of Object.entries(reply.getHeaders())) if (v !== undefined) reply.raw.setHeader(h, v as string);
  const at = target.available ? target.resolve() : undefined;
  if (!at?.ok) return plainError(reply, 503, 'service unavailable');
  if (upgradeHead(request.raw)) {
    const upstream = await dialTls({ ...target.tls, host: at.host, port: at.port }).catch((err: unknown) => {
      onError(err);
      plainError(reply, 503, (err as Error).message);
    });
    if (upstream) spliceUpgrade(request.raw, upstream, request.url, `${at.host.includes(':') ? `[${at.host}]` : at.host}:${at.port}`, remoteUserHeaders(request.user!));
    return;
  }
  const abort = new AbortController();
  reply.raw.once('close', () => abort.abort());
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const { request: undiciRequest } = await undici();
  let res: Dispatcher.ResponseData;
  try {
    res = await undiciRequest(endpointUrl(at) + request.url, {
      method: request.method as 'GET',
      headers: forwardedHeaders(request.headers, request.user!),
      body: hasBody ? request.raw : undefined,
      dispatcher: target.agent,
      signal: abort.signal,
      headersTimeout: 60_000,
      // A watch may be quiet for long.
      bodyTimeout: 0,
    });
  } catch (err) {
    if (abort.signal.aborted) return;
    onError(err);
    const e = err as Error & { cause?: Error };
    return plainError(reply, 503, e.cause?.message ?? e.message);
  }
  const headers: Record<string, string | string[]> = {};
  for (const [h, v] of Object.entries(res.headers)) if (v !== undefined && !HOP_BY_HOP.has(h)) headers[h] = v;
  reply.raw.writeHead(res.statusCode, headers);
  // Each chunk goes out as it arrives (watch events); the client hanging up aborts the upstream request.
  reply.raw.flushHeaders?.();
  await pipeline(res.body, reply.raw).catch(() => abort.abort());
}
