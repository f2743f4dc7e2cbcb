// The shipped binary runs its bundle through V8's code cache (cmd/launcher.ts): a run writes a cache for each script
// it compiled without one, at exit or once it has run a while; later runs use it rather than write it again; a cache
// V8 refuses (another Node, a damaged file) is replaced, never fatal; processes started with other Node options keep
// caches of their own.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleMain } from '../support/binary.js';

let bundle: { main: string; cleanup(): Promise<void> } | undefined;
let work = '';
/** The caches of runs without Node options (the tests' own NODE_OPTIONS are not passed on). */
const cacheDir = (): string => join(dirname(bundle!.main), '.code-cache', 'default');
const env = { ...process.env, NODE_OPTIONS: '' };

beforeAll(async () => {
  bundle = await bundleMain('mini-kube-code-cache-');
  work = await mkdtemp(join(tmpdir(), 'mini-kube-code-cache-'));
}, 60_000);

afterAll(async () => {
  await Promise.all([bundle?.cleanup(), work && rm(work, { recursive: true, force: true })]);
});

const version = async (...nodeFlags: string[]): Promise<string> =>
  (await promisify(execFile)(process.execPath, [...nodeFlags, bundle!.main, '--version'], { env })).stdout;

describe('the code cache', () => {
  it('is written by a first run, used as it is by the next, and replaced when V8 refuses it', async () => {
    const cache = join(cacheDir(), 'main.cjs.v8');
    expect(existsSync(cache)).toBe(false);
    expect(await version()).toMatch(/^mini-kube v\d+\.\d+\.\d+\n$/);
    const written = await stat(cache);
    expect(written.size).toBeGreaterThan(0);

    expect(await version()).toMatch(/^mini-kube v/);
    const used = await stat(cache);
    expect([used.ino, used.mtimeMs]).toEqual([written.ino, written.mtimeMs]); // accepted, so not written again

    await writeFile(cache, 'not a code cache');
    expect(await version()).toMatch(/^mini-kube v/);
    const replaced = await readFile(cache);
    expect(replaced.toString('latin1')).not.toBe('not a code cache');
    expect(replaced.length).toBeGreaterThan(100);
  }, 60_000);

  it('is kept per set of Node options: a run with a larger young generation neither refuses nor rewrites the others\'', async () => {
    const plain = join(cacheDir(), 'main.cjs.v8');
    await version();
    const before = await stat(plain);
    // as `up` starts the controller-manager, the scheduler and the kubelet
    await version('--max-semi-space-size=64');
    const dirs = await readdir(dirname(cacheDir()));
    expect(dirs).toHaveLength(2);
    const flagged = join(dirname(cacheDir()), dirs.find((d) => d !== 'default')!, 'main.cjs.v8');
    const flaggedBefore = await stat(flagged);
    await version();
    await version('--max-semi-space-size=64');
    const [after, flaggedAfter] = await Promise.all([stat(plain), stat(flagged)]);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect([flaggedAfter.ino, flaggedAfter.mtimeMs]).toEqual([flaggedBefore.ino, flaggedBefore.mtimeMs]);
  }, 60_000);

  it('is written by a server while it runs, for the chunks its start loaded', async () => {
    const server = (await readdir(dirname(bundle!.main))).find((f) => /^server-.*\.cjs$/.test(f));
    expect(server).toBeDefined();
    const child = spawn(process.execPath, [bundle!.main, 'apiserver', '--data-dir', join(work, 'data'), '--secure-port', '0'], { stdio: 'ignore', env });
    const exited = once(child, 'exit');
    try {
      const deadline = Date.now() + 30_000;
      while (!existsSync(join(cacheDir(), `${server}.v8`))) {
        expect(child.exitCode).toBeNull();
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      child.kill('SIGKILL'); // no exit of its own: the cache came from the running server
      await exited;
    }
  }, 60_000);
});
