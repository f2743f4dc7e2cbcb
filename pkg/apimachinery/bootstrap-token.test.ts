import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types.js';
import {
  bootstrapGroups, detachedSignature, parseBootstrapToken, parseRfc3339, signingToken, tokenExpiration, tokenIdOfSecretName,
} from './bootstrap-token.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const secret = (data: Record<string, string>, name = 'bootstrap-token-abcdef', type = 'bootstrap.kubernetes.io/token'): KubeObject => ({
  apiVersion: 'v1', kind: 'Secret', type, metadata: { name, namespace: 'kube-system' },
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
});
const NOW = Date.parse('2026-03-01T12:00:00Z');

describe('bootstrap tokens', () => {
  it('parses <id>.<secret> of [a-z0-9] only, 6 and 16 long', () => {
    expect(parseBootstrapToken('abcdef.0123456789abcdef')).toEqual({ id: 'abcdef', secret: '0123456789abcdef' });
    for (const bad of ['abcdef.0123456789abcde', 'ABCDEF.0123456789abcdef', 'abcdef0123456789abcdef', 'abcdef.0123456789abcdef\n', ' abcdef.0123456789abcdef', 'a.b.c']) {
      expect(parseBootstrapToken(bad)).toBeUndefined();
    }
    expect(tokenIdOfSecretName('bootstrap-token-abc123')).toBe('abc123');
    expect(tokenIdOfSecretName('bootstrap-token-abc1234')).toBeUndefined();
  });

  it('expires at an RFC 3339 expiration; an unreadable one counts as expired; none never expires', () => {
    expect(tokenExpiration(secret({}), NOW)).toEqual({ expired: false });
    expect(tokenExpiration(secret({ expiration: '2026-03-01T12:00:01Z' }), NOW)).toEqual({ expired: false, expiresAt: NOW + 1000 });
    expect(tokenExpiration(secret({ expiration: '2026-03-01T13:00:00+01:00' }), NOW)).toEqual({ expired: true, expiresAt: NOW });
    expect(tokenExpiration(secret({ expiration: '2026-03-01T11:59:59.5Z' }), NOW).expired).toBe(true);
    for (const bad of ['tomorrow', '2026-03-02', '2026-03-02 12:00:00Z', '2026-13-02T12:00:00Z', '2026-03-02T12:00:00']) {
      expect(parseRfc3339(bad)).toBeUndefined();
      expect(tokenExpiration(secret({ expiration: bad }), NOW)).toEqual({ expired: true });
    }
  });

  it('groups: system:bootstrappers and the valid extra groups, sorted and deduplicated; an invalid one is an error', () => {
    expect(bootstrapGroups(secret({}))).toEqual(['system:bootstrappers']);
    expect(bootstrapGroups(secret({ 'auth-extra-groups': 'system:bootstrappers:z,system:bootstrappers:kubeadm:default-node-token,system:bootstrappers:z' })))
      .toEqual(['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:bootstrappers:z']);
    expect(() => bootstrapGroups(secret({ 'auth-extra-groups': 'system:masters' }))).toThrow('bootstrap group "system:masters" is invalid');
    expect(() => bootstrapGroups(secret({ 'auth-extra-groups': 'system:bootstrappers:ok,system:bootstrappers:' }))).toThrow('"system:bootstrappers:" is invalid');
  });

  it('signs detached JWS byte for byte as go-jose does for cluster-bootstrap (its published vectors)', () => {
    const content = 'Hello from the other side. I must have called a thousand times.';
    expect(detachedSignature(content, 'joshua', 'my voice is my passcode'))
      .toBe('eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8');
    expect(detachedSignature('', 'joshua', 'my voice is my passcode'))
      .toBe('eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..7Ui1ALizW4jXphVUB7xUqC9vLYLL9RZeOFfVLoB7Tgk');
    expect(detachedSignature(content, 'joshua', ''))
      .toBe('eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..UfkqvDGiIFxrMnFseDj9LYJOLNrvjW8aHhF71mvvAs8');
  });

  it('a token signs when named after its id, unexpired and marked usage-bootstrap-signing', () => {
    const good = { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-signing': 'true' };
    expect(signingToken(secret(good), NOW)).toEqual({ id: 'abcdef', secret: '0123456789abcdef' });
    expect(signingToken(secret({ ...good, 'usage-bootstrap-signing': 'yes' }), NOW)).toBeUndefined();
    expect(signingToken(secret(good, 'bootstrap-token-xyzxyz'), NOW)).toBeUndefined();
    expect(signingToken(secret(good, 'bootstrap-token-abcdef', 'Opaque'), NOW)).toBeUndefined();
    expect(signingToken(secret({ ...good, expiration: '2026-03-01T11:00:00Z' }), NOW)).toBeUndefined();
    expect(signingToken(secret({ ...good, 'token-secret': '' }), NOW)).toBeUndefined();
  });
});
