import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Level } from 'level';
import { afterAll, describe, expect, it } from 'vitest';
import type { Store } from '../interface.js';
import { collect, storeSuite } from '../testing/suite.js';
import { seededRandom } from '../testing/seeded-random.js';
import { encodeRecord, EVENT_RANGE_END, eventKey, META_COMPACTED, META_REVISION } from './codec.js';
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

const pod = (name: string, n = 0) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, n });
const podKey = (name: string) => `/registry/pods/default/${name}`;

/** What the database holds under `key`, as text. */
async function diskValue(dir: string, key: string): Promise<string | undefined> {
  const db = new Level<string, Buffer>(dir, { keyEncoding: 'utf8', valueEncoding: 'buffer' });
  await db.open();
  const value = await db.get(key);
  await db.close();
  return value?.toString();
}

/** Every key in the database, with the size of what it holds. */
async function diskKeys(dir: string): Promise<Map<string, number>> {
  const db = new Level<string, Buffer>(dir, { keyEncoding: 'utf8', valueEncoding: 'buffer' });
  await db.open();
  const keys = new Map<string, number>();
  for await (const [k, v] of db.iterator()) keys.set(k, v.length);
  await db.close();
  return keys;
}

describe('LevelDB records', () => {
  it('compaction of creates writes nothing but the compacted and the current revision; a clean stop leaves the current revision', async () => {
    const dir = join(root, 'creates');
    const store = await openLevelStore(dir);
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.create(podKey(`p${i}`), pod(`p${i}`))));
    await store.close();
    const before = await diskKeys(dir);
    // the records, and the revision where earlier versions read it alone (a batch writes its record alone: see
    // the crash test)
    expect([...before.keys()].filter((k) => !k.startsWith('e'))).toEqual([META_REVISION]);
    expect(await diskValue(dir, META_REVISION)).toBe('50');
    const again = await openLevelStore(dir);
    await again.compact(again.revision());
    await again.close();
    const after = await diskKeys(dir);
    after.delete(META_COMPACTED);
    expect(after).toEqual(before);
  });

  it('keeps the current revision when compaction deletes the newest record', async () => {
    const dir = join(root, 'deleted-newest');
    let store = await openLevelStore(dir);
    await store.create(podKey('a'), pod('a'));
    await store.delete(podKey('a'));
    const revision = store.revision();
    await store.compact(revision);
    await store.compact(revision);
    await store.close();
    expect([...(await diskKeys(dir)).keys()].filter((k) => k.startsWith('e'))).toEqual([]);
    store = await openLevelStore(dir);
    expect(store.revision()).toBe(revision);
    expect((await store.create(podKey('b'), pod('b'))).modRevision).toBe(revision + 1);
    await store.close();
  });

  it('random writes, compactions and reopens keep every object, the kept events with their previous states, and no dead record', async () => {
    const dir = join(root, 'random');
    const random = seededRandom(20261129);
    let store = await openLevelStore(dir);
    const model = new Map<string, { revision: number; n: number }>();
    const history: { type: string; key: string; revision: number; prev?: number }[] = [];
    const names = Array.from({ length: 24 }, (_, i) => `p${i}`);
    for (let round = 0; round < 60; round++) {
      // one burst of concurrent writes to distinct keys: they share group-commit batches
      const burst = names.filter(() => random() < 0.4);
      await Promise.all(burst.map(async (name) => {
        const key = podKey(name);
        const had = model.get(key);
        if (!had) {
          const kv = await store.create(key, pod(name));
          model.set(key, { revision: kv.modRevision, n: 0 });
          history.push({ type: 'ADDED', key, revision: kv.modRevision });
        } else if (random() < 0.3) {
          const kv = await store.delete(key);
          model.delete(key);
          history.push({ type: 'DELETED', key, revision: kv.modRevision, prev: had.revision });
        } else {
          const kv = await store.guaranteedUpdate(key, (c) => ({ ...c!.object, n: had.n + 1 }));
          model.set(key, { revision: kv.modRevision, n: had.n + 1 });
          history.push({ type: 'MODIFIED', key, revision: kv.modRevision, prev: had.revision });
        }
      }));
      if (random() < 0.5) {
        const from = store.compactedRevision();
        await store.compact(from + Math.floor(random() * (store.revision() - from + 1)));
      }
      if (random() < 0.3 || round === 59) {
        await store.close();
        store = await openLevelStore(dir);
        const listed = (await store.list('/registry/')).items.map((kv) => [kv.key, kv.modRevision, (kv.object as { n?: number }).n]);
        expect(listed).toEqual([...model].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, v]) => [key, v.revision, v.n]));
        const from = Math.max(store.compactedRevision(), 1); // a watch from 0 starts at the present
        const expected = history.filter((h) => h.revision > from).sort((a, b) => a.revision - b.revision);
        const w = collect(store, '/registry/pods/', from);
        await w.until(expected.length);
        expect(w.events.map((e) => ({ type: e.type, key: e.key, revision: e.revision, ...(e.prev ? { prev: e.prev.modRevision } : {}) }))).toEqual(expected);
        w.stop();
      }
    }
    // Compacted to the end, what is left on disk is the objects: no record holds only dead states.
    await store.compact(store.revision());
    await store.compact(store.revision()); // a deletion sharing a record with what it deleted goes on the second
    await store.close();
    const records = [...(await diskKeys(dir)).keys()].filter((k) => k.startsWith('e'));
    expect(records.length).toBeLessThanOrEqual(model.size);
  });

  it('reads the earlier layout (object records at the compacted revision) and drops its records once superseded', async () => {
    const dir = join(root, 'legacy');
    const db = new Level<string, Buffer>(dir, { keyEncoding: 'utf8', valueEncoding: 'buffer' });
    await db.open();
    const stored = (name: string, revision: number, create: number) =>
      Buffer.from(JSON.stringify({ ...pod(name), metadata: { ...pod(name).metadata, resourceVersion: String(revision) } }));
    // a and b as of the compacted revision 10; then b modified at 11 and c created at 12 (one event record)
    await db.put(`o${podKey('a')}`, Buffer.concat([Buffer.from('4 4\n'), stored('a', 4, 4)]));
    await db.put(`o${podKey('b')}`, Buffer.concat([Buffer.from('7 5\n'), stored('b', 7, 5)]));
    const event = (type: 'ADDED' | 'MODIFIED', name: string, revision: number, create: number) =>
      ({ type, key: podKey(name), revision, kv: { key: podKey(name), bytes: stored(name, revision, create), modRevision: revision, createRevision: create, object: {} } });
    await db.put(eventKey(11), encodeRecord([event('MODIFIED', 'b', 11, 5), event('ADDED', 'c', 12, 12)]));
    await db.put(META_REVISION, Buffer.from('12'));
    await db.put(META_COMPACTED, Buffer.from('10'));
    await db.close();

    let store = await openLevelStore(dir);
    expect((await store.list('/registry/')).items.map((kv) => [kv.key, kv.modRevision, kv.createRevision])).toEqual([
      [podKey('a'), 4, 4], [podKey('b'), 11, 5], [podKey('c'), 12, 12]]);
    const w = collect(store, '/registry/pods/', 10);
    await w.until(2);
    expect(w.events[0]).toMatchObject({ type: 'MODIFIED', revision: 11, prev: { modRevision: 7 } });
    w.stop();
    await store.delete(podKey('a'));
    await store.compact(store.revision());
    await store.compact(store.revision());
    await store.close();
    const keys = [...(await diskKeys(dir)).keys()];
    expect(keys.filter((k) => k.startsWith('o'))).toEqual([]); // a deleted, b superseded
    store = await openLevelStore(dir);
    expect((await store.list('/registry/')).items.map((kv) => [kv.key, kv.modRevision])).toEqual([[podKey('b'), 11], [podKey('c'), 12]]);
    await store.close();
  });

  it('keeps a group-commit batch in one record; compaction inside it keeps the later events', async () => {
    const dir = join(root, 'batched');
    let store = await openLevelStore(dir);
    await Promise.all(Array.from({ length: 100 }, (_, i) => store.create(podKey(`p${i}`), pod(`p${i}`))));
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
