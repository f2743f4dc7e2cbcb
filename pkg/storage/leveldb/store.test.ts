import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Level } from 'level';
import { afterAll, describe, expect, it } from 'vitest';
import type { Store } from '../interface.js';
import { collect, storeSuite } from '../testing/suite.js';
import { EVENT_RANGE_END } from './codec.js';
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

describe('LevelDB records', () => {
  it('keeps a group-commit batch in one record; compaction inside it keeps the later events', async () => {
    const dir = join(root, 'batched');
    let store = await openLevelStore(dir);
    const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' } });
    await Promise.all(Array.from({ length: 100 }, (_, i) => store.create(`/registry/pods/default/p${i}`, pod(`p${i}`))));
    await store.delete('/registry/pods/default/p7');
    const db = new Level<string, Buffer>(dir, { keyEncoding: 'utf8', valueEncoding: 'buffer' });
    await store.close();
    const records = async () => {
      await db.open();
      const keys = [];
      for await (const k of db.keys({ gte: 'e', lt: EVENT_RANGE_END })) keys.push(k);
      await db.close();
      return keys;
    };
    expect((await records()).length).toBeLessThan(20); // 101 events in a handful of batches
    store = await openLevelStore(dir);
    const before = await store.list('/registry/');
    await store.compact(50); // inside a batch
    await store.close();
    store = await openLevelStore(dir);
    expect(store.compactedRevision()).toBe(50);
    expect((await store.list('/registry/')).items.map((kv) => [kv.key, kv.modRevision, kv.bytes.toString()]))
      .toEqual(before.items.map((kv) => [kv.key, kv.modRevision, kv.bytes.toString()]));
    const w = collect(store, '/registry/pods/', 50);
    await w.until(51);
    expect(w.events.map((e) => e.revision)).toEqual(Array.from({ length: 51 }, (_, i) => 51 + i));
    expect(w.events.at(-1)).toMatchObject({ type: 'DELETED', key: '/registry/pods/default/p7', prev: { modRevision: 8 } });
    w.stop();
    await store.close();
  });
});
