// The `mini-kube` binary built from the current sources for tests that need real OS processes
// (dist/ may be stale or absent): the very bundle `npm run build` ships (build/bundle.ts), written under
// the repo's node_modules so that the packages it leaves to node (native addons) resolve as they do for dist/.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle } from '../../build/bundle.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export async function bundleMain(prefix = 'mini-kube-bin-'): Promise<{ main: string; cleanup(): Promise<void> }> {
  await mkdir(join(repo, 'node_modules/.cache'), { recursive: true });
  const dir = await mkdtemp(join(repo, 'node_modules/.cache', prefix));
  return { main: await bundle(dir), cleanup: () => rm(dir, { recursive: true, force: true }) };
}
