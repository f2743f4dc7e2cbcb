// `mini-kube up --nodes 3` (process runtime): one kubelet process per node with its own certificate; the seeds'
// scenario runs real nginx processes and `kubectl logs` and `kubectl exec` reach them through the apiserver's proxy.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kubectl } from '../support/apiserver.js';
import { eventually } from './kubelet-support.js';
import { main, seedsScenario, startUp } from './kubelet-up-support.js';

describe.skipIf(!existsSync(main))('mini-kube up with the process runtime (compiled)', () => {
  it('3 kubelet processes Ready; the deployment of 3 runs; kubectl logs and exec answer', async () => {
    const kc = await startUp('--nodes', '3');
    await seedsScenario(kc);
    const pods = await kubectl(kc, ['get', 'pods', '-l', 'app=web', '-o', 'name']);
    const first = pods.stdout.trim().split('\n')[0]!;
    const logs = await eventually(async () => {
      const r = await kubectl(kc, ['logs', first]);
      return r.stdout.includes('listening') ? r.stdout : undefined;
    }, 10_000, 'nginx log');
    expect(logs).toMatch(/^nginx: listening on port \d+\n/);
    // kubectl exec runs a real command in the container's environment, through the apiserver to that node's kubelet.
    const exec = await kubectl(kc, ['exec', first, '--', 'sh', '-c', 'echo "$HOSTNAME"; exit 2']);
    expect(exec).toMatchObject({ code: 2, stdout: `${first.replace(/^pod\//, '')}\n` });
  }, 50_000);
});
