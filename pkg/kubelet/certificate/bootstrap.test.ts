import { createPublicKey, X509Certificate } from 'node:crypto';
import { lstat, mkdtemp, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCa, issueCertificate, kubeconfigYaml, type CertificateAuthority } from '../../pki/index.js';
import { clientConfigStillValid, digestedName } from './bootstrap.js';
import { CertificateFileStore, pairTimestamp, privateKeyOf } from './cert-store.js';

const logger = pino({ level: 'silent' });
let dir = '';
let ca: CertificateAuthority;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kubelet-bootstrap-'));
  ca = await createCa('test-ca', 1);
});
afterAll(async () => { if (dir) await rm(dir, { recursive: true, force: true }); });

describe('client certificate store', () => {
  it('writes each pair to a timestamped file and points kubelet-client-current.pem at the newest', async () => {
    const store = new CertificateFileStore(dir);
    expect(await store.current()).toBeUndefined();
    const a = await issueCertificate(ca, { subject: { commonName: 'system:node:n1', organizations: ['system:nodes'] }, usage: 'client', days: 1 });
    const path = await store.update(a.certPem, a.keyPem, new Date(2026, 2, 1, 12, 0, 5));
    expect(path).toBe(join(dir, 'kubelet-client-current.pem'));
    expect((await lstat(path)).isSymbolicLink()).toBe(true);
    expect(await readlink(path)).toBe('kubelet-client-2026-03-01-12-00-05.pem');
    const text = (await store.current())!;
    expect(new X509Certificate(text).subject).toBe('O=system:nodes\nCN=system:node:n1');
    expect(privateKeyOf(text)?.trim()).toBe(a.keyPem.trim());
    expect(((await lstat(join(dir, 'kubelet-client-2026-03-01-12-00-05.pem'))).mode & 0o777).toString(8)).toBe('600');
    const b = await issueCertificate(ca, { subject: { commonName: 'system:node:n1', organizations: ['system:nodes'] }, usage: 'client', days: 1 });
    await store.update(b.certPem, b.keyPem, new Date(2026, 2, 1, 12, 0, 9));
    expect(privateKeyOf((await store.current())!)?.trim()).toBe(b.keyPem.trim());
    expect(pairTimestamp(new Date(2026, 0, 2, 3, 4, 5))).toBe('2026-01-02-03-04-05');
    expect(privateKeyOf('-----BEGIN EC PRIVATE KEY-----\nnot a key\n-----END EC PRIVATE KEY-----\n')).toBeUndefined();
  });
});

describe('kubeconfig still valid', () => {
  const write = async (name: string, text: string): Promise<string> => { const p = join(dir, name); await writeFile(p, text); return p; };

  it('is valid only with an unexpired client certificate and its key', async () => {
    expect(await clientConfigStillValid(join(dir, 'missing.kubeconfig'), logger)).toBe(false);
    const pair = await issueCertificate(ca, { subject: { commonName: 'system:node:n1' }, usage: 'client', days: 1 });
    const good = await write('good.kubeconfig', kubeconfigYaml({ server: 'https://127.0.0.1:1', caPem: ca.cert.toString('pem'), certPem: pair.certPem, keyPem: pair.keyPem, user: 'n1' }));
    expect(await clientConfigStillValid(good, logger)).toBe(true);
    expect(await clientConfigStillValid(good, logger, Date.now() + 2 * 24 * 3600_000)).toBe(false);
    const token = await write('token.kubeconfig', 'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1\n'
      + 'users:\n- name: u\n  user:\n    token: abcdef.0123456789abcdef\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: u\ncurrent-context: x\n');
    expect(await clientConfigStillValid(token, logger)).toBe(false);
    expect(await clientConfigStillValid(await write('junk.kubeconfig', ': not yaml : ['), logger)).toBe(false);
    // the kubelet writes a kubeconfig naming the pair file for both certificate and key
    const pairFile = await write('pair.pem', pair.certPem + pair.keyPem);
    const named = await write('named.kubeconfig', `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1\nusers:\n- name: u\n  user:\n    client-certificate: ${pairFile}\n    client-key: ${pairFile}\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: u\ncurrent-context: x\n`);
    expect(await clientConfigStillValid(named, logger)).toBe(true);
  });
});

describe('request name', () => {
  it('node-csr- and a SHA-512/256 digest of the key, subject and usages: stable for the same inputs, changed by any', async () => {
    const k = await issueCertificate(ca, { subject: { commonName: 'x' }, usage: 'client', days: 1 });
    const spki = createPublicKey(k.keyPem).export({ type: 'spki', format: 'der' });
    const name = digestedName(spki, 'system:node:n1', ['system:nodes'], ['digital signature', 'client auth']);
    expect(name).toMatch(/^node-csr-[A-Za-z0-9_-]{43}$/);
    expect(digestedName(spki, 'system:node:n1', ['system:nodes'], ['digital signature', 'client auth'])).toBe(name);
    expect(digestedName(spki, 'system:node:n2', ['system:nodes'], ['digital signature', 'client auth'])).not.toBe(name);
    expect(digestedName(spki, 'system:node:n1', ['system:nodes'], ['client auth'])).not.toBe(name);
    // the parts are delimited: moving a character between two of them changes the name
    expect(digestedName(spki, 'ab', ['c'], [])).not.toBe(digestedName(spki, 'a', ['bc'], []));
  });
});
