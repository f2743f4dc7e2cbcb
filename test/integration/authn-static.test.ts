// Client certificates, static bearer tokens (--token-auth-file) and HTTP Basic (--basic-auth-file) over real HTTPS:
// each accepted as the user it names, and each forged, unknown or expired credential refused with 401.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { x509 } from '../../pkg/pki/x509.js';
import { createCa, issueCertificate } from '../../pkg/pki/index.js';
import { generateKey, loadKey, privateKeyPem } from '../../pkg/pki/keys.js';
import { kubectl, startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let dir = '';
let s: TestApiServer;
let caPem = '';
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

const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mini-kube-authn-static-'));
  await writeFile(join(dir, 'tokens.csv'), 'sekrit-token,tokenuser,u-1,"dev,ops"\n');
  await writeFile(join(dir, 'passwords.csv'), 'hunter2,basicuser,u-2,"readers"\n');
  s = await startTestApiServer({ tokenAuthFile: join(dir, 'tokens.csv'), basicAuthFile: join(dir, 'passwords.csv') });
  caPem = await readFile(s.pki.ca.cert, 'utf8');
}, 60_000);

afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
  await s?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('client certificates', () => {
  it('CN is the user and O the groups', async () => {
    const r = await whoami(agent({ cert: await readFile(s.pki.admin.cert, 'utf8'), key: await readFile(s.pki.admin.key, 'utf8') }));
    expect(r.status).toBe(201);
    expect(r.body.status.userInfo).toEqual({ username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] });
  });

  it('a certificate from another CA is refused with 401', async () => {
    const rogue = await createCa('mini-kube-ca', 1); // the same name, another key
    const leaf = await issueCertificate(rogue, { subject: { commonName: 'kubernetes-admin', organizations: ['system:masters'] }, usage: 'client', days: 1 });
    const r = await whoami(agent({ cert: leaf.certPem, key: leaf.keyPem }));
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401, message: 'Unauthorized' });
  });

  it('an expired certificate from the cluster CA is refused with 401', async () => {
    const caKey = await readFile(join(s.pki.dir, 'ca.key'), 'utf8');
    const ca = { cert: new x509.X509Certificate(caPem), key: await loadKey(caKey) };
    const k = await generateKey();
    const expired = await x509.X509CertificateGenerator.create({
      serialNumber: '0a1b2c', subject: 'CN=kubernetes-admin, O=system:masters', issuer: ca.cert.subject,
      notBefore: new Date(Date.now() - 3 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000),
      signingAlgorithm: ca.key.algorithm, publicKey: k.keys.publicKey, signingKey: ca.key.keys.privateKey,
    });
    const r = await whoami(agent({ cert: expired.toString('pem'), key: await privateKeyPem(k.keys.privateKey) }));
    expect(r.status).toBe(401);
  });
});

describe('static tokens and passwords', () => {
  it('a token of the file is its user', async () => {
    const r = await whoami(agent(), { authorization: 'Bearer sekrit-token' });
    expect(r.status).toBe(201);
    expect(r.body.status.userInfo).toEqual({ username: 'tokenuser', uid: 'u-1', groups: ['dev', 'ops', 'system:authenticated'] });
  });

  it('an unknown token is refused with 401, not treated as anonymous', async () => {
    expect((await whoami(agent(), { authorization: 'Bearer sekrit-tokeN' })).status).toBe(401);
  });

  it('HTTP Basic with the right password is its user, a wrong one 401', async () => {
    const ok = await whoami(agent(), { authorization: basic('basicuser', 'hunter2') });
    expect(ok.status).toBe(201);
    expect(ok.body.status.userInfo).toEqual({ username: 'basicuser', uid: 'u-2', groups: ['readers', 'system:authenticated'] });
    expect((await whoami(agent(), { authorization: basic('basicuser', 'hunter3') })).status).toBe(401);
    expect((await whoami(agent(), { authorization: basic('nobody', 'hunter2') })).status).toBe(401);
  });

  it('kubectl with the token (and no certificate) is that user', async () => {
    const kc = join(dir, 'token.kubeconfig');
    await writeFile(kc, `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "${s.url}", certificate-authority: "${s.pki.ca.cert}"}}]
users: [{name: u, user: {token: sekrit-token}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`);
    const r = await kubectl(kc, ['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}']);
    expect(r.stdout).toBe('tokenuser');
  });
});
