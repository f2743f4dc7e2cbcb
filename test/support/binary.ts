// The `mini-kube` binary built from the current sources for tests that need real OS processes
// (dist/ may be stale or absent): bundled with every package left external, written under the
// repo's node_modules so that those packages resolve as they do for dist/.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export async function bundleMain(prefix = 'mini-kube-bin-'): Promise<{ main: string; cleanup(): Promise<void> }> {
  await mkdir(join(repo, 'node_modules/.cache'), { recursive: true });
  const dir = await mkdtemp(join(repo, 'node_modules/.cache', prefix));
  await build({
    input: join(repo, 'cmd/main.ts'),
    platform: 'node',
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'),
    output: { dir, format: 'esm', entryFileNames: 'main.mjs' },
    logLevel: 'silent',
  });
  return { main: join(dir, 'main.mjs'), cleanup: () => rm(dir, { recursive: true, force: true }) };
}
