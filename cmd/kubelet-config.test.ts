import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFlags } from './flags.js';
import { applyConfigFile, configz } from './kubelet-config.js';
import { kubeletFlags } from './kubelet.js';

describe('kubelet --config (KubeletConfiguration v1beta1)', () => {
  let dir = '';
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'kubelet-config-')); });
  afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

  const load = async (text: string, argv: string[] = []): Promise<{ v: ReturnType<typeof parseFlags<typeof kubeletFlags>>['values']; warnings: string[] }> => {
    const file = join(dir, `c${Math.random().toString(36).slice(2)}.yaml`);
    await writeFile(file, text);
    const { values, given } = parseFlags(argv, kubeletFlags);
    const warnings = await applyConfigFile(file, values, given);
    return { v: values, warnings };
  };

  it('reads the fields into the flags; a flag given on the command line wins', async () => {
    const { v, warnings } = await load(`
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
syncFrequency: 30s
fileCheckFrequency: 5s
staticPodPath: /etc/kubernetes/manifests
podCIDR: 10.244.3.0/24
maxPods: 42
evictionHard: {memory.available: 200Mi, nodefs.available: 5%}
clusterDNS: [10.96.0.10]
clusterDomain: cluster.local
readOnlyPort: 0
serializeImagePulls: false
registerNode: false
nodeStatusUpdateFrequency: 2s
nodeLeaseDurationSeconds: 20
cgroupDriver: systemd
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true, cacheTTL: 0s}
  x509: {clientCAFile: /etc/kubernetes/pki/ca.crt}
authorization:
  mode: Webhook
  webhook: {cacheAuthorizedTTL: 0s, cacheUnauthorizedTTL: 0s}
`, ['--max-pods', '7', '--cluster-domain=example.test']);
    expect(v).toMatchObject({
      'sync-frequency': '30s', 'file-check-frequency': '5s', 'pod-manifest-path': '/etc/kubernetes/manifests', 'pod-cidr': '10.244.3.0/24',
      'max-pods': 7, 'eviction-hard': 'memory.available<200Mi,nodefs.available<5%', 'cluster-dns': ['10.96.0.10'], 'cluster-domain': 'example.test',
      'serialize-image-pulls': false, 'register-node': false, 'node-status-update-frequency': '2s', 'node-lease-duration-seconds': 20,
      'client-ca-file': '/etc/kubernetes/pki/ca.crt', 'authorization-mode': 'Webhook',
      'authorization-webhook-cache-authorized-ttl': '0s', 'authorization-webhook-cache-unauthorized-ttl': '0s',
    });
    expect(warnings).toEqual(['cgroupDriver: ignored by this kubelet']);
    expect(v).toMatchObject({ 'anonymous-auth': false, 'authentication-token-webhook': true, 'authentication-token-webhook-cache-ttl': '0s' });
    const cz = configz(v).kubeletconfig as Record<string, any>;
    expect(cz).toMatchObject({
      syncFrequency: '30s', maxPods: 7, clusterDomain: 'example.test', evictionHard: { 'memory.available': '200Mi', 'nodefs.available': '5%' },
      readOnlyPort: 0, registerNode: false, nodeStatusReportFrequency: '5m0s',
      authentication: { x509: { clientCAFile: '/etc/kubernetes/pki/ca.crt' }, anonymous: { enabled: false }, webhook: { enabled: true, cacheTTL: '0s' } },
      authorization: { mode: 'Webhook', webhook: { cacheAuthorizedTTL: '0s', cacheUnauthorizedTTL: '0s' } },
    });
  });

  it('reads JSON too', async () => {
    const { v } = await load('{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","maxPods":9}');
    expect(v['max-pods']).toBe(9);
    // a configuration file's defaults: token reviews on, anonymous requests off
    expect([v['authentication-token-webhook'], v['anonymous-auth']]).toEqual([true, false]);
  });

  it('refuses unknown fields, wrong types and other kinds, with the file and field named', async () => {
    const head = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';
    await expect(load(`${head}maxPodz: 3\n`)).rejects.toThrow(/failed to load kubelet config file .*: strict decoding error: unknown field "maxPodz"/);
    await expect(load(`${head}authentication:\n  x509: {clientCaFile: x}\n`)).rejects.toThrow(/unknown field "authentication.x509.clientCaFile"/);
    await expect(load(`${head}maxPods: many\n`)).rejects.toThrow(/maxPods: must be an integer, not "many"/);
    await expect(load(`${head}syncFrequency: soon\n`)).rejects.toThrow(/syncFrequency: must be a duration/);
    await expect(load('apiVersion: v1\nkind: Pod\n')).rejects.toThrow(/expected kind KubeletConfiguration of apiVersion kubelet.config.k8s.io\/v1beta1/);
  });
});
