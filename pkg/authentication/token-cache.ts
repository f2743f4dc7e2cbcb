// Upstream's token cache (apiserver/pkg/authentication/token/cache) in front of the token authenticators: answers
// for a bearer token are kept for a success TTL (kube-apiserver's 10 s) or a failure TTL (0: not kept), keyed by an
// HMAC (a per-process random key) of the audiences and the token, so the cache never holds a token itself.
// Concurrent requests with the same token share one verification. An answer never outlives the credential's own
// expiry, and one that may be revoked earlier (a service-account token whose account or pod is deleted) is checked
// again on every hit: the lookups are cheap map reads, the signature verification they replace is not.
import { createHmac, randomBytes } from 'node:crypto';
import { isStatusError, unauthorized } from '../apimachinery/errors.js';
import { schemeCredential } from './authorization-header.js';
import type { Authenticator, AuthnRequest, AuthnResult } from './interface.js';
import { TtlCache } from './ttl-cache.js';
import { firstAccepting } from './union.js';

export interface TokenCacheOptions {
  /** The audiences the authenticators check tokens against (part of the key). */
  audiences: string[];
  /** Default 10 s, as kube-apiserver's. */
  successTtlMs?: number;
  /** Default 0 (refusals are not cached), as kube-apiserver's. */
  failureTtlMs?: number;
  /** Entries kept at most (the oldest goes first). */
  max?: number;
  now?: () => number;
}

type Outcome = { result: AuthnResult | null } | { error: Error };

export const cachedTokenAuthenticator = (authenticators: Authenticator[], o: TokenCacheOptions): Authenticator => {
  const now = o.now ?? Date.now;
  const successTtl = o.successTtlMs ?? 10_000;
  const failureTtl = o.failureTtlMs ?? 0;
  const hmacKey = randomBytes(32);
  const audiences = [...o.audiences].sort().join(',');
  const cache = new TtlCache<Outcome>(now, o.max ?? 10_000);
  const inflight = new Map<string, Promise<Outcome>>();

  const verify = async (key: string, req: AuthnRequest): Promise<Outcome> => {
    let outcome: Outcome;
    try {
      const { result, rejections } = await firstAccepting(authenticators, req);
      outcome = result || rejections.length === 0 ? { result: result ?? null } : { error: unauthorized(rejections.map((r) => r.message).join('; ')) };
    } catch (e) {
      // Not a refusal (an authenticator failed): never cached.
      return { error: e as Error };
    }
    const r = 'result' in outcome ? outcome.result : undefined;
    const ttl = r ? Math.min(successTtl, (r.expiresAt ?? Infinity) - now()) : failureTtl;
    cache.set(key, outcome, ttl);
    return outcome;
  };

  return {
    name: 'token',
    async authenticate(req) {
      const token = schemeCredential(req, 'bearer');
      if (token === undefined) return null;
      const key = createHmac('sha256', hmacKey).update(audiences).update('\0').update(token).digest('base64');
      const cached = cache.get(key);
      let outcome = cached;
      if (!outcome) {
        let pending = inflight.get(key);
        if (!pending) {
          pending = verify(key, req).finally(() => inflight.delete(key));
          inflight.set(key, pending);
        }
        outcome = await pending;
      }
      if ('error' in outcome) throw outcome.error;
      if (cached && outcome.result?.revalidate) {
        try {
          await outcome.result.revalidate();
        } catch (e) {
          if (isStatusError(e) && e.code === 401) cache.delete(key);
          throw e;
        }
      }
      return outcome.result;
    },
  };
};
