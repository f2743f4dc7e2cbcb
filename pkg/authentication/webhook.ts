// Webhook token authentication (--authentication-token-webhook-config-file): a bearer token no other authenticator
// accepted is POSTed as an authentication.k8s.io/v1 TokenReview to the server of the kubeconfig, over HTTPS with
// undici; answers are cached (--authentication-token-webhook-cache-ttl, default 2m; denials 10 s, errors never),
// as upstream's plugin/pkg/authenticator/token/webhook behind its token cache.
import { createHash } from 'node:crypto';
import { Agent, request } from 'undici';
import { unauthorized } from '../apimachinery/errors.js';
import { loadKubeconfig } from '../client/kubeconfig.js';
import { schemeCredential } from './authorization-header.js';
import type { Authenticator, UserInfo } from './interface.js';

export interface WebhookOptions {
  kubeconfigFile: string;
  /** Default 2 minutes. */
  cacheTtlMs?: number;
  /** Default 10 seconds. */
  failureTtlMs?: number;
  /** Audiences to ask the webhook about (the API audiences); none: the webhook's own default. */
  audiences?: string[];
  timeoutMs?: number;
  now?: () => number;
}

interface Cached { until: number; user?: UserInfo; error?: string }

const MAX_CACHE = 10_000;

export const webhookTokenAuthenticator = async (o: WebhookOptions): Promise<Authenticator & { close(): Promise<void> }> => {
  const cfg = await loadKubeconfig(o.kubeconfigFile);
  const agent = new Agent({
    connect: {
      ...(cfg.caData ? { ca: cfg.caData } : {}),
      ...(cfg.certData && cfg.keyData ? { cert: cfg.certData, key: cfg.keyData } : {}),
      ...(cfg.insecureSkipTLSVerify ? { rejectUnauthorized: false } : {}),
      ...(cfg.tlsServerName ? { servername: cfg.tlsServerName } : {}),
    },
  });
  const ttl = o.cacheTtlMs ?? 120_000;
  const failureTtl = o.failureTtlMs ?? 10_000;
  const now = o.now ?? Date.now;
  const cache = new Map<string, Cached>();

  const review = async (token: string): Promise<Cached> => {
    const spec: Record<string, unknown> = { token };
    if (o.audiences?.length) spec.audiences = o.audiences;
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (cfg.bearerToken) headers.authorization = `Bearer ${cfg.bearerToken}`;
    const res = await request(cfg.host, {
      method: 'POST', dispatcher: agent, headers,
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec }),
      headersTimeout: o.timeoutMs ?? 30_000, bodyTimeout: o.timeoutMs ?? 30_000,
    });
    const text = await res.body.text();
    if (res.statusCode < 200 || res.statusCode >= 300) throw new Error(`the token webhook answered ${res.statusCode}`);
    const body = JSON.parse(text) as { status?: { authenticated?: boolean; error?: string; user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> } } };
    const s = body.status ?? {};
    if (!s.authenticated) return { until: now() + failureTtl, error: s.error || 'the token webhook did not authenticate the token' };
    const u = s.user ?? {};
    const user: UserInfo = { name: u.username ?? '', groups: u.groups ?? [] };
    if (u.uid) user.uid = u.uid;
    if (u.extra && Object.keys(u.extra).length) user.extra = u.extra;
    return { until: now() + ttl, user };
  };

  return {
    name: 'webhook',
    close: () => agent.close(),
    async authenticate(req) {
      const token = schemeCredential(req, 'bearer');
      if (token === undefined) return null;
      const key = createHash('sha256').update(token).digest('base64');
      let entry = cache.get(key);
      if (!entry || entry.until <= now()) {
        try {
          entry = await review(token);
        } catch (e) {
          throw unauthorized(`token webhook: ${(e as Error).message}`);
        }
        if (cache.size >= MAX_CACHE) cache.delete(cache.keys().next().value!);
        cache.set(key, entry);
      }
      if (!entry.user) throw unauthorized(`token webhook: ${entry.error ?? 'not authenticated'}`);
      return { user: structuredClone(entry.user), consumedHeaders: ['authorization'] };
    },
  };
};
