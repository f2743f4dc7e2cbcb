// OIDC: a tiny HTTPS issuer started by the test serves discovery and JWKS and signs ID tokens with jose; the apiserver
// fetches its keys with undici, accepts its tokens (username and groups claims, prefixes) and refuses forged, expired
// and foreign-audience ones with 401; a rotated key (unknown kid) makes it fetch the JWKS again.
import { createServer, type Server } from 'node:https';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCa, issueCertificate } from '../../pkg/pki/index.js';
import { kubectl, startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let issuerServer: Server;
let issuer = '';
let dir = '';
let s: TestApiServer;
let anon: Agent;
let jwksFetches = 0;
const keys: { kid: string; priv: CryptoKey; jwk: JWK }[] = [];

const newKey = async (kid: string): Promise<{ kid: string; priv: CryptoKey; jwk: JWK }> => {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  return { kid, priv: privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
};

const idToken = async (claims: Record<string, unknown>, opts: { key?: { kid: string; priv: CryptoKey }; expSeconds?: number; aud?: string } = {}): Promise<string> => {
  const key = opts.key ?? keys[0]!;
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: key.kid })
    .setIssuer(issuer).setAudience(opts.aud ?? 'mini-kube').setIssuedAt(now - 10).setExpirationTime(now + (opts.expSeconds ?? 600)).sign(key.priv);
};

const whoami = async (token: string): Promise<{ status: number; body: any }> => {
  const res = await request(`${s.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`, {
    method: 'POST', dispatcher: anon, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
  });
  return { status: res.statusCode, body: await res.body.json() };
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mini-kube-oidc-'));
  const ca = await createCa('oidc-test-ca', 1);
  const serving = await issueCertificate(ca, { subject: { commonName: 'issuer' }, usage: 'server', sans: ['127.0.0.1'], days: 1 });
  await writeFile(join(dir, 'ca.crt'), ca.cert.toString('pem'));
  keys.push(await newKey('k1'));
  issuerServer = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') {
      res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/keys`, id_token_signing_alg_values_supported: ['RS256'] }));
    } else if (req.url === '/keys') {
      jwksFetches++;
      res.end(JSON.stringify({ keys: keys.map((k) => k.jwk) }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((r) => issuerServer.listen(0, '127.0.0.1', r));
  issuer = `https://127.0.0.1:${(issuerServer.address() as { port: number }).port}`;
  s = await startTestApiServer({
    oidc: { issuerUrl: issuer, clientId: 'mini-kube', caFile: join(dir, 'ca.crt'), groupsClaim: 'groups', groupsPrefix: 'oidc:', refetchIntervalMs: 0 },
  });
  anon = new Agent({ connect: { ca: await readFile(s.pki.ca.cert, 'utf8') } });
}, 60_000);

afterAll(async () => {
  await anon?.close();
  await s?.close();
  await new Promise((r) => issuerServer?.close(r));
  await rm(dir, { recursive: true, force: true });
});

describe('OIDC authentication', () => {
  it('accepts an ID token: the sub claim prefixed with the issuer, the groups claim with the groups prefix', async () => {
    const r = await whoami(await idToken({ sub: 'alice', groups: ['dev', 'ops'] }));
    expect(r.status).toBe(201);
    expect(r.body.status.userInfo).toEqual({ username: `${issuer}#alice`, groups: ['oidc:dev', 'oidc:ops', 'system:authenticated'] });
    expect(jwksFetches).toBe(1);
  });

  it('kubectl auth whoami with the token is that user', async () => {
    const kc = join(dir, 'oidc.kubeconfig');
    await writeFile(kc, `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "${s.url}", certificate-authority: "${s.pki.ca.cert}"}}]
users: [{name: u, user: {token: "${await idToken({ sub: 'bob', groups: 'solo' })}"}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`);
    const r = await kubectl(kc, ['auth', 'whoami', '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).status.userInfo).toEqual({ username: `${issuer}#bob`, groups: ['oidc:solo', 'system:authenticated'] });
  });

  it('refuses an expired token, a token for another client and a forged one with 401', async () => {
    expect((await whoami(await idToken({ sub: 'alice' }, { expSeconds: -120 }))).status).toBe(401);
    expect((await whoami(await idToken({ sub: 'alice' }, { aud: 'someone-else' }))).status).toBe(401);
    const impostor = await newKey('k1'); // the same kid, another key
    const r = await whoami(await idToken({ sub: 'alice' }, { key: impostor }));
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', message: 'Unauthorized' });
  });

  it('fetches the JWKS again when a token names a key it does not know (rotation)', async () => {
    const before = jwksFetches;
    const k2 = await newKey('k2');
    keys.push(k2);
    const r = await whoami(await idToken({ sub: 'carol' }, { key: k2 }));
    expect(r.status).toBe(201);
    expect(r.body.status.userInfo.username).toBe(`${issuer}#carol`);
    expect(jwksFetches).toBe(before + 1);
  });

  it('TokenReview answers for OIDC tokens too', async () => {
    const r = await s.api('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { spec: { token: await idToken({ sub: 'dave' }) } });
    expect(r.body.status).toMatchObject({ authenticated: true, user: { username: `${issuer}#dave` } });
  });
});
