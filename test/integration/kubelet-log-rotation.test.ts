// Container log rotation on the process runtime, as upstream's kubelet does it: a chatty container's log is rotated
// at --container-log-max-size (here 2 KiB, checked every second), older copies are gzipped, at most
// --container-log-max-files are kept; `kubectl logs -f` follows the output across the rotations, every line once and
// in order, and `kubectl logs` afterwards shows the live file as upstream's does.
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBound, eventually, pod, type ProcessNode, startProcessNode } from './kubelet-support.js';

const NODE = 'node-logs';
const LINES = 300;

describe('kubelet: container log rotation', () => {
  let n: ProcessNode;
  beforeAll(async () => {
    n = await startProcessNode(NODE, { serve: {}, containerLogMaxSizeBytes: 2048, containerLogMaxFiles: 3, containerLogMonitorMs: 1000 });
  }, 30_000);
  afterAll(() => n?.stop());

  it('rotates a chatty container\'s log and kubectl logs -f follows it across the rotations', async () => {
    // ~70 bytes a line, 300 lines over ~3 s: ~20 KiB, ten times the limit. The output starts once `kubectl logs -f`
    // is attached (it has the first line), as it reads only the live file: a rotation before it attached would
    // leave the earlier lines in a rotated file, for it as for upstream's.
    const go = `/tmp/mini-kube-chatty-${process.pid}-${Date.now()}`;
    const script = `echo attached; while [ ! -e ${go} ]; do sleep 0.05; done; i=0; while [ $i -lt ${LINES} ]; do echo "line $i $(printf '%040d' $i)"; i=$((i+1)); sleep 0.01; done; rm -f ${go}; sleep 1`;
    await createBound(n.admin, pod('chatty', { spec: { restartPolicy: 'Never', containers: [{ name: 'sh', image: 'busybox', command: ['sh', '-c', script] }] } }), NODE);
    await eventually(async () => (await n.admin.pods('default').get('chatty')).status?.phase === 'Running' || undefined, 15_000, 'chatty Running');
    const follower = spawn('kubectl', ['--kubeconfig', n.api.kubeconfig, 'logs', '-f', 'chatty'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    follower.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
    follower.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
    const exited = new Promise<number | null>((done) => follower.on('exit', done));
    await eventually(async () => out.startsWith('attached\n') || undefined, 15_000, 'kubectl logs -f attached');
    const exec = await n.api.kubectl('exec', 'chatty', '--', 'touch', go);
    expect(exec.code, exec.stderr).toBe(0);
    expect(await exited, err).toBe(0);
    const lines = out.trimEnd().split('\n').slice(1);
    expect(lines.map((l) => Number(l.split(' ')[1]))).toEqual(Array.from({ length: LINES }, (_, i) => i));

    const files = async (): Promise<string[]> => (await readdir(n.rootDir, { recursive: true })).filter((f) => /(^|\/)0\.log(\.|$)/.test(f));
    const logs = await files();
    expect(logs.filter((f) => f.endsWith('.gz')).length).toBeGreaterThanOrEqual(1);
    expect(logs.length).toBeLessThanOrEqual(3); // the live log, the latest rotated one, one compressed
    // kubectl logs shows the live file only, as upstream's: the stream's last lines (none, if it was just rotated)
    const now = (await n.api.kubectl('logs', 'chatty')).stdout;
    expect(out.endsWith(now)).toBe(true);
    expect(now).not.toContain('line 0 ');
  }, 60_000);
});
