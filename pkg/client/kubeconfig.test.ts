import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { inClusterConfig, loadKubeconfig } from './kubeconfig.js';

let dir: string;
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'kc-')); });
afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const write = async (name: string, doc: unknown): Promise<string> => { const p = join(dir, name); await writeFile(p, stringify(doc)); return p; };

describe('loadKubeconfig', () => {
  it('reads the current context with embedded certificate data', async () => {
    const p = await write('config', {
      apiVersion: 'v1', kind: 'Config', 'current-context': 'mk',
      clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:6443/', 'certificate-authority-data': b64('CA') } }],
      users: [{ name: 'u', user: { 'client-certificate-data': b64('CERT'), 'client-key-data': b64('KEY') } }],
      contexts: [{ name: 'mk', context: { cluster: 'c', user: 'u', namespace: 'team' } }],
    });
    expect(await loadKubeconfig(p)).toEqual({ host: 'https://127.0.0.1:6443', caData: 'CA', certData: 'CERT', keyData: 'KEY', namespace: 'team' });
  });

  it('reads files relative to the kubeconfig, token files, insecure and a chosen context', async () => {
    await writeFile(join(dir, 'ca.crt'), 'CAFILE');
    const p = await write('config', {
      'current-context': 'a',
      clusters: [{ name: 'c', cluster: { server: 'https://h:1', 'certificate-authority': 'ca.crt' } }, { name: 'd', cluster: { server: 'https://d:2', 'insecure-skip-tls-verify': true } }],
      users: [{ name: 'u', user: { token: 'abc' } }, { name: 'v', user: { tokenFile: 'tok' } }],
      contexts: [{ name: 'a', context: { cluster: 'c', user: 'u' } }, { name: 'b', context: { cluster: 'd', user: 'v' } }],
    });
    expect(await loadKubeconfig(p)).toEqual({ host: 'https://h:1', caData: 'CAFILE', caFile: join(dir, 'ca.crt'), bearerToken: 'abc', namespace: 'default' });
    expect(await loadKubeconfig(p, { context: 'b' })).toEqual({ host: 'https://d:2', insecureSkipTLSVerify: true, bearerTokenFile: join(dir, 'tok'), namespace: 'default' });
  });

  it('merges the KUBECONFIG list, first file winning, skipping missing files', async () => {
    const a = await write('a', { 'current-context': 'x', contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }], users: [{ name: 'u', user: { token: 'first' } }] });
    const b = await write('b', { 'current-context': 'y', clusters: [{ name: 'c', cluster: { server: 'https://b:1' } }], users: [{ name: 'u', user: { token: 'second' } }] });
    const env = { KUBECONFIG: [a, join(dir, 'missing'), b].join(delimiter) };
    expect(await loadKubeconfig(undefined, { env })).toMatchObject({ host: 'https://b:1', bearerToken: 'first' });
  });

  it('refuses exec plugins and names what is missing', async () => {
    const p = await write('config', {
      'current-context': 'a', clusters: [{ name: 'c', cluster: { server: 'https://h:1' } }],
      users: [{ name: 'u', user: { exec: { command: 'aws' } } }], contexts: [{ name: 'a', context: { cluster: 'c', user: 'u' } }],
    });
    await expect(loadKubeconfig(p)).rejects.toThrow(/exec plugin/);
    await expect(loadKubeconfig(p, { context: 'zz' })).rejects.toThrow(/context "zz" not found/);
  });

  it('in-cluster config from the service-account mount', async () => {
    await writeFile(join(dir, 'ca.crt'), 'CA');
    await writeFile(join(dir, 'namespace'), 'kube-system\n');
    expect(inClusterConfig({ KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' }, dir))
      .toEqual({ host: 'https://10.0.0.1:443', caData: 'CA', bearerTokenFile: join(dir, 'token'), namespace: 'kube-system' });
    expect(() => inClusterConfig({}, dir)).toThrow(/KUBERNETES_SERVICE_HOST/);
  });
});
