// Service-account tokens end to end: `kubectl create token`, the token used over HTTPS, bound tokens dying with
// their pod, tokens dying with their account, forged and expired tokens refused, TokenReview and the OpenID documents.
import { createPrivateKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createLocalJWKSet, decodeJwt, jwtVerify, SignJWT, type JSONWebKeySet } from 'jose';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
let anon: Agent;

const whoami = async (token: string): Promise<{ status: number; body: any }> => {
  const res = await request(`${s.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`, {
    method: 'POST', dispatcher: anon,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
  });
  return { status: res.statusCode, body: await res.body.json() };
};

const createToken = async (...args: string[]): Promise<string> => {
  const r = await s.kubectl('create', 'token', ...args);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout.trim();
};

beforeAll(async () => {
  s = await startTestApiServer();
  anon = new Agent({ connect: { ca: await readFile(s.pki.ca.cert, 'utf8') } });
  expect((await s.kubectl('create', 'serviceaccount', 'robot')).code).toBe(0);
}, 60_000);

afterAll(async () => {
  await anon?.close();
  await s?.close();
});

describe('service-account tokens', () => {
  it('kubectl create token issues a JWT with upstream claims that authenticates as the account', async () => {
    const token = await createToken('robot');
    const claims = decodeJwt(token) as any;
    const sa = (await s.api('GET', '/api/v1/namespaces/default/serviceaccounts/robot')).body;
    expect(claims).toMatchObject({
      iss: 'https://kubernetes.default.svc.cluster.local',
      sub: 'system:serviceaccount:default:robot',
      aud: ['https://kubernetes.default.svc.cluster.local'],
      'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'robot', uid: sa.metadata.uid } },
    });
    expect(claims.exp - claims.iat).toBe(3600);
    expect(claims.nbf).toBe(claims.iat);
    expect(typeof claims.jti).toBe('string');
    const r = await whoami(token);
    expect(r.status).toBe(201);
    expect(r.body.status.userInfo).toMatchObject({
      username: 'system:serviceaccount:default:robot', uid: sa.metadata.uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    });
    expect(r.body.status.userInfo.extra['authentication.kubernetes.io/credential-id']).toEqual([`JTI=${claims.jti}`]);
  });

  it('honours --duration and refuses less than 10 minutes', async () => {
    const claims = decodeJwt(await createToken('robot', '--duration', '2h'));
    expect(claims.exp! - claims.iat!).toBe(7200);
    const r = await s.api('POST', '/api/v1/namespaces/default/serviceaccounts/robot/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 60 } });
    expect(r.status).toBe(422);
    expect(r.body.message).toContain('may not specify a duration less than 10 minutes');
  });

  it('answers the TokenRequest as upstream encodes it: Go field order and zero values', async () => {
    const r = await s.api('POST', '/api/v1/namespaces/default/serviceaccounts/robot/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['x'] } });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body)).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
    expect(Object.keys(r.body.metadata)).toEqual(['name', 'namespace', 'creationTimestamp']);
    expect(r.body.metadata).toMatchObject({ name: 'robot', namespace: 'default' });
    // BoundObjectRef is a pointer without omitempty: null when not bound
    expect(r.body.spec).toEqual({ audiences: ['x'], expirationSeconds: 3600, boundObjectRef: null });
    expect(Object.keys(r.body.status)).toEqual(['token', 'expirationTimestamp']);
  });

  it('answers 404 for a service account that does not exist', async () => {
    const r = await s.api('POST', '/api/v1/namespaces/default/serviceaccounts/nobody/token', { spec: {} });
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('serviceaccounts "nobody" not found');
  });

  it('refuses a token for another audience, a forged one and an expired one with 401', async () => {
    expect((await whoami(await createToken('robot', '--audience', 'vault'))).status).toBe(401);
    const token = await createToken('robot');
    const [h, p, sig] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...decodeJwt(token), sub: 'system:serviceaccount:kube-system:admin' })).toString('base64url');
    expect((await whoami(`${h}.${forged}.${sig}`)).status).toBe(401);
    const flipped = sig!.slice(0, 10) + (sig![10] === 'A' ? 'B' : 'A') + sig!.slice(11);
    expect((await whoami(`${h}.${p}.${flipped}`)).status).toBe(401);
    // Properly signed with the cluster's key, but expired (beyond the 60 s leeway).
    const key = createPrivateKey(await readFile(s.pki.serviceAccount.key, 'utf8'));
    const now = Math.floor(Date.now() / 1000);
    const claims = decodeJwt(token);
    const expired = await new SignJWT({ ...claims, iat: now - 7200, nbf: now - 7200, exp: now - 3600 })
      .setProtectedHeader({ alg: 'ES256', kid: JSON.parse(Buffer.from(h!, 'base64url').toString()).kid }).sign(key);
    const r = await whoami(expired);
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    // The same claims with a fresh expiry pass: the key is right, only the time was wrong.
    const fresh = await new SignJWT({ ...claims, exp: now + 600 }).setProtectedHeader({ alg: 'ES256', kid: JSON.parse(Buffer.from(h!, 'base64url').toString()).kid }).sign(key);
    expect((await whoami(fresh)).status).toBe(201);
  });

  it('binds a token to a pod: pod claims and extra, invalid once the pod is gone', async () => {
    expect((await s.kubectl('run', 'bound', '--image', 'nginx', '--overrides', '{"spec":{"serviceAccountName":"robot"}}')).code).toBe(0);
    const pod = (await s.api('GET', '/api/v1/namespaces/default/pods/bound')).body;
    const token = await createToken('robot', '--bound-object-kind', 'Pod', '--bound-object-name', 'bound');
    expect((decodeJwt(token) as any)['kubernetes.io'].pod).toEqual({ name: 'bound', uid: pod.metadata.uid });
    const r = await whoami(token);
    expect(r.status).toBe(201);
    expect(r.body.status.userInfo.extra).toMatchObject({ 'authentication.kubernetes.io/pod-name': ['bound'], 'authentication.kubernetes.io/pod-uid': [pod.metadata.uid] });
    const other = await s.kubectl('create', 'token', 'default', '--bound-object-kind', 'Pod', '--bound-object-name', 'bound');
    expect(other.code).not.toBe(0);
    expect((await s.api('DELETE', '/api/v1/namespaces/default/pods/bound?gracePeriodSeconds=0')).status).toBe(200);
    expect((await whoami(token)).status).toBe(401);
  });

  it('TokenReview reports the user of a good token and refuses a bad one', async () => {
    const token = await createToken('robot');
    const ok = await s.api('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } });
    expect(ok.status).toBe(201);
    expect(ok.body.status).toMatchObject({ authenticated: true, user: { username: 'system:serviceaccount:default:robot' }, audiences: ['https://kubernetes.default.svc.cluster.local'] });
    const aud = await s.api('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { spec: { token, audiences: ['vault'] } });
    expect(aud.body.status.authenticated).toBeUndefined();
    expect(aud.body.status.error).toContain('audiences');
    const bad = await s.api('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { spec: { token: 'not-a-token' } });
    expect(bad.status).toBe(201);
    expect(bad.body.status.authenticated).toBeUndefined();
  });

  it('serves the OpenID discovery document and the JWKS that verify its tokens', async () => {
    const d = await s.api('GET', '/.well-known/openid-configuration');
    expect(d.status).toBe(200);
    expect(d.body).toEqual({
      issuer: 'https://kubernetes.default.svc.cluster.local', jwks_uri: `${s.url}/openid/v1/jwks`,
      response_types_supported: ['id_token'], subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['ES256'],
    });
    const jwks = await s.api('GET', '/openid/v1/jwks');
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys[0]).toMatchObject({ use: 'sig', kty: 'EC', alg: 'ES256', crv: 'P-256' });
    const token = await createToken('robot');
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks.body as JSONWebKeySet), { issuer: 'https://kubernetes.default.svc.cluster.local' });
    expect(payload.sub).toBe('system:serviceaccount:default:robot');
    // upstream's go-restful WebServices trim a trailing slash, which the Python client adds to both paths
    expect(await s.api('GET', '/.well-known/openid-configuration/')).toMatchObject({ status: 200, body: d.body });
    expect(await s.api('GET', '/openid/v1/jwks/')).toMatchObject({ status: 200, body: jwks.body });
  });

  it('a deleted service account invalidates its tokens, even if re-created with the same name', async () => {
    expect((await s.kubectl('create', 'serviceaccount', 'doomed')).code).toBe(0);
    const token = await createToken('doomed');
    expect((await whoami(token)).status).toBe(201);
    expect((await s.kubectl('delete', 'serviceaccount', 'doomed')).code).toBe(0);
    expect((await whoami(token)).status).toBe(401);
    expect((await s.kubectl('create', 'serviceaccount', 'doomed')).code).toBe(0);
    expect((await whoami(token)).status).toBe(401);
  });
});
