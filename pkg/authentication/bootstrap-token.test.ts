import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types.js';
import { bootstrapTokenAuthenticator } from './bootstrap-token.js';
import { buildAuthentication } from './index.js';
import type { ObjectLookup } from './serviceaccount/tokens.js';
import { cachedTokenAuthenticator } from './token-cache.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const TOKEN = 'abcdef.0123456789abcdef';
const bearer = (t: string) => ({ headers: { authorization: `Bearer ${t}` } });
const b64 = (s: string): string => Buffer.from(s).toString('base64');

const tokenSecret = (data: Record<string, string> = {}, o: { type?: string; deleting?: boolean } = {}): KubeObject => ({
  apiVersion: 'v1', kind: 'Secret', type: o.type ?? 'bootstrap.kubernetes.io/token',
  metadata: { name: 'bootstrap-token-abcdef', namespace: 'kube-system', ...(o.deleting ? { deletionTimestamp: '2026-03-01T11:00:00Z' } : {}) },
  data: Object.fromEntries(Object.entries({ 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true', ...data })
    .filter(([, v]) => v !== '').map(([k, v]) => [k, b64(v)])),
});

/** A lookup over a map of kube-system Secrets, counting what was asked. */
const secrets = (list: KubeObject[]): ObjectLookup & { asked: string[] } => {
  const asked: string[] = [];
  const byName = new Map(list.map((s) => [s.metadata!.name!, s]));
  const lookup = (async (resource: string, namespace: string | undefined, name: string) => {
    asked.push(`${resource}/${namespace}/${name}`);
    return resource === 'secrets' && namespace === 'kube-system' ? byName.get(name) : undefined;
  }) as ObjectLookup & { asked: string[] };
  lookup.asked = asked;
  return lookup;
};

const authn = (list: KubeObject[], now = NOW) => bootstrapTokenAuthenticator({ lookup: secrets(list), now: () => now });

describe('bootstrap token authenticator', () => {
  it('a valid token is system:bootstrap:<id> in system:bootstrappers, until its expiration', async () => {
    const lookup = secrets([tokenSecret({ expiration: '2026-03-02T12:00:00Z' })]);
    const r = await bootstrapTokenAuthenticator({ lookup, now: () => NOW }).authenticate(bearer(TOKEN));
    expect(r).toMatchObject({ user: { name: 'system:bootstrap:abcdef', groups: ['system:bootstrappers'] }, consumedHeaders: ['authorization'], expiresAt: NOW + 24 * 3600_000 });
    expect(lookup.asked).toEqual(['secrets/kube-system/bootstrap-token-abcdef']);
  });

  it('adds the auth-extra-groups; a token with an invalid one is not authenticated', async () => {
    const extra = 'system:bootstrappers:kubeadm:default-node-token,system:bootstrappers:worker';
    expect((await authn([tokenSecret({ 'auth-extra-groups': extra })]).authenticate(bearer(TOKEN)))?.user.groups)
      .toEqual(['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:bootstrappers:worker']);
    expect(await authn([tokenSecret({ 'auth-extra-groups': 'system:masters' })]).authenticate(bearer(TOKEN))).toBeNull();
  });

  it('does not authenticate a wrong secret, an expired token, one not for authentication, a Secret being deleted or of another type', async () => {
    expect(await authn([tokenSecret()]).authenticate(bearer('abcdef.0123456789abcdee'))).toBeNull();
    expect(await authn([tokenSecret({ expiration: '2026-03-01T11:59:59Z' })]).authenticate(bearer(TOKEN))).toBeNull();
    expect(await authn([tokenSecret({ expiration: 'soon' })]).authenticate(bearer(TOKEN))).toBeNull();
    expect(await authn([tokenSecret({ 'usage-bootstrap-authentication': '' })]).authenticate(bearer(TOKEN))).toBeNull();
    expect(await authn([tokenSecret({ 'usage-bootstrap-authentication': 'True' })]).authenticate(bearer(TOKEN))).toBeNull();
    expect(await authn([tokenSecret({}, { deleting: true })]).authenticate(bearer(TOKEN))).toBeNull();
    expect(await authn([tokenSecret({}, { type: 'Opaque' })]).authenticate(bearer(TOKEN))).toBeNull();
    expect(await authn([tokenSecret({ 'token-id': 'zzzzzz' })]).authenticate(bearer(TOKEN))).toBeNull();
    expect(await authn([]).authenticate(bearer(TOKEN))).toBeNull();
  });

  it('looks nothing up for credentials of another form', async () => {
    const lookup = secrets([tokenSecret()]);
    const a = bootstrapTokenAuthenticator({ lookup });
    expect(await a.authenticate({ headers: {} })).toBeNull();
    expect(await a.authenticate(bearer('not-a-bootstrap-token'))).toBeNull();
    expect(await a.authenticate({ headers: { authorization: `Basic ${b64('abcdef:0123456789abcdef')}` } })).toBeNull();
    expect(lookup.asked).toEqual([]);
  });

  it('a cached acceptance ends with the Secret and never outlives the expiration', async () => {
    let now = NOW;
    const list = [tokenSecret({ expiration: '2026-03-01T12:00:05Z' })];
    const lookup = (async (r, ns, name) => (r === 'secrets' ? list.find((s) => s.metadata!.name === name && ns === 'kube-system') : undefined)) as ObjectLookup;
    const cached = cachedTokenAuthenticator([bootstrapTokenAuthenticator({ lookup, now: () => now })], { audiences: [], now: () => now });
    expect((await cached.authenticate(bearer(TOKEN)))?.user.name).toBe('system:bootstrap:abcdef');
    list.pop();
    await expect(cached.authenticate(bearer(TOKEN))).rejects.toMatchObject({ code: 401 });
    list.push(tokenSecret({ expiration: '2026-03-01T12:00:05Z' }));
    expect((await cached.authenticate(bearer(TOKEN)))?.user.name).toBe('system:bootstrap:abcdef');
    now += 6_000;
    expect(await cached.authenticate(bearer(TOKEN))).toBeNull();
  });

  it('in the apiserver chain: after static tokens, a refused bootstrap-form token is a 401 and TokenReview answers for it', async () => {
    const auth = await buildAuthentication({ anonymous: true, bootstrapToken: { lookup: secrets([tokenSecret({ 'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token' })]) } });
    expect((await auth.authenticator.authenticate(bearer(TOKEN))).user).toEqual({
      name: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:authenticated'],
    });
    await expect(auth.authenticator.authenticate(bearer('abcdef.0123456789abcdee'))).rejects.toMatchObject({ code: 401, message: 'Unauthorized' });
    const review = await auth.reviewToken(TOKEN);
    expect(review.result?.user.name).toBe('system:bootstrap:abcdef');
    expect((await auth.reviewToken('abcdef.0123456789abcdee')).result).toBeNull();
    await auth.close();
  });
});
