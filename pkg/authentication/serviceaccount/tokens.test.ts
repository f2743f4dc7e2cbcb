// Bound service-account tokens refused with upstream's validator messages (pkg/serviceaccount/claims.go).
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { algorithmOf, keyIdOf } from '../../apimachinery/legacy-service-account-token.js';
import { serviceAccountTokenValidator, tokenIssuer, type ObjectLookup } from './tokens.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const key = createPublicKey(privateKey);
const signing = { privateKey, key, alg: algorithmOf(key), kid: keyIdOf(key) };
const ISSUER = 'https://kubernetes.default.svc';

const obj = (name: string, uid: string, extra: Record<string, unknown> = {}): KubeObject => ({ metadata: { name, namespace: 'ns', uid, ...extra } });
const sa = obj('default', 'sa-1');
const pod = obj('p', 'pod-1');
const secret = obj('s', 'sec-1');

async function review(bound: { pod?: KubeObject; secret?: KubeObject }, live: KubeObject[], audiences?: string[]): Promise<string> {
  const { token } = await tokenIssuer(ISSUER, signing).issue({ audiences: ['api'], expirationSeconds: 3600, now: new Date(NOW), serviceAccount: sa, ...bound });
  const lookup: ObjectLookup = (_resource, _ns, name) => Promise.resolve(live.find((o) => o.metadata?.name === name));
  const validate = serviceAccountTokenValidator({ issuers: [ISSUER], keys: [signing], audiences: ['api'], lookup, now: () => NOW });
  return validate(token, audiences).then(() => 'ok', (e: Error) => e.message);
}

describe('bound service account tokens', () => {
  it('are invalidated when the pod or secret is gone or being deleted, and name a replacement by its UID', async () => {
    expect(await review({ pod }, [sa, pod])).toBe('ok');
    expect(await review({ pod }, [sa])).toBe('service account token has been invalidated');
    expect(await review({ pod }, [sa, obj('p', 'pod-1', { deletionTimestamp: '2025-12-31T23:00:00Z' })])).toBe('service account token has been invalidated');
    expect(await review({ pod }, [sa, obj('p', 'pod-2')])).toBe('pod UID (pod-2) does not match service account pod ref claim (pod-1)');
    expect(await review({ secret }, [sa, obj('s', 'sec-2')])).toBe('secret UID (sec-2) does not match service account secret ref claim (sec-1)');
    // the secret is checked before the pod
    expect(await review({ secret, pod }, [sa])).toBe('service account token has been invalidated');
    expect(await review({ secret, pod }, [sa, obj('s', 'sec-2')])).toBe('secret UID (sec-2) does not match service account secret ref claim (sec-1)');
  });

  it('die with their service account', async () => {
    expect(await review({}, [])).toBe('serviceaccounts "default" not found');
    expect(await review({}, [obj('default', 'sa-2')])).toBe('service account UID (sa-2) does not match claim (sa-1)');
    expect(await review({}, [obj('default', 'sa-1', { deletionTimestamp: '2025-12-31T23:00:00Z' })])).toBe('service account ns/default has been deleted');
  });

  it('word an audience mismatch as Go prints string slices', async () => {
    expect(await review({}, [sa], ['vault', 'x'])).toBe('token audiences ["api"] is invalid for the target audiences ["vault" "x"]');
  });
});
