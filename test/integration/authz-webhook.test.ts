// Webhook authorization with the real kubectl: a SubjectAccessReview server started by the test (HTTPS, reached
// through a kubeconfig) sits between Node and RBAC. Its allow allows, its deny decides even where RBAC would allow,
// no opinion falls through to RBAC, a failing webhook is no opinion, and answers are cached.
import { createServer, type Server } from 'node:https';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCa, issueCertificate } from '../../pkg/pki/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { tokenUser, type TestUser } from './authz-support.js';

let s: TestApiServer;
let hook: Server;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
const reviews: any[] = [];

/** alice: pods yes, secrets never; carol: the webhook fails; everyone else: no opinion. */
const answer = (spec: any): { code: number; status?: Record<string, unknown> } => {
  const r = spec.resourceAttributes ?? {};
  if (spec.user === 'carol') return { code: 500 };
  if (spec.user === 'alice' && r.resource === 'pods') return { code: 200, status: { allowed: true, reason: 'alice may see pods' } };
  if (spec.user === 'alice' && r.resource === 'secrets') return { code: 200, status: { allowed: false, denied: true, reason: 'secrets are off limits' } };
  return { code: 200, status: { allowed: false } };
};

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mini-kube-authz-webhook-'));
  const ca = await createCa('authz-webhook-ca', 1);
  const serving = await issueCertificate(ca, { subject: { commonName: 'authz-webhook' }, usage: 'server', sans: ['127.0.0.1'], days: 1 });
  hook = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      const review = JSON.parse(body);
      reviews.push(review);
      const a = answer(review.spec);
      res.statusCode = a.code;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'SubjectAccessReview', status: a.status }));
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  const url = `https://127.0.0.1:${(hook.address() as { port: number }).port}/authorize`;
  const authorizationWebhookConfigFile = join(dir, 'authz-webhook.kubeconfig');
  await writeFile(authorizationWebhookConfigFile, `apiVersion: v1
kind: Config
clusters: [{name: hook, cluster: {server: "${url}", certificate-authority-data: "${Buffer.from(ca.cert.toString('pem')).toString('base64')}"}}]
users: [{name: apiserver, user: {}}]
contexts: [{name: hook, context: {cluster: hook, user: apiserver}}]
current-context: hook
`);
  const tokenAuthFile = join(dir, 'tokens.csv');
  await writeFile(tokenAuthFile, 'alice-token,alice,a-1,"team-a"\nbob-token,bob,b-1\ncarol-token,carol,c-1\n');
  s = await startTestApiServer({ dataDir: dir, tokenAuthFile, authorizationModes: ['Node', 'Webhook', 'RBAC'], authorizationWebhookConfigFile });
  [alice, bob, carol] = await Promise.all(['alice-token', 'bob-token', 'carol-token'].map((t) => tokenUser(s, t)));
  // RBAC alone would let alice and bob edit the default namespace.
  for (const u of ['alice', 'bob']) expect((await s.kubectl('create', 'rolebinding', `${u}-edit`, '--clusterrole=edit', `--user=${u}`)).code).toBe(0);
}, 60_000);

afterAll(async () => {
  await Promise.all([alice?.close(), bob?.close(), carol?.close()]);
  await s?.close();
  await new Promise((r) => hook?.close(r));
});

describe('webhook authorization', () => {
  it('asks with a SubjectAccessReview v1 carrying the user and the request\'s attributes', async () => {
    expect((await alice.kubectl('get', 'pods', '-n', 'kube-system')).code).toBe(0);
    expect(reviews.find((r) => r.spec.user === 'alice' && r.spec.resourceAttributes?.namespace === 'kube-system')).toEqual({
      apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
      spec: {
        user: 'alice', uid: 'a-1', groups: ['team-a', 'system:authenticated'],
        resourceAttributes: { namespace: 'kube-system', verb: 'list', version: 'v1', resource: 'pods' },
      },
    });
  });

  it('lets a deny decide even where RBAC would allow, with the webhook\'s reason', async () => {
    const r = await alice.kubectl('get', 'secrets');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "default": secrets are off limits');
    expect((await alice.kubectl('auth', 'can-i', 'list', 'secrets')).stdout.trim()).toBe('no - secrets are off limits');
  });

  it('falls through to RBAC on no opinion', async () => {
    expect((await bob.kubectl('get', 'secrets')).code).toBe(0);
    const r = await bob.kubectl('get', 'secrets', '-n', 'kube-system');
    expect(r.stderr).toContain('User "bob" cannot list resource "secrets" in API group "" in the namespace "kube-system"');
  });

  it('has no opinion when the webhook fails', async () => {
    const r = await carol.kubectl('get', 'configmaps');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('User "carol" cannot list resource "configmaps"');
    expect(reviews.some((x) => x.spec.user === 'carol')).toBe(true);
  });

  it('caches answers: the same question is not asked again', async () => {
    expect((await alice.kubectl('get', 'pods', '-n', 'default')).code).toBe(0);
    const asked = reviews.length;
    for (let i = 0; i < 3; i++) expect((await alice.kubectl('get', 'pods', '-n', 'default')).code).toBe(0);
    const same = (r: any): boolean => r.spec.user === 'alice' && r.spec.resourceAttributes?.resource === 'pods' && r.spec.resourceAttributes?.namespace === 'default';
    expect(reviews.slice(asked).filter(same)).toEqual([]);
    // Denials are cached too (30 s by default).
    await alice.kubectl('get', 'secrets');
    const denied = reviews.length;
    await alice.kubectl('get', 'secrets');
    expect(reviews.slice(denied).filter((r) => r.spec.resourceAttributes?.resource === 'secrets')).toEqual([]);
  });
});
