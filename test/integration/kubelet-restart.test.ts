// A kubelet process (process runtime; pod sandboxes where possible) stopped with SIGTERM, as `systemctl stop kubelet`
// does, and started again on the same --root-dir: its containers keep running under their shims (a kubelet stopping
// does not stop them, as upstream's does not) and it finds them again: same container, same PID,
// startedAt and restartCount; logs go on; an exit that happened while it was down is reported; exec and deletion
// (SIGTERM, exit, the pod leaves the API) work on the adopted container.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledMain } from '../../cmd/package-info.js';
import { Client, type KubeObject } from '../../pkg/client/index.js';
import { sandboxesUnavailable } from '../../pkg/kubelet/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { createBound, eventually, pod, publishRootCa, writeNodeKubeconfig } from './kubelet-support.js';

const NODE = 'restart-node';
const CIDR = '10.251.19.0/24';
const sandboxed = (await sandboxesUnavailable()) === undefined;

const alive = (pid: number): boolean => { try { process.kill(pid, 0); return true; } catch { return false; } };

describe.skipIf(!existsSync(bundledMain))('kubelet restart: running containers are adopted, not restarted', () => {
  let api: TestApiServer;
  let admin: Client;
  let dir = '';
  let kubeconfig = '';
  let kubelet: ChildProcess | undefined;

  const startKubelet = (): ChildProcess => {
    const child = spawn(process.execPath, [
      bundledMain, 'kubelet', '--kubeconfig', kubeconfig, '--node-name', NODE, '--root-dir', join(dir, 'root'), '--port', '0',
      '--address', '127.0.0.1', '--node-ip', '127.0.0.1', '--node-status-update-frequency', '1s', '--eviction-hard', '',
      ...(sandboxed ? ['--pod-sandbox', 'netns', '--pod-cidr', CIDR] : ['--pod-sandbox', 'host']),
    ], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.resume();
    return child;
  };
  const exited = (child: ChildProcess): Promise<unknown> =>
    (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r)));

  beforeAll(async () => {
    api = await startTestApiServer();
    admin = await Client.fromKubeconfig(api.kubeconfig, { qps: 0 });
    dir = await mkdtemp(join(tmpdir(), 'mk-restart-'));
    await publishRootCa(api, admin);
    kubeconfig = join(dir, 'node.kubeconfig');
    await writeNodeKubeconfig(api, NODE, kubeconfig);
    kubelet = startKubelet();
  }, 30_000);

  afterAll(async () => {
    if (kubelet) { kubelet.kill('SIGTERM'); await exited(kubelet); }
    await admin?.close();
    await api?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const get = (name: string): Promise<KubeObject> => admin.pods('default').get(name);
  const status = (p: KubeObject): Record<string, any> => (p.status?.containerStatuses as Record<string, any>[])[0]!;
  const running = (name: string): Promise<KubeObject> => eventually(async () => {
    const p = await get(name);
    return p.status?.phase === 'Running' && status(p).state?.running ? p : undefined;
  }, 20_000, `${name} Running`);
  const logs = async (name: string): Promise<string> => (await api.kubectl('logs', name)).stdout;

  it('keeps the running container (same PID, startedAt, restartCount 0), reports an exit from its downtime, and deletes it gracefully', async () => {
    const flag = join(dir, 'exit-now');
    await createBound(admin, pod('loop', {
      spec: {
        terminationGracePeriodSeconds: 20,
        containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'trap "echo got TERM; exit 0" TERM; i=0; while true; do echo "tick $i"; i=$((i+1)); sleep 0.1; done'] }],
      },
    }), NODE);
    await createBound(admin, pod('oneshot', {
      spec: {
        restartPolicy: 'Never', volumes: [{ name: 'flags', hostPath: { path: dir } }],
        containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'while [ ! -e /flags/exit-now ]; do sleep 0.1; done; exit 3'], volumeMounts: [{ name: 'flags', mountPath: '/flags' }] }],
      },
    }), NODE);
    const before = await running('loop');
    await running('oneshot');
    const id = (status(before).containerID as string).replace(/^process:\/\//, '');
    const { pid } = JSON.parse(await readFile(join(dir, 'root', 'runtime', 'containers', id, 'pid.json'), 'utf8')) as { pid: number };
    const ip = before.status?.podIP as string;

    kubelet!.kill('SIGTERM');
    await exited(kubelet!);
    expect(alive(pid)).toBe(true);
    await writeFile(flag, ''); // oneshot exits while no kubelet watches
    const ticksBefore = (await readFile(join(dir, 'root', 'pods', before.metadata!.uid!, 'c', '0.log'), 'utf8')).split('\n').length;
    kubelet = startKubelet();

    const done = await eventually(async () => {
      const p = await get('oneshot');
      return p.status?.phase === 'Failed' ? p : undefined;
    }, 20_000, 'oneshot Failed');
    expect(status(done).state.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
    expect(status(done).restartCount).toBe(0);

    // the new kubelet's status writes (its node server answers logs) show the same container
    await eventually(async () => (await logs('loop')).split('\n').length > ticksBefore + 5, 20_000, 'logs after the restart');
    const after = await running('loop');
    expect(status(after).containerID).toBe(status(before).containerID);
    expect(status(after).state.running.startedAt).toBe(status(before).state.running.startedAt);
    expect(status(after).restartCount).toBe(0);
    expect(after.status?.podIP).toBe(ip);
    expect(alive(pid)).toBe(true);
    const text = await logs('loop');
    expect(text).toMatch(/^tick 0\ntick 1\n/);
    expect((await api.kubectl('exec', 'loop', '--', 'sh', '-c', 'echo "in $HOSTNAME"')).stdout).toBe('in loop\n');

    const t0 = Date.now();
    expect((await api.kubectl('delete', 'pod', 'loop', '--wait=true', '--timeout=30s')).code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(15_000); // SIGTERM ended it, not the SIGKILL after 20 s
    await eventually(async () => !alive(pid), 5_000, 'the container process gone');
    const gone = await admin.pods('default').list();
    expect(gone.items.map((p) => p.metadata!.name)).not.toContain('loop');
  }, 90_000);
});
