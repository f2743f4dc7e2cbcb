// A pod's directory on a process-runtime node goes as upstream's kubelet takes its own down: its volumes (emptyDir
// data, the service-account token) once the pod has terminated, the rest (logs) once the pod is gone from the API;
// the directories of pods gone while the kubelet was down, or whose removal failed, go at start and at each sync
// period after (housekeeping). What a hostPath volume holds stays.
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../pkg/client/index.js';
import { ProcessRuntime } from '../../pkg/kubelet/index.js';
import { createBound, eventually, pod, startProcessNode, type ProcessNode } from './kubelet-support.js';

const NODE = 'node-dirs';

describe('kubelet: a deleted pod\'s directory goes, its hostPath data stays', { timeout: 60_000 }, () => {
  let n: ProcessNode;
  let dir = '';
  let rootDir = '';

  /** What a pod deleted while the kubelet was down left: an emptyDir with data, a token, a container's log. */
  const leftBehind = async (uid: string): Promise<void> => {
    const podDir = join(rootDir, 'pods', uid);
    await mkdir(join(podDir, 'volumes', 'v'), { recursive: true });
    await writeFile(join(podDir, 'volumes', 'v', 'f'), 'old data');
    await mkdir(join(podDir, 'volumes', 'kube-api-access-abcde'), { recursive: true });
    await writeFile(join(podDir, 'volumes', 'kube-api-access-abcde', 'token'), 'a.b.c');
    await mkdir(join(podDir, 'app'));
    await writeFile(join(podDir, 'app', '0.log'), 'old log\n');
  };
  const podDirs = (): Promise<string[]> => readdir(join(rootDir, 'pods')).catch(() => []);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mini-kube-pod-dirs-'));
    rootDir = join(dir, 'kubelet');
    await leftBehind('0f0e0d0c-gone-while-down');
    n = await startProcessNode(NODE, { runtimeFor: (_i, _n, hostIp) => new ProcessRuntime({ rootDir, hostIp }), syncFrequencyMs: 1_000, serve: {} });
  }, 30_000);

  afterAll(async () => {
    await n?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const get = (name: string): Promise<KubeObject> => n.admin.pods('default').get(name);
  const phase = (name: string, want: string): Promise<KubeObject> =>
    eventually(async () => { const p = await get(name); return p.status?.phase === want ? p : undefined; }, 15_000, `${name} ${want}`);
  const gone = (name: string): Promise<boolean> =>
    eventually(async () => { try { await get(name); return false; } catch { return true; } }, 15_000, `${name} gone`);

  it('removes the directory of a pod deleted while the kubelet was down, and one left behind later (housekeeping at each sync period)', async () => {
    await eventually(async () => !(await podDirs()).includes('0f0e0d0c-gone-while-down'), 15_000, 'the directory left behind removed');
    await leftBehind('1f1e1d1c-failed-before');
    await eventually(async () => !(await podDirs()).includes('1f1e1d1c-failed-before'), 10_000, 'the next one removed by housekeeping');
  });

  it('tears down a deleted pod\'s emptyDir and token, then removes its directory; the hostPath file stays', async () => {
    const host = join(dir, 'host-data');
    await createBound(n.admin, pod('with-volumes', {
      spec: {
        volumes: [{ name: 'v', emptyDir: {} }, { name: 'data', hostPath: { path: host, type: 'DirectoryOrCreate' } }],
        containers: [{
          name: 'sh', image: 'busybox',
          command: ['sh', '-c', 'echo scratch > $MINI_KUBE_ROOTFS/v/f && echo kept > $MINI_KUBE_ROOTFS/data/f && echo ready; exec sleep 60'],
          volumeMounts: [{ name: 'v', mountPath: '/v' }, { name: 'data', mountPath: '/data' }],
        }],
      },
    }), NODE);
    const running = await phase('with-volumes', 'Running');
    const podDir = join(rootDir, 'pods', running.metadata!.uid!);
    await eventually(async () => (await readFile(join(podDir, 'volumes', 'v', 'f'), 'utf8').catch(() => '')) === 'scratch\n', 10_000, 'emptyDir written');
    const token = (await readdir(join(podDir, 'volumes'))).find((v) => v.startsWith('kube-api-access-'));
    expect(token, 'the service-account token volume').toBeDefined();
    expect((await readFile(join(podDir, 'volumes', token!, 'token'), 'utf8')).split('.')).toHaveLength(3);

    await n.admin.pods('default').delete('with-volumes');
    await gone('with-volumes');
    await eventually(async () => !(await podDirs()).includes(running.metadata!.uid!), 10_000, 'the pod directory removed');
    expect(await readFile(join(host, 'f'), 'utf8')).toBe('kept\n');
  });

  it('a completed pod loses its volumes but keeps its logs until it is deleted', async () => {
    await createBound(n.admin, pod('completed', {
      spec: {
        restartPolicy: 'Never',
        volumes: [{ name: 'v', emptyDir: {} }],
        containers: [{ name: 'sh', image: 'busybox', command: ['sh', '-c', 'echo data > $MINI_KUBE_ROOTFS/v/f && echo done'], volumeMounts: [{ name: 'v', mountPath: '/v' }] }],
      },
    }), NODE);
    const done = await phase('completed', 'Succeeded');
    const podDir = join(rootDir, 'pods', done.metadata!.uid!);
    await eventually(async () => !(await readdir(podDir)).includes('volumes'), 10_000, 'the volumes torn down');
    expect(await n.admin.pods('default').logs('completed')).toBe('done\n');
    await n.admin.pods('default').delete('completed');
    await gone('completed');
    await eventually(async () => !(await podDirs()).includes(done.metadata!.uid!), 10_000, 'the pod directory removed');
  });
});
