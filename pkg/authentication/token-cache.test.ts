import { describe, expect, it } from 'vitest';
import { unauthorized } from '../apimachinery/errors.js';
import type { Authenticator, AuthnRequest, AuthnResult } from './interface.js';
import { cachedTokenAuthenticator } from './token-cache.js';

const bearer = (token: string): AuthnRequest => ({ headers: { authorization: `Bearer ${token}` } });

/** Answers from a table of tokens and counts the questions. */
const counting = (answers: Record<string, AuthnResult | 'reject'>) => {
  const calls: string[] = [];
  const a: Authenticator = {
    name: 'table',
    authenticate(req) {
      const token = String(req.headers.authorization).slice('Bearer '.length);
      calls.push(token);
      const r = answers[token];
      if (r === 'reject') return Promise.reject(unauthorized('bad token'));
      return Promise.resolve(r ?? null);
    },
  };
  return { a, calls };
};

describe('cachedTokenAuthenticator', () => {
  it('keeps an acceptance for the success TTL and shares one verification between concurrent requests', async () => {
    let now = 1_000_000;
    const { a, calls } = counting({ good: { user: { name: 'jane', groups: [] } } });
    const cached = cachedTokenAuthenticator([a], { audiences: ['api'], successTtlMs: 10_000, now: () => now });
    const results = await Promise.all([1, 2, 3].map(() => cached.authenticate(bearer('good'))));
    expect(results.map((r) => r?.user.name)).toEqual(['jane', 'jane', 'jane']);
    expect(await cached.authenticate(bearer('good'))).toMatchObject({ user: { name: 'jane' } });
    expect(calls).toEqual(['good']);
    now += 10_001;
    await cached.authenticate(bearer('good'));
    expect(calls).toEqual(['good', 'good']);
  });

  it('does not keep refusals by default, and keeps them for the failure TTL when asked', async () => {
    const { a, calls } = counting({ bad: 'reject' });
    const plain = cachedTokenAuthenticator([a], { audiences: [] });
    for (let i = 0; i < 2; i++) await expect(plain.authenticate(bearer('bad'))).rejects.toMatchObject({ code: 401, message: 'table: bad token' });
    expect(calls).toHaveLength(2);
    const keeping = cachedTokenAuthenticator([a], { audiences: [], failureTtlMs: 1_000 });
    for (let i = 0; i < 2; i++) await expect(keeping.authenticate(bearer('bad'))).rejects.toMatchObject({ code: 401 });
    expect(calls).toHaveLength(3);
  });

  it('never keeps an answer past the credential\'s expiry', async () => {
    let now = 1_000_000;
    const { a, calls } = counting({ short: { user: { name: 'jane', groups: [] }, expiresAt: now + 2_000 } });
    const cached = cachedTokenAuthenticator([a], { audiences: [], now: () => now });
    await cached.authenticate(bearer('short'));
    now += 1_000;
    await cached.authenticate(bearer('short'));
    expect(calls).toHaveLength(1);
    now += 1_001;
    await cached.authenticate(bearer('short'));
    expect(calls).toHaveLength(2);
  });

  it('checks a revocable answer again on every hit, and forgets it once revoked', async () => {
    let revoked = false;
    const revalidate = (): Promise<void> => (revoked ? Promise.reject(unauthorized('serviceaccounts "sa" not found')) : Promise.resolve());
    const { a, calls } = counting({ sa: { user: { name: 'system:serviceaccount:ns:sa', groups: [] }, revalidate } });
    const cached = cachedTokenAuthenticator([a], { audiences: [] });
    await cached.authenticate(bearer('sa'));
    await cached.authenticate(bearer('sa'));
    expect(calls).toHaveLength(1);
    revoked = true;
    await expect(cached.authenticate(bearer('sa'))).rejects.toMatchObject({ code: 401 });
    expect(calls).toHaveLength(1);
    revoked = false;
    await cached.authenticate(bearer('sa'));
    expect(calls).toHaveLength(2);
  });

  it('passes requests without a bearer token, and tokens no authenticator knows', async () => {
    const { a } = counting({});
    const cached = cachedTokenAuthenticator([a], { audiences: [] });
    expect(await cached.authenticate({ headers: {} })).toBeNull();
    expect(await cached.authenticate(bearer('unknown'))).toBeNull();
  });
});
