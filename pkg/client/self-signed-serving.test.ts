import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { selfSignedServingPair } from './self-signed-serving.js';

describe('selfSignedServingPair', () => {
  it('makes a leaf for localhost and its names, chained to a CA of its own', async () => {
    const pair = await selfSignedServingPair({ commonName: 'node-1', sans: ['node-1', '10.0.0.7'] });
    expect(pair.generatedIn).toBeUndefined();
    const [leafPem, caPem] = pair.cert.split(/(?<=-----END CERTIFICATE-----\n)/);
    const leaf = new X509Certificate(leafPem!);
    const ca = new X509Certificate(caPem!);
    expect(leaf.subject).toBe('CN=node-1');
    expect(leaf.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, DNS:node-1, IP Address:10.0.0.7');
    expect(ca.subject).toMatch(/^CN=node-1-ca@\d+$/);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.checkPrivateKey(createPrivateKey(pair.key))).toBe(true);
  });

  it('keeps the pair in its directory, made at the first call and read as it is at the next (as upstream: a pair it can read is used)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'self-signed-'));
    try {
      const certDir = join(dir, 'pki');
      const first = await selfSignedServingPair({ certDir, pairName: 'kube-scheduler' });
      expect(first.generatedIn).toEqual({ cert: join(certDir, 'kube-scheduler.crt'), key: join(certDir, 'kube-scheduler.key') });
      expect((await stat(first.generatedIn!.key)).mode & 0o777).toBe(0o600);
      const again = await selfSignedServingPair({ certDir, pairName: 'kube-scheduler' });
      expect(again).toEqual({ cert: first.cert, key: first.key });
      // whatever the files hold is used, as upstream's CanReadCertAndKey only asks whether they can be read
      await writeFile(join(certDir, 'kube-scheduler.crt'), 'mine');
      expect((await selfSignedServingPair({ certDir, pairName: 'kube-scheduler' })).cert).toBe('mine');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
