// Users other than the admin for the authorization tests: client certificates issued by the test
// server's CA, bearer tokens from a token file, each with its own kubeconfig for the real kubectl.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { stringify } from 'yaml';
import { loadKey } from '../../pkg/pki/keys.js';
import { issueCertificate, writeKubeconfig } from '../../pkg/pki/index.js';
import { x509 } from '../../pkg/pki/x509.js';
import { kubectl, type TestApiServer } from '../support/apiserver.js';

export interface TestUser {
  kubeconfig: string;
  kubectl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

function makeUser(s: TestApiServer, kubeconfig: string, agent: Agent, headers: Record<string, string>): TestUser {
  return {
    kubeconfig,
    kubectl: (...args) => kubectl(kubeconfig, args),
    async api(method, path, body, extra = {}) {
      const res = await request(s.url + path, {
        method: method as 'GET', dispatcher: agent,
        headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...extra },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.body.text();
      let parsed: unknown = text;
      try { parsed = JSON.parse(text); } catch { /* keep the text */ }
      return { status: res.statusCode, body: parsed };
    },
    close: () => agent.close(),
  };
}

/** A user with a client certificate: CN = name, O = groups. */
export async function certificateUser(s: TestApiServer, name: string, groups: string[]): Promise<TestUser> {
  const [caPem, caKeyPem] = await Promise.all([readFile(s.pki.ca.cert, 'utf8'), readFile(s.pki.ca.key, 'utf8')]);
  const ca = { cert: new x509.X509Certificate(caPem), key: await loadKey(caKeyPem) };
  const pair = await issueCertificate(ca, { subject: { commonName: name, organizations: groups }, usage: 'client', days: 1 });
  const kubeconfig = join(s.dataDir, `${name.replace(/[^a-z0-9]/gi, '_')}.kubeconfig`);
  await writeKubeconfig(kubeconfig, { server: s.url, caPem, certPem: pair.certPem, keyPem: pair.keyPem, user: name });
  return makeUser(s, kubeconfig, new Agent({ connect: { ca: caPem, cert: pair.certPem, key: pair.keyPem } }), {});
}

/** A user that authenticates with a bearer token (listed in the server's --token-auth-file). */
export async function tokenUser(s: TestApiServer, token: string): Promise<TestUser> {
  const caPem = await readFile(s.pki.ca.cert, 'utf8');
  const kubeconfig = join(s.dataDir, `token-${token}.kubeconfig`);
  await writeFile(kubeconfig, stringify({
    apiVersion: 'v1', kind: 'Config',
    clusters: [{ name: 'c', cluster: { server: s.url, 'certificate-authority-data': Buffer.from(caPem).toString('base64') } }],
    contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
    'current-context': 'c',
    users: [{ name: 'u', user: { token } }],
  }), { mode: 0o600 });
  return makeUser(s, kubeconfig, new Agent({ connect: { ca: caPem } }), { authorization: `Bearer ${token}` });
}

/** No credential at all: system:anonymous. */
export async function anonymousUser(s: TestApiServer): Promise<TestUser> {
  const caPem = await readFile(s.pki.ca.cert, 'utf8');
  return makeUser(s, '', new Agent({ connect: { ca: caPem } }), {});
}

/** Polls until `check` holds (the aggregation runs after the write that triggers it). */
export async function eventually(check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
