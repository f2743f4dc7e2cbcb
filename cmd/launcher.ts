#!/usr/bin/env node
// The shipped binary's entry (build/bundle.ts bundles main.ts as CommonJS into main.cjs and its chunks). It runs
// that bundle through V8's code cache: Node 20 has none for modules, and compiling the apiserver's ~4 MB of
// JavaScript is about a third of a warm start. A script with no usable cache (the first run, a new build or
// Node) gets one written beside the bundle once the process has done its start-up work, so that the cache
// holds the functions the start compiled, not only the scripts' top levels. Nothing here may import
// anything but Node's own modules: it runs before the bundle.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/** How long after a script without a usable cache is compiled its cache is written: past a component's start. */
const SAVE_AFTER_MS = 5_000;

const bundleDir = dirname(fileURLToPath(import.meta.url));
/**
 * V8 refuses a cache made under other flags (`up` starts the informer-heavy components with a larger young
 * generation): one cache per set of Node options, else each kind of process would throw away and rewrite the other's.
 */
const nodeOptions = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join('\0');
const cacheDir = join(bundleDir, '.code-cache', nodeOptions === '' ? 'default' : createHash('sha256').update(nodeOptions).digest('hex').slice(0, 12));
/** Cache file → the script it is written from, for the scripts compiled without a usable cache. */
const unsaved = new Map<string, Script>();
let saveTimer: NodeJS.Timeout | undefined;
let writable = true;

const readCache = (file: string): Buffer | undefined => {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
};

/** Written whole or not at all (a rename), as several processes of one cluster start from the same bundle. */
const save = (): void => {
  clearTimeout(saveTimer);
  saveTimer = undefined;
  for (const [file, script] of unsaved) {
    if (!writable) break;
    const partial = `${file}.${process.pid}`;
    try {
      mkdirSync(cacheDir, { recursive: true });
      writeFileSync(partial, script.createCachedData());
      renameSync(partial, file);
    } catch {
      writable = false; // a read-only install (or a full disk) runs without the cache
      rmSync(partial, { force: true });
    }
  }
  unsaved.clear();
};

type Loader = (module: Module, filename: string) => void;
const loaders = (Module as unknown as { _extensions: Record<string, Loader> })._extensions;
const loadJs = loaders['.js']!;
loaders['.cjs'] = function loadBundled(module, filename) {
  if (dirname(filename) !== bundleDir) return loadJs(module, filename);
  // The build keeps the bundle ASCII (build/bundle.ts): read as Latin-1 it is V8's one-byte string as it stands,
  // with none of the UTF-8 decoding that takes ~10 ns a byte.
  const source = readFileSync(filename, 'latin1');
  const cacheFile = join(cacheDir, `${basename(filename)}.v8`);
  const cachedData = readCache(cacheFile);
  const script = new Script(Module.wrap(source), { filename, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) {
    unsaved.set(cacheFile, script);
    saveTimer ??= setTimeout(save, SAVE_AFTER_MS).unref();
  }
  const wrapper = script.runInThisContext() as (...args: unknown[]) => unknown;
  wrapper.call(module.exports, module.exports, createRequire(filename), module, filename, bundleDir);
};
process.once('exit', save);

createRequire(import.meta.url)('./main.cjs');
