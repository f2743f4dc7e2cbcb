// Proxying a request for an aggregated group-version to its extension apiserver (upstream: kube-aggregator
// pkg/apiserver/handler_proxy.go). It runs after the whole request chain: the user is authenticated and the
// request authorized here, as upstream's kube-apiserver does before its proxy handler; the extension apiserver
// then learns the user from the X-Remote-* headers, which it believes because the connection shows the
// front-proxy client certificate. Failures are plain-text 503s, as upstream's proxy handler writes them.
import type { ConnectionOptions } from 'node:tls';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Agent } from 'undici';
import type { UserInfo } from '../../authentication/interface.js';
import { plainError, proxyTo, takeOver } from '../reverse-proxy.js';
import type { Resolution } from './resolve.js';

export interface ProxyTarget {
  /** The APIService's Available condition is True. */
  available: boolean;
  agent: Agent;
  /** The agent's connection options, for upgrades (which bypass it). */
  tls: ConnectionOptions;
  resolve(): Resolution;
}

/** Who the user is, in the request-header authentication the extension apiserver trusts. */
export function remoteUserHeaders(user: UserInfo): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  out['x-remote-user'] = user.name;
  if (user.groups.length) out['x-remote-group'] = [...user.groups];
  for (const [k, vs] of Object.entries(user.extra ?? {})) out[`x-remote-extra-${encodeURIComponent(k)}`] = [...vs];
  return out;
}

export async function proxyRequest(request: FastifyRequest, reply: FastifyReply, target: ProxyTarget, onError: (err: unknown) => void): Promise<void> {
  const unavailable = (message: string): void => { takeOver(reply); plainError(reply, 503, message); };
  const at = target.available ? target.resolve() : undefined;
  if (!at?.ok) return unavailable('service unavailable');
  await proxyTo(request, reply, {
    scheme: 'https', host: at.host, port: at.port, path: request.url, dispatcher: target.agent, tls: target.tls,
    extraHeaders: remoteUserHeaders(request.user!),
  }, (err) => { onError(err); unavailable(err.message); });
}
