import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { StatusError } from '../apimachinery/errors.js';
import { createCa, ensurePki, issueCertificate, type PkiPaths } from '../pki/index.js';
import { x509Authenticator } from './x509.js';

let dir: string;
let pki: PkiPaths;
let caPem: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'authn-x509-'));
  pki = await ensurePki(dir, { nodes: ['node-1'] });
  caPem = await readFile(pki.ca.cert, 'utf8');
});
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

const peer = async (path: string) => ({ headers: {}, peerCertificate: new X509Certificate(await readFile(path)) });

describe('x509Authenticator', () => {
  it('takes CN as the user and O as the groups of a certificate the CA signed', async () => {
    const a = x509Authenticator(caPem);
    expect(await a.authenticate(await peer(pki.admin.cert))).toEqual({ user: { name: 'kubernetes-admin', groups: ['system:masters'] } });
    expect(await a.authenticate(await peer(pki.nodes['node-1']!.cert))).toEqual({ user: { name: 'system:node:node-1', groups: ['system:nodes'] } });
    expect(await a.authenticate(await peer(pki.scheduler.cert))).toEqual({ user: { name: 'system:kube-scheduler', groups: [] } });
  });

  it('keeps every organization, in order', async () => {
    const ca = await createCa('test-ca', 1);
    const leaf = await issueCertificate(ca, { subject: { commonName: 'jane', organizations: ['dev', 'ops'] }, usage: 'client', days: 1 });
    const r = await x509Authenticator(ca.cert.toString('pem')).authenticate({ headers: {}, peerCertificate: new X509Certificate(leaf.certPem) });
    expect(r?.user).toEqual({ name: 'jane', groups: ['dev', 'ops'] });
  });

  it('passes when no certificate was presented', async () => {
    expect(await x509Authenticator(caPem).authenticate({ headers: {} })).toBeNull();
  });

  it('refuses a certificate from a foreign CA with 401', async () => {
    const foreign = await createCa('mini-kube-ca', 1);
    const leaf = await issueCertificate(foreign, { subject: { commonName: 'kubernetes-admin', organizations: ['system:masters'] }, usage: 'client', days: 1 });
    const err = await x509Authenticator(caPem).authenticate({ headers: {}, peerCertificate: new X509Certificate(leaf.certPem) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).code).toBe(401);
    expect((err as StatusError).message).toContain('unknown authority');
  });

  it('refuses an expired certificate with 401', async () => {
    const ca = await createCa('test-ca', 1);
    const leaf = await issueCertificate(ca, { subject: { commonName: 'old' }, usage: 'client', days: -1 });
    await expect(x509Authenticator(ca.cert.toString('pem')).authenticate({ headers: {}, peerCertificate: new X509Certificate(leaf.certPem) }))
      .rejects.toMatchObject({ code: 401, message: expect.stringContaining('expired or is not yet valid') });
  });

  it('verifies a chain once, then answers from the cache until the chain\'s first notAfter', async () => {
    const ca = await createCa('test-ca', 1);
    const leaf = await issueCertificate(ca, { subject: { commonName: 'jane', organizations: ['dev'] }, usage: 'client', days: 1 });
    let now = Date.now();
    const a = x509Authenticator(ca.cert.toString('pem'), { now: () => now });
    const verify = vi.spyOn(X509Certificate.prototype, 'verify');
    try {
      // A fresh X509Certificate per connection, as the TLS socket hands out: the key is the DER hash, not the object.
      for (let i = 0; i < 3; i++) expect((await a.authenticate({ headers: {}, peerCertificate: new X509Certificate(leaf.certPem) }))?.user.name).toBe('jane');
      expect(verify).toHaveBeenCalledTimes(1);
      now = Date.parse(new X509Certificate(leaf.certPem).validTo) + 1;
      await expect(a.authenticate({ headers: {}, peerCertificate: new X509Certificate(leaf.certPem) }))
        .rejects.toMatchObject({ code: 401, message: expect.stringContaining('expired or is not yet valid') });
    } finally {
      verify.mockRestore();
    }
  });

  it('keeps no more chains than asked (the oldest goes first)', async () => {
    const ca = await createCa('test-ca', 1);
    const a = x509Authenticator(ca.cert.toString('pem'), { maxCached: 1 });
    const [one, two] = await Promise.all(['one', 'two'].map((commonName) => issueCertificate(ca, { subject: { commonName }, usage: 'client', days: 1 })));
    const verify = vi.spyOn(X509Certificate.prototype, 'verify');
    try {
      for (const pem of [one!.certPem, two!.certPem, one!.certPem]) await a.authenticate({ headers: {}, peerCertificate: new X509Certificate(pem) });
      expect(verify).toHaveBeenCalledTimes(3);
    } finally {
      verify.mockRestore();
    }
  });

  it('refuses a serving certificate used as a client certificate', async () => {
    await expect(x509Authenticator(caPem).authenticate(await peer(pki.apiserver.cert)))
      .rejects.toMatchObject({ code: 401, message: expect.stringContaining('incompatible key usage') });
  });

  it('accepts a chain through an intermediate CA the client sent', async () => {
    const root = await createCa('root', 1);
    const intermediate = await createCa('intermediate', 1);
    // Re-sign the intermediate's key under the root, keeping it a CA.
    const { x509 } = await import('../pki/x509.js');
    const interCert = await x509.X509CertificateGenerator.create({
      subject: intermediate.cert.subjectName, issuer: root.cert.subjectName, publicKey: intermediate.key.keys.publicKey,
      signingKey: root.key.keys.privateKey, signingAlgorithm: root.key.algorithm,
      extensions: [new x509.BasicConstraintsExtension(true, undefined, true)],
    });
    const leaf = await issueCertificate({ cert: interCert, key: intermediate.key }, { subject: { commonName: 'deep' }, usage: 'client', days: 1 });
    const a = x509Authenticator(root.cert.toString('pem'));
    const req = { headers: {}, peerCertificate: new X509Certificate(leaf.certPem) };
    await expect(a.authenticate(req)).rejects.toMatchObject({ code: 401 });
    expect((await a.authenticate({ ...req, peerIntermediates: [new X509Certificate(interCert.toString('pem'))] }))?.user.name).toBe('deep');
  });

  it('reads a bundle of several CAs', async () => {
    const other = await createCa('other', 1);
    const a = x509Authenticator(other.cert.toString('pem') + caPem);
    expect((await a.authenticate(await peer(pki.admin.cert)))?.user.name).toBe('kubernetes-admin');
    expect(() => x509Authenticator('not a pem')).toThrow('no certificate found');
  });
});
