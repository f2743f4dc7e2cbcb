// A watch cache started on a store that already keeps events (an apiserver restarted on the same data dir) has
// them as its history, as far back as its capacity allows: lists at those revisions (a continue token's snapshot,
// resourceVersionMatch=Exact) are served, as upstream serves them from etcd until compacted. Watches are not: upstream's
// watch cache answers one from before the revision it listed at 410 Expired, and the client lists again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { isStorageError, StorageError } from '../errors.js';
import type { Store, StoreEvent } from '../interface.js';
import { openLevelStore } from '../leveldb/store.js';
import { Cacher } from './cacher.js';

const PODS = '/registry/pods/';
const key = (name: string): string => `${PODS}ns/${name}`;
const pod = (name: string, app = 'web'): KubeObject => ({ kind: 'Pod', metadata: { name, namespace: 'ns', labels: { app } } });
const names = (items: { object: KubeObject }[]) => items.map((kv) => `${kv.object.metadata?.name}@${kv.object.metadata?.resourceVersion}`);
const relabel = (app: string) => (cur: { object: KubeObject } | undefined): KubeObject =>
  ({ ...cur!.object, metadata: { ...cur!.object.metadata, labels: { app } } });

const root = mkdtempSync(join(tmpdir(), 'mini-kube-cacher-restart-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

/** Writes a history (with a ConfigMap between the pods, which the pods' cache skips), then reopens the store. */
async function restartedStore(): Promise<{ store: Store; at: number; dir: string }> {
  const dir = join(root, String(n++));
  const first = await openLevelStore(dir);
  for (const name of ['a', 'b', 'c', 'd']) await first.create(key(name), pod(name));
  await first.create('/registry/configmaps/ns/x', { kind: 'ConfigMap', metadata: { name: 'x', namespace: 'ns' } });
  const at = first.revision(); // 5: a b c d
  await first.delete(key('b'));
  await first.guaranteedUpdate(key('c'), relabel('db'));
  await first.create(key('e'), pod('e'));
  await first.close();
  return { store: await openLevelStore(dir), at, dir };
}

function thrownBy(f: () => unknown): unknown {
  try {
    f();
  } catch (err) {
    return err;
  }
  return undefined;
}

describe('Cacher started on a store with kept events', () => {
  it('lists at revisions from before its start, pages through them, and refuses compacted ones', async () => {
    const { store, at } = await restartedStore();
    const cacher = new Cacher(store, PODS);
    await cacher.start();
    expect(cacher.oldestRevision()).toBe(1);
    expect(names(cacher.list({ prefix: PODS, revision: at }).items)).toEqual(['a@1', 'b@2', 'c@3', 'd@4']);
    expect(names(cacher.list({ prefix: PODS, revision: 2 }).items)).toEqual(['a@1', 'b@2']);

    const page1 = cacher.list({ prefix: PODS, revision: at, limit: 3 });
    expect([names(page1.items), page1.revision, page1.remaining]).toEqual([['a@1', 'b@2', 'c@3'], at, 1]);
    await store.delete(key('d')); // after the snapshot: the next page still has it
    const page2 = cacher.list({ prefix: PODS, revision: at, limit: 3, startKey: `${page1.nextKey}\0` });
    expect([names(page2.items), page2.nextKey]).toEqual([['d@4'], undefined]);
    expect(names(cacher.list({ prefix: PODS }).items)).toEqual(['a@1', 'c@7', 'e@8']);

    await store.compact(3);
    cacher.stop();
    const again = new Cacher(store, PODS);
    await again.start();
    expect(again.oldestRevision()).toBe(3);
    expect(names(again.list({ prefix: PODS, revision: 3 }).items)).toEqual(['a@1', 'b@2', 'c@3']);
    expect(isStorageError(thrownBy(() => again.list({ prefix: PODS, revision: 2 })), 'Compacted')).toBe(true);
    again.stop();
    await store.close();
  });

  it('keeps no more history than its capacity', async () => {
    const { store, at } = await restartedStore();
    const cacher = new Cacher(store, PODS, { historySize: 2 });
    await cacher.start();
    // the pods' last two events are at 7 and 8: the state at 6 is the oldest it can rebuild
    expect(cacher.oldestRevision()).toBe(6);
    expect(names(cacher.list({ prefix: PODS, revision: 6 }).items)).toEqual(['a@1', 'c@3', 'd@4']);
    expect(isStorageError(thrownBy(() => cacher.list({ prefix: PODS, revision: at })), 'Compacted')).toBe(true);
    cacher.stop();
    await store.close();
  });

  it('starts its history at its list when told not to replay the store (a webhook-converted view)', async () => {
    const { store, at } = await restartedStore();
    const cacher = new Cacher(store, PODS, { historyFromStore: false });
    await cacher.start();
    expect(cacher.oldestRevision()).toBe(store.revision());
    expect(isStorageError(thrownBy(() => cacher.list({ prefix: PODS, revision: at })), 'Compacted')).toBe(true);
    cacher.stop();
    await store.close();
  });

  it('starts without history when the store cannot replay it (events sealed with a key no longer configured)', async () => {
    const { store, at } = await restartedStore();
    const sealed: Store = Object.create(store) as Store;
    sealed.watch = (prefix, opts, watcher) => {
      if (opts.fromRevision !== undefined && opts.fromRevision < store.revision()) {
        queueMicrotask(() => watcher.onClose?.(new Error('no matching prefix found for the stored data')));
        return;
      }
      store.watch(prefix, opts, watcher);
    };
    const cacher = new Cacher(sealed, PODS);
    await cacher.start();
    expect(cacher.isReady()).toBe(true);
    expect(cacher.oldestRevision()).toBe(store.revision());
    expect(isStorageError(thrownBy(() => cacher.list({ prefix: PODS, revision: at })), 'Compacted')).toBe(true);
    cacher.stop();
    await store.close();
  });

  it('starts again when a compaction passes the revision its store watch was to start at', async () => {
    const { store } = await restartedStore();
    let refuse = 1;
    const racing: Store = Object.create(store) as Store;
    racing.watch = (prefix, opts, watcher) => {
      if (refuse-- > 0) throw new StorageError('Compacted', prefix, 'compacted', store.revision());
      store.watch(prefix, opts, watcher);
    };
    const cacher = new Cacher(racing, PODS);
    await cacher.start();
    expect([refuse, cacher.isReady()]).toEqual([-1, true]);
    cacher.stop();
    await store.close();
  });

  it('answers a watch from before its start 410, as upstream\'s watch cache (its oldest is the revision it listed at)', async () => {
    const { store, at } = await restartedStore();
    const cacher = new Cacher(store, PODS);
    await cacher.start();
    const listed = store.revision(); // 8
    const sink = { onEvent: () => undefined, onClose: () => undefined };
    for (const from of [at, listed - 1]) {
      expect(thrownBy(() => cacher.watch({ prefix: PODS, fromRevision: from }, sink)))
        .toMatchObject({ code: 'Compacted', message: `too old resource version: ${from} (${listed})` });
    }
    // the lists at those revisions are still served from the history (continue tokens, Exact)
    expect(names(cacher.list({ prefix: PODS, revision: at }).items)).toEqual(['a@1', 'b@2', 'c@3', 'd@4']);
    // the initial events of a watch-list are the current state, whatever revision it names
    const initial: string[] = [];
    const stopInitial = cacher.watch({ prefix: PODS, fromRevision: at, sendInitialEvents: true }, { onEvent: (ev) => initial.push(`${ev.type} ${ev.kv.object.metadata?.name}`), onClose: () => undefined });
    const seen: StoreEvent[] = [];
    const stop = cacher.watch({ prefix: PODS, fromRevision: listed, predicate: (o) => o.metadata?.labels?.app === 'web' }, {
      onEvent: (ev) => seen.push(ev),
      onClose: () => undefined,
    });
    await store.create(key('f'), pod('f'));
    const deadline = Date.now() + 5_000;
    while (seen.length < 1 && Date.now() < deadline) await new Promise((r) => setImmediate(r));
    expect(initial).toEqual(['ADDED a', 'ADDED c', 'ADDED d', 'ADDED e', 'ADDED f']);
    expect(seen.map((ev) => `${ev.type} ${ev.kv.object.metadata?.name}@${ev.revision}`)).toEqual(['ADDED f@9']);
    stop();
    stopInitial();
    cacher.stop();
    await store.close();
  });
});
