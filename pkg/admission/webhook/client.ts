// Calling one webhook: an AdmissionReview v1 POSTed with undici to its URL, or to one of its service's endpoints,
// trusting clientConfig.caBundle, bounded by timeoutSeconds (upstream: apiserver/pkg/util/webhook and
// admission/plugin/webhook/request).
import type { Deadline } from '../../apimachinery/deadline.js';
import type { Agent, Dispatcher } from 'undici';
import { undici, type Undici } from '../../apimachinery/undici.js';
import { goHttpsTransportError } from '../../apimachinery/go-net-errors.js';
import { responseError } from '../../apimachinery/client-go-errors.js';
import { resolveServiceEndpoint } from '../../apimachinery/service-endpoint.js';
import { printedUrl, webhookUrl, type WebhookClientConfig } from '../../apimachinery/webhook-url.js';
import type { AdmissionDeps } from '../deps.js';

export interface ClientConfig extends WebhookClientConfig {
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

/**
 * POSTs the review and returns the parsed response body; CallError on any transport or protocol failure. The call
 * lasts at most the webhook's timeout or what is left of the request's deadline, and its `timeout` parameter says
 * which, in whole seconds rounded up (as upstream's dispatcher tells the webhook).
 */
export async function callWebhook(cc: ClientConfig, deps: AdmissionDeps, review: unknown, timeoutSeconds: number, deadline?: Deadline): Promise<Record<string, any>> {
  const shown = webhookUrl(cc);
  if (!shown) throw new CallError('webhook has neither url nor service');
  const { u } = shown;
  const left = Math.min(timeoutSeconds * 1000, deadline ? deadline.at - Date.now() : Infinity);
  if (left > 0) u.searchParams.set('timeout', `${Math.ceil(left / 1000)}s`);
  const failed = (why: string): CallError => new CallError(`failed to call webhook: Post "${printedUrl(shown)}": ${why}`);
  // a service's URL names it; the connection goes to one of its endpoints, verified by the service's DNS name
  let target = u;
  if (cc.service) {
    const ep = resolveServiceEndpoint((resource, namespace, name) => deps.get('', resource, namespace, name), cc.service);
    if (!ep.ok) throw failed(ep.message);
    target = new URL(u);
    target.hostname = ep.host.includes(':') ? `[${ep.host}]` : ep.host;
    target.port = String(ep.port);
  }
  const servername = cc.service ? u.hostname : undefined;
  const own = AbortSignal.timeout(timeoutSeconds * 1000);
  const ca = cc.caBundle ? Buffer.from(cc.caBundle, 'base64').toString('utf8') : undefined;
  const http = await undici();
  let res: Dispatcher.ResponseData;
  try {
    res = await http.request(target, {
      method: 'POST',
      dispatcher: agentFor(http, ca, servername),
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(review),
      signal: deadline ? AbortSignal.any([own, deadline.signal]) : own,
    });
  } catch (err) {
    const e = err as Error & { cause?: Error };
    if (e.name === 'TimeoutError' || e.name === 'AbortError' || deadline?.expired) throw failed('context deadline exceeded');
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = Number(target.port) || 443;
    throw failed(goHttpsTransportError((e.cause ?? e) as NodeJS.ErrnoException, host, port, servername));
  }
  let text: string;
  try {
    text = await res.body.text();
  } catch (err) {
    throw new CallError(`failed to call webhook: ${(err as Error).message}`);
  }
  if (res.statusCode < 200 || res.statusCode >= 300) {
    const type = res.headers['content-type'];
    throw new CallError(`failed to call webhook: ${responseError(res.statusCode, Array.isArray(type) ? type[0] : type, text)}`);
  }
  try {
    return JSON.parse(text) as Record<string, any>;
  } catch (err) {
    throw new CallError(`failed to call webhook: ${(err as Error).message}`);
  }
}
