// Webhook token authentication (--authentication-token-webhook-config-file): a bearer token no other authenticator
// accepted is POSTed as an authentication.k8s.io/v1 TokenReview to the server of the kubeconfig, over HTTPS with
// undici; answers are cached (--authentication-token-webhook-cache-ttl, default 2m; denials 10 s, errors never),
// as upstream's plugin/pkg/authenticator/token/webhook behind its token cache.
import { createHash } from 'node:crypto';
import { unauthorized } from '../apimachinery/errors.js';
import { schemeCredential } from './authorization-header.js';
import type { Authenticator, UserInfo } from './interface.js';
import { TtlCache } from './ttl-cache.js';
import { webhookClient } from './webhook-client.js';
import { cloneJson } from '../apimachinery/json-clone.js';

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

interface Answer { user?: UserInfo; error?: string }

interface TokenReviewAnswer {
  status?: { authenticated?: boolean; error?: string; user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> } };
}

export const webhookTokenAuthenticator = async (o: WebhookOptions): Promise<Authenticator & { close(): Promise<void> }> => {
  const client = await webhookClient(o.kubeconfigFile, 'token', o.timeoutMs);
  const ttl = o.cacheTtlMs ?? 120_000;
  const failureTtl = o.failureTtlMs ?? 10_000;
  const cache = new TtlCache<Answer>(o.now);

  const review = async (token: string): Promise<Answer> => {
    const spec: Record<string, unknown> = { token };
    if (o.audiences?.length) spec.audiences = o.audiences;
    const body = await client.post({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec }) as TokenReviewAnswer;
    const s = body.status ?? {};
    if (!s.authenticated) return { error: s.error || 'the token webhook did not authenticate the token' };
    const u = s.user ?? {};
    const user: UserInfo = { name: u.username ?? '', groups: u.groups ?? [] };
    if (u.uid) user.uid = u.uid;
    if (u.extra && Object.keys(u.extra).length) user.extra = u.extra;
    return { user };
  };

  return {
    name: 'webhook',
    close: () => client.close(),
    async authenticate(req) {
      const token = schemeCredential(req, 'bearer');
      if (token === undefined) return null;
      const key = createHash('sha256').update(token).digest('base64');
      let entry = cache.get(key);
      if (!entry) {
        try {
          entry = await review(token);
        } catch (e) {
          throw unauthorized(`token webhook: ${(e as Error).message}`);
        }
        cache.set(key, entry, entry.user ? ttl : failureTtl);
      }
      if (!entry.user) throw unauthorized(`token webhook: ${entry.error ?? 'not authenticated'}`);
      return { user: cloneJson(entry.user), consumedHeaders: ['authorization'] };
    },
  };
};
