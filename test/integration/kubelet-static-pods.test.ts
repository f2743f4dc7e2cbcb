// Static pods: a manifest in --pod-manifest-path runs on the kubelet (process runtime, node credentials) and is
// mirrored in the API; the real kubectl sees the mirror pod, its status and logs; deleting the mirror makes it again
// without restarting the pod; editing the manifest replaces the pod; removing the file stops it and the mirror goes.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type KubeObject } from '../../pkg/client/index.js';
import { ProcessRuntime } from '../../pkg/kubelet/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { eventually, nodeClient, startKubelet, type RunningKubelet } from './kubelet-support.js';

const NODE = 'node-static';
const MIRROR = `web-${NODE}`;

const manifest = (greeting: string): string => `
apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: {tier: control-plane}
spec:
  terminationGracePeriodSeconds: 2
  containers:
  - name: sh
    image: busybox
    command: [sh, -c, 'echo ${greeting}; trap "exit 0" TERM; while true; do sleep 0.2; done']
`;

describe('kubelet: static pods and their mirror pods', { timeout: 90_000 }, () => {
  let api: TestApiServer;
  let admin: Client;
  let kubelet: RunningKubelet;
  let dir = '';
  let manifests = '';

  beforeAll(async () => {
    api = await startTestApiServer();
    admin = await Client.fromKubeconfig(api.kubeconfig, { qps: 0 });
    dir = await mkdtemp(join(tmpdir(), 'mini-kube-static-'));
    manifests = join(dir, 'manifests');
    await mkdir(manifests);
    await writeFile(join(manifests, 'web.yaml'), manifest('hello from a static pod'));
    await writeFile(join(manifests, '.hidden.yaml'), manifest('ignored'));
    await writeFile(join(manifests, 'broken.yaml'), 'kind: Deployment\n');
    kubelet = startKubelet(await nodeClient(api, NODE), [NODE], {
      nodeIpFor: () => '127.0.0.1',
      runtimeFor: (_i, _n, hostIp) => new ProcessRuntime({ rootDir: join(dir, 'kubelet'), hostIp }),
      server: { clientCa: await readFile(api.pki.ca.cert, 'utf8'), port: 0, address: '127.0.0.1' },
      staticPodPath: manifests, fileCheckFrequencyMs: 1_000,
    });
    await kubelet.host.whenRegistered();
  }, 60_000);

  afterAll(async () => {
    await kubelet?.stop();
    await admin?.close();
    await api?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const mirror = (pred: (p: KubeObject) => boolean, what: string): Promise<KubeObject> =>
    eventually(async () => { const p = await admin.pods('default').get(MIRROR); return pred(p) ? p : undefined; }, 20_000, what);

  it('runs the manifest and mirrors it: kubectl get/logs show the mirror pod', async () => {
    const m = await mirror((p) => p.status?.phase === 'Running', 'mirror pod Running');
    const hash = m.metadata!.annotations!['kubernetes.io/config.hash'];
    expect(hash).toMatch(/^[0-9a-f]{32}$/);
    expect(m.metadata?.annotations).toMatchObject({ 'kubernetes.io/config.mirror': hash, 'kubernetes.io/config.source': 'file' });
    const node = await admin.nodes().get(NODE);
    expect(m.metadata?.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Node', name: NODE, uid: node.metadata!.uid, controller: true }]);
    expect(m.spec?.nodeName).toBe(NODE);
    expect(m.spec?.tolerations).toEqual(expect.arrayContaining([{ operator: 'Exists', effect: 'NoExecute' }]));
    const got = await api.kubectl('get', 'pods', '--no-headers');
    expect(got.stdout.trim().split('\n').map((l) => l.split(/\s+/)[0])).toEqual([MIRROR]);
    const logs = await eventually(async () => { const r = await api.kubectl('logs', MIRROR); return r.stdout.includes('hello') ? r.stdout : undefined; }, 10_000, 'logs');
    expect(logs).toBe('hello from a static pod\n');
  });

  it('makes a deleted mirror pod again, without restarting the static pod', async () => {
    const before = await mirror((p) => p.status?.phase === 'Running', 'mirror Running');
    const containerId = (before.status?.containerStatuses as any[])[0].containerID as string;
    // --wait=false: kubectl's wait can miss a deletion when a pod of the same name comes back at once (upstream too)
    const del = await api.kubectl('delete', 'pod', MIRROR, '--wait=false');
    expect(del.code, del.stderr).toBe(0);
    const after = await mirror((p) => p.metadata!.uid !== before.metadata!.uid && p.status?.phase === 'Running', 'a new mirror pod');
    expect(after.metadata?.annotations?.['kubernetes.io/config.mirror']).toBe(before.metadata?.annotations?.['kubernetes.io/config.mirror']);
    expect((after.status?.containerStatuses as any[])[0]).toMatchObject({ containerID: containerId, restartCount: 0 });
  });

  it('replaces the pod when its manifest changes, and stops it when the file is removed', async () => {
    const before = await mirror((p) => p.status?.phase === 'Running', 'mirror Running');
    await writeFile(join(manifests, 'web.yaml'), manifest('second edition'));
    const edited = await mirror((p) => p.metadata?.annotations?.['kubernetes.io/config.mirror'] !== before.metadata?.annotations?.['kubernetes.io/config.mirror'] && p.status?.phase === 'Running', 'mirror of the new manifest');
    expect(edited.metadata?.annotations?.['kubernetes.io/config.mirror']).toBe(edited.metadata?.annotations?.['kubernetes.io/config.hash']);
    await eventually(async () => (await api.kubectl('logs', MIRROR)).stdout === 'second edition\n', 15_000, 'logs of the new pod');

    await rm(join(manifests, 'web.yaml'));
    await eventually(async () => { try { await admin.pods('default').get(MIRROR); return false; } catch { return true; } }, 20_000, 'mirror pod deleted');
    await eventually(async () => kubelet.host.kubelets.get(NODE)!.pods().length === 0, 15_000, 'static pod stopped');
  });
});
