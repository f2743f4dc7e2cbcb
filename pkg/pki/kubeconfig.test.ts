import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { parse } from 'yaml';
import { writeKubeconfig } from './kubeconfig.js';

let dir: string;
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'kc-')); });
afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

it('writes an embedded, private kubeconfig with the mini-kube context current', async () => {
  const path = join(dir, 'admin.kubeconfig');
  await writeKubeconfig(path, { server: 'https://127.0.0.1:6443', caPem: 'CA', certPem: 'CERT', keyPem: 'KEY', user: 'kubernetes-admin' });
  expect((await stat(path)).mode & 0o777).toBe(0o600);
  const kc = parse(await readFile(path, 'utf8'));
  expect(kc).toMatchObject({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'mini-kube',
    clusters: [{ name: 'mini-kube', cluster: { server: 'https://127.0.0.1:6443', 'certificate-authority-data': Buffer.from('CA').toString('base64') } }],
    contexts: [{ name: 'mini-kube', context: { cluster: 'mini-kube', user: 'kubernetes-admin' } }],
    users: [{ name: 'kubernetes-admin', user: { 'client-certificate-data': Buffer.from('CERT').toString('base64'), 'client-key-data': Buffer.from('KEY').toString('base64') } }],
  });

  await writeKubeconfig(path, { server: 'https://127.0.0.1:7443', caPem: 'CA', certPem: 'CERT', keyPem: 'KEY', user: 'u', contextName: 'other' });
  const again = parse(await readFile(path, 'utf8'));
  expect(again['current-context']).toBe('other');
  expect(again.clusters[0].cluster.server).toBe('https://127.0.0.1:7443');
});
