// The watch cache losing its store watch (an error, or compaction past its position): its watchers are ended,
// new watches are refused while it rebuilds from a fresh list, reads stay consistent (the last state, or wait
// for a newer one), and once rebuilt it follows the store again; a failed rebuild is retried.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { isStorageError, StorageError } from '../errors.js';
import type { Store, Watcher, WatchOptions } from '../interface.js';
import { createMemoryStore } from '../memory/store.js';
import { Cacher } from './cacher.js';
import { followCache } from './follow.js';

const PODS = '/registry/pods/';
const key = (name: string): string => `${PODS}ns/${name}`;
const pod = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' } });

/** A store whose watches the test can break, and whose next watches can be refused as compacted. */
function breakableStore(inner: Store) {
  const live: { watcher: Watcher; stop: AbortController }[] = [];
  let refuse = 0;
  const store: Store = Object.create(inner) as Store;
  store.watch = (prefix: string, opts: WatchOptions, watcher: Watcher): void => {
    if (refuse > 0) {
      refuse--;
      throw new StorageError('Compacted', prefix, 'compacted', inner.revision());
    }
    const stop = new AbortController();
    opts.signal.addEventListener('abort', () => stop.abort(), { once: true });
    live.push({ watcher, stop });
    inner.watch(prefix, { ...opts, signal: stop.signal }, { ...watcher, onClose: () => undefined });
  };
  return {
    store,
    /** Ends every store watch with `err`, as a failing backend would. */
    breakWatches(err: Error): void {
      for (const w of live.splice(0)) {
        w.stop.abort();
        w.watcher.onClose(err);
      }
    },
    refuseNext(n: number): void {
      refuse = n;
    },
  };
}

describe('Cacher recovery', () => {
  it('ends its watchers, rebuilds from a fresh list and follows the store again', async () => {
    const inner = createMemoryStore();
    const b = breakableStore(inner);
    await inner.create(key('a'), pod('a'));
    const cacher = new Cacher(b.store, PODS);
    await cacher.start();
    const closes: (Error | undefined)[] = [];
    cacher.watch({ prefix: PODS, fromRevision: 0 }, { onEvent: () => undefined, onClose: (err) => closes.push(err) });
    const before = cacher.revision();

    const boom = new Error('store watch failed');
    b.refuseNext(2); // the first rebuilds find their revision compacted: retried
    b.breakWatches(boom);
    expect(closes).toEqual([boom]);
    expect(cacher.isReady()).toBe(false);
    let refused: unknown;
    try {
      cacher.watch({ prefix: PODS, fromRevision: 0 }, { onEvent: () => undefined, onClose: () => undefined });
    } catch (err) {
      refused = err;
    }
    expect(isStorageError(refused, 'Unavailable')).toBe(true);

    // Writes the cache does not see while it rebuilds: reads meanwhile show the last state, at its revision.
    await inner.create(key('b'), pod('b'));
    await inner.delete(key('a'));
    expect(cacher.list({ prefix: PODS })).toMatchObject({ revision: before, items: [{ key: key('a') }] });

    await cacher.waitUntilFresh(inner.revision(), AbortSignal.timeout(5_000));
    expect(cacher.list({ prefix: PODS }).items.map((kv) => kv.key)).toEqual([key('b')]);
    // Live again once a store watch from the new list's revision is accepted (after the two refusals).
    const deadline = Date.now() + 5_000;
    while (!cacher.isReady() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(cacher.isReady()).toBe(true);
    // Resuming from before the rebuild's list is too old, as upstream's watch cache after a relist: the client re-lists.
    expect(() => cacher.watch({ prefix: PODS, fromRevision: before }, { onEvent: () => undefined, onClose: () => undefined })).toThrow(/too old/);

    const seen: string[] = [];
    cacher.watch({ prefix: PODS, fromRevision: 0 }, { onEvent: (ev) => seen.push(`${ev.type} ${ev.key}`), onClose: () => undefined });
    await new Promise((resolve) => setImmediate(resolve));
    await inner.create(key('c'), pod('c'));
    expect(seen).toEqual([`ADDED ${key('c')}`]);
    expect(cacher.get(key('c'))?.modRevision).toBe(inner.revision());
    cacher.stop();
  });

  it('followCache: a consumer the rebuild cut off lists again, gets what changed meanwhile as events, and follows on', async () => {
    const inner = createMemoryStore();
    const b = breakableStore(inner);
    await inner.create(key('a'), pod('a'));
    await inner.create(key('m'), pod('m'));
    const cacher = new Cacher(b.store, PODS);
    await cacher.start();
    const seen: string[] = [];
    const resyncs: Error[] = [];
    const stop = followCache(cacher, PODS, (ev) => seen.push(`${ev.type} ${ev.key}`), { initialEvents: true, onResync: (err) => resyncs.push(err) });
    expect(seen).toEqual([`ADDED ${key('a')}`, `ADDED ${key('m')}`]);
    seen.length = 0;

    b.breakWatches(new Error('store watch failed'));
    expect(resyncs).toHaveLength(1);
    await inner.create(key('b'), pod('b'));
    await inner.delete(key('a'));
    await inner.guaranteedUpdate(key('m'), () => ({ ...pod('m'), metadata: { ...pod('m').metadata, labels: { x: 'y' } } }));
    const deadline = Date.now() + 5_000;
    while (seen.length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen.sort()).toEqual([`ADDED ${key('b')}`, `DELETED ${key('a')}`, `MODIFIED ${key('m')}`]);

    seen.length = 0;
    await inner.create(key('c'), pod('c'));
    while (seen.length < 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual([`ADDED ${key('c')}`]);
    stop();
    cacher.stop();
    expect(resyncs).toHaveLength(1); // a stopped cache ends the consumer cleanly
  });
});
