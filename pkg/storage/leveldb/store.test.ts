import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { Store } from '../interface.js';
import { storeSuite } from '../testing/suite.js';
import { openLevelStore } from './store.js';

const root = mkdtempSync(join(tmpdir(), 'mini-kube-leveldb-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const dirs = new WeakMap<Store, string>();
let n = 0;

storeSuite('leveldb', {
  async open(opts) {
    const dir = join(root, String(n++));
    const store = await openLevelStore(dir, opts);
    dirs.set(store, dir);
    return store;
  },
  async reopen(store) {
    const dir = dirs.get(store)!;
    await store.close();
    const again = await openLevelStore(dir);
    dirs.set(again, dir);
    return again;
  },
});
