import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../memory/store.js';
import { parseEncryptionConfiguration } from './config.js';
import { transformersOf } from './providers.js';
import { encryptingStore } from './store.js';

const secret = (n = 32): string => randomBytes(n).toString('base64');

describe('encryption providers', () => {
  it('aescbc and aesgcm round-trip with upstream prefixes; aesgcm binds the storage key', () => {
    for (const kind of ['aescbc', 'aesgcm'] as const) {
      for (const size of [16, 24, 32]) {
        const [t] = transformersOf({ [kind]: { keys: [{ name: 'k', secret: secret(size) }] } });
        expect(t!.prefix).toBe(`k8s:enc:${kind}:v1:k:`);
        const sealed = t!.encrypt(Buffer.from('hello'), '/registry/secrets/a/b');
        expect(sealed.includes('hello')).toBe(false);
        expect(t!.decrypt(sealed, '/registry/secrets/a/b').toString()).toBe('hello');
      }
    }
    const [gcm] = transformersOf({ aesgcm: { keys: [{ name: 'k', secret: secret() }] } });
    const sealed = gcm!.encrypt(Buffer.from('hello'), '/registry/secrets/a/b');
    expect(() => gcm!.decrypt(sealed, '/registry/secrets/a/other')).toThrow();
  });

  it('secretbox round-trips with upstream\'s prefix and layout: 24-byte nonce, 16-byte tag, ciphertext', () => {
    const [t, old] = transformersOf({ secretbox: { keys: [{ name: 'sb', secret: secret(32) }, { name: 'old', secret: secret(32) }] } });
    expect(t!.prefix).toBe('k8s:enc:secretbox:v1:sb:');
    expect(old!.prefix).toBe('k8s:enc:secretbox:v1:old:');
    const sealed = t!.encrypt(Buffer.from('hello'), '/registry/secrets/a/b');
    expect(sealed.length).toBe(24 + 16 + 5);
    expect(sealed.includes('hello')).toBe(false);
    expect(t!.decrypt(sealed, '/registry/secrets/a/b').toString()).toBe('hello');
    expect(() => old!.decrypt(sealed, '/registry/secrets/a/b')).toThrow();
    sealed[30]! ^= 1;
    expect(() => t!.decrypt(sealed, '/registry/secrets/a/b')).toThrow();
    expect(() => transformersOf({ secretbox: { keys: [{ name: 'k', secret: secret(16) }] } })).toThrow(/32 byte key, got 16/);
  });

  it('refuses what it cannot do', () => {
    expect(() => transformersOf({ secretbox: { keys: [] } })).toThrow(/secretbox: at least one key/);
    expect(() => transformersOf({ aescbc: { keys: [] } })).toThrow(/at least one key/);
    expect(() => transformersOf({ kms: {} })).toThrow(/not supported/);
    expect(() => transformersOf({ aescbc: { keys: [{ name: 'k', secret: secret() }] }, identity: {} })).toThrow(/exactly one/);
  });

  it('matches resources by name, group and wildcard', () => {
    const known = [{ group: '', plural: 'secrets' }, { group: '', plural: 'configmaps' }, { group: 'apps', plural: 'deployments' }];
    const rules = parseEncryptionConfiguration(`apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
- resources: [secrets, "*.apps"]
  providers: [{identity: {}}]
- resources: ["*.*"]
  providers: [{identity: {}}]
`, known);
    expect(rules[0]!.prefixes).toEqual(['/registry/secrets/', '/registry/apps/deployments/']);
    expect(rules[1]!.prefixes).toEqual(['/registry/secrets/', '/registry/configmaps/', '/registry/apps/deployments/']);
  });

  it('wraps a store: envelopes inside, plain objects outside, watch events decrypted', async () => {
    const inner = createMemoryStore();
    const [t] = transformersOf({ aesgcm: { keys: [{ name: 'k', secret: secret() }] } });
    const store = encryptingStore(inner, [{ prefixes: ['/registry/secrets/'], transformers: [t!] }]);
    const events: unknown[] = [];
    const ac = new AbortController();
    store.watch('/registry/secrets/', { fromRevision: 0, signal: ac.signal }, { onEvent: (ev) => events.push(ev.kv.object.data), onClose: () => {} });
    const kv = await store.create('/registry/secrets/ns/a', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'a' }, data: { x: 'eQ==' } });
    expect(kv.object).toMatchObject({ metadata: { name: 'a', resourceVersion: String(kv.modRevision) }, data: { x: 'eQ==' } });
    expect(JSON.parse(kv.bytes.toString())).toEqual(kv.object);
    const raw = await inner.get('/registry/secrets/ns/a');
    expect(JSON.stringify(raw!.object)).not.toContain('eQ==');
    const same = await store.guaranteedUpdate('/registry/secrets/ns/a', (cur) => cur!.object);
    expect(same.modRevision).toBe(kv.modRevision);
    await store.guaranteedUpdate('/registry/secrets/ns/a', (cur) => ({ ...cur!.object, data: { x: 'eg==' } }));
    expect((await store.get('/registry/secrets/ns/a'))!.object.data).toEqual({ x: 'eg==' });
    await new Promise((r) => setTimeout(r, 20));
    expect(events).toEqual([{ x: 'eQ==' }, { x: 'eg==' }]);
    ac.abort();
    await store.close();
  });
});
