// `mini-kube kubelet --config FILE` as a process: the KubeletConfiguration's fields take effect (the Node's pod
// capacity, its Lease's duration, the server's authorization mode), a flag on the command line wins over the file,
// /configz answers with the effective configuration, and a file with an unknown field stops the kubelet (exit 2).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledMain } from '../../cmd/package-info.js';
import { Client, Resources } from '../../pkg/client/index.js';
import { issueCertificate } from '../../pkg/pki/index.js';
import { loadKey } from '../../pkg/pki/keys.js';
import { x509 } from '../../pkg/pki/x509.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { condition, eventually, writeNodeKubeconfig } from './kubelet-support.js';

const NODE = 'config-node';
const HEAD = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';

describe.skipIf(!existsSync(bundledMain))('kubelet --config', () => {
  let api: TestApiServer;
  let admin: Client;
  let dir = '';
  let kubeconfig = '';
  const children: ChildProcess[] = [];

  const kubelet = (...args: string[]): { child: ChildProcess; stderr: () => string; exit: Promise<number | null> } => {
    const child = spawn(process.execPath, [bundledMain, 'kubelet', '--kubeconfig', kubeconfig, '--node-name', NODE, '--runtime', 'fake',
      '--root-dir', join(dir, 'root'), '--address', '127.0.0.1', '--node-ip', '127.0.0.1', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    let err = '';
    child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
    return { child, stderr: () => err, exit: new Promise((r) => child.once('exit', (code) => r(code))) };
  };

  beforeAll(async () => {
    api = await startTestApiServer();
    admin = await Client.fromKubeconfig(api.kubeconfig, { qps: 0 });
    dir = await mkdtemp(join(tmpdir(), 'mk-kubelet-config-'));
    kubeconfig = join(dir, 'node.kubeconfig');
    await writeNodeKubeconfig(api, NODE, kubeconfig);
  }, 30_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) { c.kill('SIGTERM'); await new Promise((r) => c.once('exit', r)); }
    await admin?.close();
    await api?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('applies the file, lets flags win, and serves the effective configuration on /configz', async () => {
    const file = join(dir, 'kubelet.yaml');
    await writeFile(file, `${HEAD}port: 0\nmaxPods: 17\nnodeLeaseDurationSeconds: 20\nclusterDomain: cluster.local\ncgroupDriver: systemd\n`
      + 'authorization:\n  mode: AlwaysAllow\n');
    const k = kubelet('--config', file, '--max-pods', '23');
    const node = await eventually(async () => {
      const n = await admin.nodes().get(NODE);
      return condition(n, 'Ready')?.status === 'True' ? n : undefined;
    }, 20_000, 'node Ready');
    expect((node.status?.capacity as Record<string, string>).pods).toBe('23');
    const lease = await eventually(() => admin.resource(Resources.leases, 'kube-node-lease').get(NODE), 10_000, 'the node Lease');
    expect(lease.spec?.leaseDurationSeconds).toBe(20);
    expect(k.stderr()).toContain('cgroupDriver: ignored by this kubelet');

    // AlwaysAllow: any certificate of the cluster CA may read it, no SubjectAccessReview asked
    const port = (node.status?.daemonEndpoints as { kubeletEndpoint: { Port: number } }).kubeletEndpoint.Port;
    const [caPem, caKey] = await Promise.all([api.pki.ca.cert, api.pki.ca.key].map((p) => readFile(p, 'utf8')));
    const jane = await issueCertificate({ cert: new x509.X509Certificate(caPem!), key: await loadKey(caKey!) }, { subject: { commonName: 'jane' }, usage: 'client', days: 1 });
    const agent = new Agent({ connect: { cert: jane.certPem, key: jane.keyPem, rejectUnauthorized: false } });
    try {
      const res = await request(`https://127.0.0.1:${port}/configz`, { dispatcher: agent });
      expect(res.statusCode).toBe(200);
      const body = await res.body.json() as { kubeletconfig: Record<string, any> };
      expect(body.kubeletconfig).toMatchObject({
        maxPods: 23, nodeLeaseDurationSeconds: 20, clusterDomain: 'cluster.local', readOnlyPort: 0, syncFrequency: '1m0s',
        registerNode: true, authorization: { mode: 'AlwaysAllow', webhook: { cacheAuthorizedTTL: '5m0s', cacheUnauthorizedTTL: '30s' } },
        authentication: { anonymous: { enabled: false }, webhook: { enabled: true, cacheTTL: '2m0s' } },
      });
      // a configuration file's defaults: no anonymous requests
      const none = new Agent({ connect: { rejectUnauthorized: false } });
      expect((await request(`https://127.0.0.1:${port}/pods`, { dispatcher: none })).statusCode).toBe(401);
      await none.close();
    } finally {
      await agent.close();
    }
    k.child.kill('SIGTERM');
    expect(await k.exit).toBe(0);
  }, 40_000);

  it('without a configuration file, takes anonymous requests as upstream\'s flags do (--anonymous-auth defaults to true)', async () => {
    const k = kubelet('--port', '0', '--authorization-mode', 'AlwaysAllow');
    // this kubelet's port, from its log (the Node may still show the previous kubelet's for a moment)
    const port = await eventually(async () => Number(/"port":(\d+),[^\n]*"msg":"kubelet server listening"/.exec(k.stderr())?.[1]) || undefined, 20_000, 'the kubelet server');
    const none = new Agent({ connect: { rejectUnauthorized: false } });
    await eventually(async () => (await request(`https://127.0.0.1:${port}/pods`, { dispatcher: none }).catch(() => undefined))?.statusCode === 200, 10_000, 'an anonymous GET /pods');
    await none.close();
    k.child.kill('SIGTERM');
    expect(await k.exit).toBe(0);
  }, 40_000);

  it('refuses an unknown field and a read-only port (exit 2, the reason on stderr)', async () => {
    const file = join(dir, 'bad.yaml');
    await writeFile(file, `${HEAD}maxPods: 3\nbogus: true\n`);
    const bad = kubelet('--config', file);
    expect(await bad.exit).toBe(2);
    expect(bad.stderr()).toContain(`Error: failed to load kubelet config file ${file}: strict decoding error: unknown field "bogus"`);
    await writeFile(file, `${HEAD}readOnlyPort: 10255\n`);
    const ro = kubelet('--config', file);
    expect(await ro.exit).toBe(2);
    expect(ro.stderr()).toContain('--read-only-port 10255: the read-only port is not served (0 only)');
  }, 20_000);
});
