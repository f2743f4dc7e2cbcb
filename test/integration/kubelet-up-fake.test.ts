// `mini-kube up --nodes 3 --runtime fake`: one kubelet process simulates the three nodes; the seeds' scenario runs.
import { existsSync } from 'node:fs';
import { describe, it } from 'vitest';
import { main, seedsScenario, startUp } from './kubelet-up-support.js';

describe.skipIf(!existsSync(main))('mini-kube up with the fake runtime (compiled)', () => {
  it('3 simulated nodes Ready; the deployment of 3 runs', async () => {
    await seedsScenario(await startUp('--nodes', '3', '--runtime', 'fake'));
  }, 50_000);
});
