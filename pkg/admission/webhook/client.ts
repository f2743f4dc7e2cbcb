// Calling one webhook: an AdmissionReview v1 POSTed with undici to its URL, or to its service through
// the service's Endpoints, trusting clientConfig.caBundle, bounded by timeoutSeconds (upstream:
// apiserver/pkg/util/webhook and admission/plugin/webhook/request).
import type { Deadline } from '../../apimachinery/deadline.js';
import type { Agent, Dispatcher } from 'undici';
import { undici, type Undici } from '../../apimachinery/undici.js';
import type { AdmissionDeps } from '../deps.js';

export interface ClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  caBundle?: string;
}

/** A failure to get a usable answer (upstream's ErrCallingWebhook): subject to failurePolicy. */
export class CallError extends Error {}

const agents = new Map<string, Agent>();

function agentFor(u: Undici, ca: string | undefined, servername: string | undefined): Agent {
  const key = `${servername ?? ''}\n${ca ?? ''}`;
  let a = agents.get(key);
  if (!a) {
    a = new u.Agent({ connect: { ...(ca ? { ca } : {}), ...(servername ? { servername } : {}) }, keepAliveTimeout: 10_000 });
    agents.set(key, a);
  }
  return a;
}

/** The URL to POST to and the TLS server name to verify (the service's DNS name for services). */
export function resolveTarget(cc: ClientConfig, deps: AdmissionDeps): { url: string; servername?: string } {
  if (cc.url) return { url: cc.url };
  const ref = cc.service;
  if (!ref) throw new CallError('webhook has neither url nor service');
  const svc = deps.get('', 'services', ref.namespace, ref.name);
  if (!svc) throw new CallError(`service "${ref.name}" not found`);
  const port = ref.port ?? 443;
  const sp = (svc.spec?.ports ?? []).find((p: { port?: number }) => p.port === port);
  if (!sp) throw new CallError(`service ${ref.namespace}/${ref.name} has no port ${port}`);
  const ep = deps.get('', 'endpoints', ref.namespace, ref.name);
  for (const subset of ep?.subsets ?? []) {
    const addr = subset.addresses?.[0];
    const epPort = (subset.ports ?? []).find((p: { name?: string }) => (p.name ?? '') === (sp.name ?? ''));
    if (addr?.ip && epPort?.port) {
      const host = addr.ip.includes(':') ? `[${addr.ip}]` : addr.ip;
      return { url: `https://${host}:${epPort.port}${ref.path ?? ''}`, servername: `${ref.name}.${ref.namespace}.svc` };
    }
  }
  throw new CallError(`service "${ref.name}" has no ready endpoints`);
}

/**
 * POSTs the review and returns the parsed response body; CallError on any transport or protocol failure. The call
 * lasts at most the webhook's timeout or what is left of the request's deadline, and its `timeout` parameter says
 * which, in whole seconds rounded up (as upstream's dispatcher tells the webhook).
 */
export async function callWebhook(cc: ClientConfig, deps: AdmissionDeps, review: unknown, timeoutSeconds: number, deadline?: Deadline): Promise<Record<string, any>> {
  const target = resolveTarget(cc, deps);
  const u = new URL(target.url);
  const left = Math.min(timeoutSeconds * 1000, deadline ? deadline.at - Date.now() : Infinity);
  if (left > 0) u.searchParams.set('timeout', `${Math.ceil(left / 1000)}s`);
  const own = AbortSignal.timeout(timeoutSeconds * 1000);
  const ca = cc.caBundle ? Buffer.from(cc.caBundle, 'base64').toString('utf8') : undefined;
  const http = await undici();
  let res: Dispatcher.ResponseData;
  try {
    res = await http.request(u, {
      method: 'POST',
      dispatcher: agentFor(http, ca, target.servername),
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(review),
      signal: deadline ? AbortSignal.any([own, deadline.signal]) : own,
    });
  } catch (err) {
    const e = err as Error & { cause?: Error };
    const why = e.name === 'TimeoutError' || e.name === 'AbortError' || deadline?.expired ? 'context deadline exceeded' : (e.cause?.message ?? e.message);
    throw new CallError(`failed to call webhook: Post "${u.toString()}": ${why}`);
  }
  let text: string;
  try {
    text = await res.body.text();
  } catch (err) {
    throw new CallError(`failed to call webhook: ${(err as Error).message}`);
  }
  if (res.statusCode < 200 || res.statusCode >= 300) {
    throw new CallError(`failed to call webhook: the server responded with the status code ${res.statusCode} but did not return more information`);
  }
  try {
    return JSON.parse(text) as Record<string, any>;
  } catch (err) {
    throw new CallError(`failed to call webhook: ${(err as Error).message}`);
  }
}
