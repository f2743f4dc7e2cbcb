// --service-account-max-token-expiration and --service-account-extend-token-expiration: how long a TokenRequest's
// token lives (the kubelet's projected 3607-s pod tokens are issued for a year with a warn-after time, unless turned off);
// --external-hostname: the host of the issuer discovery's default jwks_uri.
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

const running: TestApiServer[] = [];
afterAll(async () => { for (const s of running) await s.close(); });

const lifetime = (token: string): { seconds: number; warnafter?: number } => {
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number; iat: number; 'kubernetes.io'?: { warnafter?: number } };
  const warn = claims['kubernetes.io']?.warnafter;
  return { seconds: claims.exp - claims.iat, ...(warn ? { warnafter: warn - claims.iat } : {}) };
};

async function tokens(o: Parameters<typeof startTestApiServer>[0]): Promise<{ podBound: ReturnType<typeof lifetime>; tenHours: ReturnType<typeof lifetime> }> {
  const s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'], ...o });
  running.push(s);
  const pod = await s.api('POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
  expect(pod.status).toBe(201);
  const request = (expirationSeconds: number, bound: boolean) => s.api('POST', '/api/v1/namespaces/default/serviceaccounts/default/token', {
    apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest',
    spec: { expirationSeconds, ...(bound ? { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p', uid: pod.body.metadata.uid } } : {}) },
  });
  const [a, b] = await Promise.all([request(3607, true), request(36_000, false)]);
  expect([a.status, b.status]).toEqual([201, 201]);
  return { podBound: lifetime(a.body.status.token), tenHours: lifetime(b.body.status.token) };
}

describe('service account token lifetimes', () => {
  it('by default extends pod-bound 3607-s tokens to a year, warning after 3607 s', async () => {
    expect(await tokens({})).toEqual({ podBound: { seconds: 365 * 24 * 3600, warnafter: 3607 }, tenHours: { seconds: 36_000 } });
  });

  it('--service-account-extend-token-expiration=false and --service-account-max-token-expiration=1h', async () => {
    expect(await tokens({ serviceAccountExtendTokenExpiration: false, serviceAccountMaxTokenExpirationSeconds: 3600 }))
      .toEqual({ podBound: { seconds: 3600 }, tenHours: { seconds: 3600 } });
  });

  it('--external-hostname names the default jwks_uri\'s host', async () => {
    const s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'], controllers: [], externalHostname: 'api.example.com' });
    running.push(s);
    expect((await s.api('GET', '/.well-known/openid-configuration')).body.jwks_uri).toBe('https://api.example.com/openid/v1/jwks');
  });
});
