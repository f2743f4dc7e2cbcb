// Webhook token authentication (a tiny HTTPS TokenReview server started by the test, reached through a kubeconfig)
// and the authenticating front proxy (X-Remote-* headers believed only with the proxy's client certificate).
import { createServer, type Server } from 'node:https';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCa, issueCertificate } from '../../pkg/pki/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let dir = '';
let hook: Server;
let s: TestApiServer;
let caPem = '';
const reviews: any[] = [];
const agents: Agent[] = [];

const agent = (connect: Record<string, string> = {}): Agent => {
  const a = new Agent({ connect: { ca: caPem, ...connect } });
  agents.push(a);
  return a;
};

const whoami = async (dispatcher: Agent, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> => {
  const res = await request(`${s.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`, {
    method: 'POST', dispatcher, headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
  });
  return { status: res.statusCode, body: await res.body.json() };
};

let proxyGood: { certPem: string; keyPem: string };
let proxyOtherName: { certPem: string; keyPem: string };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mini-kube-authn-'));
  const hookCa = await createCa('webhook-ca', 1);
  const serving = await issueCertificate(hookCa, { subject: { commonName: 'webhook' }, usage: 'server', sans: ['127.0.0.1'], days: 1 });
  hook = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      const review = JSON.parse(body);
      reviews.push(review);
      const ok = review.spec.token === 'good-token';
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({
        apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview',
        status: ok ? { authenticated: true, user: { username: 'webhook-user', uid: 'w-1', groups: ['hooked'], extra: { scope: ['all'] } } }
          : { authenticated: false, error: 'unknown token' },
      }));
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  const hookUrl = `https://127.0.0.1:${(hook.address() as { port: number }).port}/authenticate`;
  await writeFile(join(dir, 'webhook.kubeconfig'), `apiVersion: v1
kind: Config
clusters: [{name: hook, cluster: {server: "${hookUrl}", certificate-authority-data: "${Buffer.from(hookCa.cert.toString('pem')).toString('base64')}"}}]
users: [{name: apiserver, user: {}}]
contexts: [{name: hook, context: {cluster: hook, user: apiserver}}]
current-context: hook
`);

  const proxyCa = await createCa('front-proxy-ca', 1);
  await writeFile(join(dir, 'front-proxy-ca.crt'), proxyCa.cert.toString('pem'));
  proxyGood = await issueCertificate(proxyCa, { subject: { commonName: 'front-proxy-client' }, usage: 'client', days: 1 });
  proxyOtherName = await issueCertificate(proxyCa, { subject: { commonName: 'someone-else' }, usage: 'client', days: 1 });

  s = await startTestApiServer({
    authenticationTokenWebhookConfigFile: join(dir, 'webhook.kubeconfig'),
    requestHeader: {
      clientCaFile: join(dir, 'front-proxy-ca.crt'), allowedNames: ['front-proxy-client'],
      usernameHeaders: ['X-Remote-User'], groupHeaders: ['X-Remote-Group'], extraHeadersPrefix: ['X-Remote-Extra-'],
    },
  });
  caPem = await readFile(s.pki.ca.cert, 'utf8');
}, 60_000);

afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
  await s?.close();
  await new Promise((r) => hook?.close(r));
  await rm(dir, { recursive: true, force: true });
});

describe('webhook token authentication', () => {
  it('accepts what the webhook accepts, as the user it names, and caches the answer', async () => {
    const a = agent();
    const r = await whoami(a, { authorization: 'Bearer good-token' });
    expect(r.status).toBe(201);
    expect(r.body.status.userInfo).toEqual({ username: 'webhook-user', uid: 'w-1', groups: ['hooked', 'system:authenticated'], extra: { scope: ['all'] } });
    expect(reviews.at(-1)).toMatchObject({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'good-token' } });
    const count = reviews.length;
    expect((await whoami(a, { authorization: 'Bearer good-token' })).status).toBe(201);
    expect(reviews.length).toBe(count);
  });

  it('refuses what the webhook refuses with 401', async () => {
    const r = await whoami(agent(), { authorization: 'Bearer bad-token' });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
  });
});

describe('authenticating front proxy', () => {
  const headers = { 'X-Remote-User': 'proxied', 'X-Remote-Group': 'g1', 'X-Remote-Extra-Acme.com%2Fproject': 'p1' };

  it('believes the headers on a connection with the proxy\'s client certificate', async () => {
    const r = await whoami(agent({ cert: proxyGood.certPem, key: proxyGood.keyPem }), headers);
    expect(r.status).toBe(201);
    expect(r.body.status.userInfo).toEqual({ username: 'proxied', groups: ['g1', 'system:authenticated'], extra: { 'acme.com/project': ['p1'] } });
  });

  it('ignores them from anyone else', async () => {
    const admin = agent({ cert: await readFile(s.pki.admin.cert, 'utf8'), key: await readFile(s.pki.admin.key, 'utf8') });
    const r = await whoami(admin, headers);
    expect(r.status).toBe(201);
    expect(r.body.status.userInfo.username).toBe('kubernetes-admin');
    // No certificate: anonymous, which may not ask who it is.
    const none = await whoami(agent(), headers);
    expect(none.status).toBe(403);
    expect(none.body.message).toContain('User "system:anonymous"');
    // The proxy's CA but a common name not allowed: refused.
    expect((await whoami(agent({ cert: proxyOtherName.certPem, key: proxyOtherName.keyPem }), headers)).status).toBe(401);
  });
});
