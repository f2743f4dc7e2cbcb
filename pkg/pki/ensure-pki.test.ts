import { X509Certificate, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { issueCertificate } from './certificates.js';
import { ensureFrontProxyPki, ensurePki } from './ensure-pki.js';
import { loadKey } from './keys.js';

let dir: string;
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'pki-')); });
afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

const cert = async (path: string): Promise<X509Certificate> => new X509Certificate(await readFile(path));

describe('ensurePki', () => {
  it('creates a CA and leaves that chain to it', async () => {
    const p = await ensurePki(join(dir, 'pki'), { nodes: ['node-1', 'node-2'] });

    const ca = await cert(p.ca.cert);
    expect(ca.ca).toBe(true);
    expect(ca.subject).toBe('CN=mini-kube-ca');
    expect(ca.verify(ca.publicKey)).toBe(true);
    const years = (Date.parse(ca.validTo) - Date.now()) / (365 * 24 * 3600 * 1000);
    expect(years).toBeGreaterThan(9.9);

    for (const pair of [p.apiserver, p.admin, p.controllerManager, p.scheduler, p.apiserverKubeletClient, p.nodes['node-1']!, p.nodes['node-2']!]) {
      const leaf = await cert(pair.cert);
      expect(leaf.checkIssued(ca)).toBe(true);
      expect(leaf.verify(ca.publicKey)).toBe(true);
      expect(leaf.ca).toBe(false);
      expect(leaf.checkPrivateKey(createPrivateKey(await readFile(pair.key)))).toBe(true);
      expect((await stat(pair.key)).mode & 0o777).toBe(0o600);
    }
    expect((await stat(p.ca.key)).mode & 0o777).toBe(0o600);
  });

  it('puts identities in CN/O and the serving names in the SANs', async () => {
    const p = await ensurePki(dir, { nodes: ['node-1'], serverSans: ['192.168.7.7'] });
    expect((await cert(p.admin.cert)).subject.split('\n').sort()).toEqual(['CN=kubernetes-admin', 'O=system:masters']);
    expect((await cert(p.controllerManager.cert)).subject).toBe('CN=system:kube-controller-manager');
    expect((await cert(p.scheduler.cert)).subject).toBe('CN=system:kube-scheduler');
    expect((await cert(p.nodes['node-1']!.cert)).subject.split('\n').sort()).toEqual(['CN=system:node:node-1', 'O=system:nodes']);
    expect((await cert(p.apiserverKubeletClient.cert)).subject).toContain('O=system:masters');
    expect((await cert(p.admin.cert)).keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);

    const serving = await cert(p.apiserver.cert);
    expect(serving.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    for (const name of ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local']) {
      expect(serving.checkHost(name)).toBe(name);
    }
    for (const ip of ['127.0.0.1', '::1', '10.96.0.1', '192.168.7.7']) expect(serving.checkIP(ip)).toBe(ip);
    expect(serving.checkHost('example.com')).toBeUndefined();
  });

  it('makes a front-proxy CA of its own and the aggregator\'s client certificate under it', async () => {
    const p = await ensurePki(dir, { nodes: [] });
    const front = await ensureFrontProxyPki(dir);
    const [frontCa, clusterCa, client] = await Promise.all([cert(front.ca.cert), cert(p.ca.cert), cert(front.client.cert)]);
    expect(frontCa.subject).toBe('CN=front-proxy-ca');
    expect(client.subject).toBe('CN=front-proxy-client');
    expect(client.checkIssued(frontCa)).toBe(true);
    expect(client.checkIssued(clusterCa)).toBe(false);
    expect(client.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(await ensureFrontProxyPki(dir)).toEqual(front);
    expect((await cert(front.client.cert)).fingerprint256).toBe(client.fingerprint256);
  });

  it('makes a service-account key pair that signs and verifies', async () => {
    const p = await ensurePki(dir, { nodes: [] });
    const key = createPrivateKey(await readFile(p.serviceAccount.key));
    const sig = sign('sha256', Buffer.from('token'), key);
    expect(verify('sha256', Buffer.from('token'), createPublicKey(await readFile(p.serviceAccount.pub)), sig)).toBe(true);
    expect((await stat(p.serviceAccount.key)).mode & 0o777).toBe(0o600);
  });

  it('never overwrites: a second run keeps every file and only adds new nodes', async () => {
    const first = await ensurePki(dir, { nodes: ['node-1'] });
    const before = await Promise.all([first.ca.cert, first.ca.key, first.admin.cert, first.nodes['node-1']!.cert, first.serviceAccount.key].map((f) => readFile(f, 'utf8')));
    const second = await ensurePki(dir, { nodes: ['node-1', 'node-2'] });
    const after = await Promise.all([second.ca.cert, second.ca.key, second.admin.cert, second.nodes['node-1']!.cert, second.serviceAccount.key].map((f) => readFile(f, 'utf8')));
    expect(after).toEqual(before);
    expect((await cert(second.nodes['node-2']!.cert)).checkIssued(await cert(second.ca.cert))).toBe(true);
  });

  it('re-certifies an existing key whose certificate was removed', async () => {
    const p = await ensurePki(dir, { nodes: [] });
    const keyBefore = await readFile(p.admin.key, 'utf8');
    await unlink(p.admin.cert);
    await ensurePki(dir, { nodes: [] });
    expect(await readFile(p.admin.key, 'utf8')).toBe(keyBefore);
    expect((await cert(p.admin.cert)).checkPrivateKey(createPrivateKey(keyBefore))).toBe(true);
  });

  it('issues a certificate near its end again, with its key and the names asked for now, and says so', async () => {
    const p = await ensurePki(dir, { nodes: [] });
    // the serving certificate as one issued 340 days ago would stand: 25 days left
    const { x509 } = await import('./x509.js');
    const ca = { cert: new x509.X509Certificate(await readFile(p.ca.cert, 'utf8')), key: await loadKey(await readFile(p.ca.key, 'utf8')) };
    const keyPem = await readFile(p.apiserver.key, 'utf8');
    const old = await issueCertificate(ca, { subject: { commonName: 'kube-apiserver' }, usage: 'server', sans: ['localhost'], days: 25, key: await loadKey(keyPem) });
    await writeFile(p.apiserver.cert, old.certPem);
    const adminBefore = await readFile(p.admin.cert, 'utf8');
    const renewed: string[] = [];
    await ensurePki(dir, { nodes: [], serverSans: ['192.168.7.7'], onRenewed: (c, expiry) => renewed.push(`${c} ${expiry}`) });
    expect(renewed).toEqual([`${p.apiserver.cert} ${new Date(new X509Certificate(old.certPem).validTo).toISOString()}`]);
    const serving = await cert(p.apiserver.cert);
    expect(Date.parse(serving.validTo) - Date.now()).toBeGreaterThan(364 * 24 * 3600 * 1000);
    expect(serving.checkPrivateKey(createPrivateKey(keyPem))).toBe(true);
    expect(serving.checkIP('192.168.7.7')).toBe('192.168.7.7');
    expect(serving.checkHost('kubernetes.default.svc')).toBe('kubernetes.default.svc');
    expect(await readFile(p.apiserver.key, 'utf8')).toBe(keyPem);
    expect(await readFile(p.admin.cert, 'utf8')).toBe(adminBefore);
  });

  it('refuses incoherent material with an error that says what to remove', async () => {
    const p = await ensurePki(dir, { nodes: [] });
    await unlink(p.scheduler.key);
    await expect(ensurePki(dir, { nodes: [] })).rejects.toThrow(`${p.scheduler.cert} exists but ${p.scheduler.key} does not`);

    const other = await ensurePki(join(dir, 'other'), { nodes: [] });
    await unlink(p.scheduler.cert);
    await writeFile(p.scheduler.cert, await readFile(other.scheduler.cert));
    await writeFile(p.scheduler.key, await readFile(other.scheduler.key));
    await expect(ensurePki(dir, { nodes: [] })).rejects.toThrow('was not issued by the cluster CA');
  });

  it('rejects node names that are not DNS-1123 subdomains', async () => {
    await expect(ensurePki(dir, { nodes: ['../evil'] })).rejects.toThrow('invalid node name "../evil"');
  });
});
