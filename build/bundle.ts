// The shipped `mini-kube` binary: cmd/main.ts and every dependency bundled as CommonJS (main.cjs, plus a chunk
// per command, loaded when chosen), run by cmd/launcher.ts (mini-kube.mjs) through V8's code cache. Node
// resolves and compiles ~1,000 files of node_modules one by one at each start; a bundle is read in a few files,
// which takes a warm apiserver start from ~300 ms of module loading to ~100 ms, and the code cache (which Node 20
// offers for scripts, not for ES modules) saves most of what compiling them still costs. Tests that spawn real
// processes build the same bundle (test/support/binary.ts).
import { existsSync } from 'node:fs';
import { chmod, readdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'rolldown';

/** The repository: above build/ (sources, as tests import it) or dist/build/ (compiled, as npm run build runs it). */
const repo = ((): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'cmd', 'main.ts')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
})();

/** The bundle's entry file name inside its output directory. */
export const BUNDLE_ENTRY = 'mini-kube.mjs';

/**
 * Packages left to node at run time: etcd3 reads its .proto files next to its own sources, and node-gyp-build finds
 * LevelDB's native addon (below).
 */
const unbundled = new Set(['etcd3', 'node-gyp-build']);
const external = (id: string): boolean => id.startsWith('node:') || unbundled.has(id);

/**
 * classic-level's JavaScript is bundled (code-cached, ~80 files not resolved one by one at each start); its addon is
 * loaded from the installed package, where its binding.js would look for it from its own directory.
 */
const levelAddon: Plugin = {
  name: 'classic-level-addon',
  load(id) {
    if (!id.endsWith(`${sep}classic-level${sep}binding.js`)) return null;
    return "module.exports = require('node-gyp-build')(require('node:path').dirname(require.resolve('classic-level/package.json')));";
  },
};

/**
 * The launcher compiles the bundle's files as scripts, where `import()` has no loader to call: what the bundle does not
 * hold itself must be required, that is imported statically (a dynamic import of a chunk becomes a require).
 */
const staticExternals: Plugin = {
  name: 'static-externals',
  resolveDynamicImport(source, importer) {
    if (typeof source === 'string' && external(source)) this.error(`${importer ?? 'a module'} imports ${source} dynamically: import it statically, the bundle runs as CommonJS scripts`);
    return null;
  },
};

/** The launcher reads the bundle as Latin-1 (cmd/launcher.ts), which is its UTF-8 only while every byte is ASCII. */
async function assertAscii(dir: string): Promise<void> {
  for (const file of await readdir(dir)) {
    const at = (await readFile(join(dir, file))).findIndex((byte) => byte > 0x7f);
    if (at >= 0) throw new Error(`${file} holds a non-ASCII byte at ${at}, which output.charset 'ascii' did not escape`);
  }
}

/**
 * Builds beside `outDir` and then swaps the directories, so that a process started meanwhile (a cluster running from
 * this checkout starts shims and components from it) never finds the bundle half written or gone.
 */
export async function bundle(outDir: string): Promise<string> {
  const fresh = `${outDir}.new-${process.pid}`;
  const stale = `${outDir}.old-${process.pid}`;
  await rm(fresh, { recursive: true, force: true });
  await build({
    input: join(repo, 'cmd/main.ts'),
    platform: 'node',
    external,
    plugins: [staticExternals, levelAddon],
    output: {
      dir: fresh,
      format: 'cjs',
      entryFileNames: 'main.cjs',
      chunkFileNames: '[name]-[hash].cjs',
      strict: true, // as the modules it is made of
      // One-byte source strings: a single non-ASCII character in a file makes V8 read all of it as UTF-16, which
      // is slower to decode and to parse. Comments only cost reading.
      charset: 'ascii',
      comments: false,
    },
    logLevel: 'warn',
  });
  await assertAscii(fresh);
  await build({
    input: join(repo, 'cmd/launcher.ts'),
    platform: 'node',
    external: (id) => id.startsWith('node:'),
    output: { dir: fresh, format: 'esm', entryFileNames: BUNDLE_ENTRY },
    logLevel: 'warn',
  });
  // executable, as npm makes a package's bin: a link to it (kube-apiserver, for envtest) runs it directly
  await chmod(join(fresh, BUNDLE_ENTRY), 0o755);
  if (existsSync(outDir)) await rename(outDir, stale);
  await rename(fresh, outDir);
  await rm(stale, { recursive: true, force: true });
  return join(outDir, BUNDLE_ENTRY);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = await bundle(join(repo, 'dist', 'bin'));
  process.stdout.write(`bundled ${out}\n`);
}
