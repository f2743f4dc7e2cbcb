import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { isStorageError, StorageError } from '../errors.js';
import type { Store, StoreEvent } from '../interface.js';
import { createMemoryStore } from '../memory/store.js';
import { Cacher, type CacheWatchOptions } from './cacher.js';

const PODS = '/registry/pods/';
const key = (ns: string, name: string): string => `${PODS}${ns}/${name}`;
const pod = (ns: string, name: string, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns, labels },
});
const isWeb = (o: KubeObject): boolean => o.metadata?.labels?.app === 'web';
const setLabels = (store: Store, k: string, labels: Record<string, string>) =>
  store.guaranteedUpdate(k, (c) => ({ ...c!.object, metadata: { ...c!.object.metadata, labels } }));

async function started(store: Store, historySize?: number): Promise<Cacher> {
  const cacher = new Cacher(store, PODS, { historySize });
  await cacher.start();
  return cacher;
}

function sink(cacher: Cacher, opts: CacheWatchOptions) {
  const events: StoreEvent[] = [];
  const closes: (Error | undefined)[] = [];
  const ends: number[] = [];
  let waiting: { n: number; resolve: () => void } | undefined;
  const unsubscribe = cacher.watch(opts, {
    onEvent: (ev) => {
      events.push(ev);
      if (waiting && events.length >= waiting.n) waiting.resolve();
    },
    onClose: (err) => closes.push(err),
    onInitialEventsEnd: (rev) => ends.push(rev),
  });
  // A missing event fails fast instead of hanging until the test timeout.
  const until = (n: number): Promise<void> =>
    events.length >= n ? Promise.resolve() : new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`got ${events.length} of ${n} events`)), 2_000);
      waiting = { n, resolve: () => { clearTimeout(timer); resolve(); } };
    });
  const summary = () => events.map((e) => `${e.type} ${e.kv.object.metadata?.name}@${e.revision}`);
  return { events, closes, ends, until, unsubscribe, summary };
}

/** Resolves after pending microtasks (a watch's replay step) have run. */
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('Cacher', () => {
  it('starts from a list and follows the store', async () => {
    const store = createMemoryStore();
    const a = await store.create(key('ns1', 'a'), pod('ns1', 'a'));
    await store.create('/registry/services/ns1/s', { kind: 'Service', metadata: { name: 's' } });
    const cacher = await started(store);
    expect(cacher.get(key('ns1', 'a'))).toBe(a);
    expect(cacher.revision()).toBe(store.revision());
    const b = await store.create(key('ns1', 'b'), pod('ns1', 'b'));
    expect(cacher.get(key('ns1', 'b'))).toBe(b);
    await store.delete(key('ns1', 'a'));
    expect(cacher.get(key('ns1', 'a'))).toBeUndefined();
    expect(cacher.list({ prefix: PODS }).items).toEqual([b]);
    expect(cacher.revision()).toBe(store.revision());
    cacher.stop();
  });

  it('lists sorted under a narrower prefix, filtered, paged with nextKey and remaining', async () => {
    const store = createMemoryStore();
    for (const ns of ['b', 'a']) {
      for (let i = 9; i >= 0; i--) await store.create(key(ns, `p${i}`), pod(ns, `p${i}`, { app: i % 2 ? 'web' : 'db' }));
    }
    const cacher = await started(store);
    const all = cacher.list({ prefix: PODS });
    expect(all.items.map((kv) => kv.key)).toEqual([...all.items.map((kv) => kv.key)].sort());
    expect([all.revision, all.nextKey, all.remaining]).toEqual([store.revision(), undefined, undefined]);
    expect(cacher.list({ prefix: `${PODS}a/` }).items).toHaveLength(10);

    const page1 = cacher.list({ prefix: `${PODS}a/`, limit: 4 });
    expect(page1.items.map((kv) => kv.object.metadata?.name)).toEqual(['p0', 'p1', 'p2', 'p3']);
    expect(page1).toMatchObject({ nextKey: key('a', 'p3'), remaining: 6 });

    const names: string[] = [];
    let startKey: string | undefined;
    do {
      const page = cacher.list({ prefix: `${PODS}a/`, predicate: isWeb, limit: 2, startKey });
      names.push(...page.items.map((kv) => kv.object.metadata!.name!));
      if (page.nextKey) expect(page.remaining).toBe(5 - names.length);
      startKey = page.nextKey === undefined ? undefined : `${page.nextKey}\0`;
    } while (startKey);
    expect(names).toEqual(['p1', 'p3', 'p5', 'p7', 'p9']);
    expect(() => cacher.list({ prefix: '/registry/services/' })).toThrow();
    cacher.stop();
  });

  it('lists 10,000 objects from memory: the cached entries themselves, paged from the start key', async () => {
    const store = createMemoryStore();
    await Promise.all(Array.from({ length: 10_000 }, (_, i) => store.create(key(`ns${i % 10}`, `p${i}`), pod(`ns${i % 10}`, `p${i}`))));
    const cacher = await started(store);
    const all = cacher.list({ prefix: PODS });
    const page = cacher.list({ prefix: `${PODS}ns3/`, limit: 500, startKey: key('ns3', 'p5003') });
    expect(all.items).toHaveLength(10_000);
    expect(page.items).toHaveLength(500);
    expect(page.items[0]!.key).toBe(key('ns3', 'p5003')); // inclusive, as etcd's range start
    expect(page.items.every((kv) => kv.key >= key('ns3', 'p5003') && kv.key.startsWith(`${PODS}ns3/`))).toBe(true);
    // nothing copied or parsed per list: a second list hands out the very same entries
    expect(cacher.list({ prefix: PODS }).items[4321]).toBe(all.items[4321]);
    cacher.stop();
  });

  it('waitUntilFresh learns revisions of writes under other prefixes and honours its signal', async () => {
    const store = createMemoryStore();
    const cacher = await started(store);
    const svc = await store.create('/registry/services/ns/s', { kind: 'Service', metadata: { name: 's' } });
    expect(cacher.revision()).toBe(svc.modRevision);
    await cacher.waitUntilFresh(store.revision(), new AbortController().signal);

    const future = cacher.waitUntilFresh(store.revision() + 2, new AbortController().signal);
    let done = false;
    void future.then(() => (done = true));
    await store.create('/registry/services/ns/t', { kind: 'Service', metadata: { name: 't' } });
    await settled();
    expect(done).toBe(false);
    await store.create('/registry/services/ns/u', { kind: 'Service', metadata: { name: 'u' } });
    await future;

    const controller = new AbortController();
    const timedOut = cacher.waitUntilFresh(store.revision() + 100, controller.signal);
    controller.abort(new Error('too large resource version'));
    await expect(timedOut).rejects.toThrow('too large resource version');
    cacher.stop();
  });

  it('watch from 0 gets only new events; one event object is shared by all watchers', async () => {
    const store = createMemoryStore();
    await store.create(key('ns', 'old'), pod('ns', 'old'));
    const cacher = await started(store);
    const w1 = sink(cacher, { prefix: PODS, fromRevision: 0 });
    const w2 = sink(cacher, { prefix: `${PODS}ns/`, fromRevision: 0 });
    const other = sink(cacher, { prefix: `${PODS}other/`, fromRevision: 0 });
    await store.create(key('ns', 'a'), pod('ns', 'a'));
    await Promise.all([w1.until(1), w2.until(1)]);
    expect(w1.summary()).toEqual(['ADDED a@2']);
    expect(w1.events[0]).toBe(w2.events[0]);
    expect(other.events).toEqual([]);
    cacher.stop();
  });

  it('watch replays from the ring then goes live without gaps under concurrent writes', async () => {
    const store = createMemoryStore();
    const cacher = await started(store);
    let w: ReturnType<typeof sink> | undefined;
    let from = 0;
    const writer = async (tag: string, onStep?: (i: number) => void): Promise<void> => {
      for (let i = 0; i < 50; i++) {
        await store.create(key(tag, `p${i}`), pod(tag, `p${i}`));
        await store.create(`/registry/services/${tag}/s${i}`, { kind: 'Service', metadata: { name: `s${i}` } });
        onStep?.(i);
      }
    };
    await Promise.all([
      writer('a', (i) => {
        if (i === 20) w = sink(cacher, { prefix: PODS, fromRevision: (from = cacher.revision() - 15) });
      }),
      writer('b'),
    ]);
    const pods = (await store.list(PODS)).items.map((kv) => kv.modRevision).filter((r) => r > from).sort((x, y) => x - y);
    await w!.until(pods.length);
    expect(w!.events.map((e) => e.revision)).toEqual(pods);
    cacher.stop();
  });

  it('a watch older than the history window throws Compacted with the oldest resumable revision', async () => {
    const store = createMemoryStore();
    const cacher = await started(store, 5);
    for (let i = 0; i < 8; i++) await store.create(key('ns', `p${i}`), pod('ns', `p${i}`));
    let thrown: unknown;
    try {
      sink(cacher, { prefix: PODS, fromRevision: 2 });
    } catch (err) {
      thrown = err;
    }
    expect(isStorageError(thrown, 'Compacted')).toBe(true);
    expect((thrown as StorageError).revision).toBe(3);
    const w = sink(cacher, { prefix: PODS, fromRevision: 3 });
    await w.until(5);
    expect(w.events.map((e) => e.revision)).toEqual([4, 5, 6, 7, 8]);
    cacher.stop();
  });

  it('sendInitialEvents: ADDED for current matching objects, the end marker, then live events', async () => {
    const store = createMemoryStore();
    await store.create(key('ns', 'b'), pod('ns', 'b', { app: 'web' }));
    await store.create(key('ns', 'a'), pod('ns', 'a', { app: 'web' }));
    await store.create(key('ns', 'c'), pod('ns', 'c', { app: 'db' }));
    const cacher = await started(store);
    const w = sink(cacher, { prefix: PODS, fromRevision: 0, predicate: isWeb, sendInitialEvents: true });
    await w.until(2);
    expect(w.summary()).toEqual(['ADDED a@2', 'ADDED b@1']);
    expect(w.ends).toEqual([3]);
    await store.create(key('ns', 'd'), pod('ns', 'd', { app: 'web' }));
    await w.until(3);
    expect(w.summary()[2]).toBe('ADDED d@4');
    cacher.stop();
  });

  it('predicate: leaving the selector is DELETED (previous content at the event revision), entering is ADDED', async () => {
    const store = createMemoryStore();
    const cacher = await started(store);
    const w = sink(cacher, { prefix: PODS, fromRevision: 0, predicate: isWeb });
    await store.create(key('ns', 'a'), pod('ns', 'a', { app: 'db' }));
    await setLabels(store, key('ns', 'a'), { app: 'web' });
    await setLabels(store, key('ns', 'a'), { app: 'web', tier: 'x' });
    const left = await setLabels(store, key('ns', 'a'), { app: 'db' });
    await setLabels(store, key('ns', 'a'), { app: 'web' });
    const deleted = await store.delete(key('ns', 'a'));
    await store.create(key('ns', 'b'), pod('ns', 'b', { app: 'db' }));
    await store.delete(key('ns', 'b'));
    await w.until(5);
    expect(w.summary()).toEqual(['ADDED a@2', 'MODIFIED a@3', 'DELETED a@4', 'ADDED a@5', 'DELETED a@6']);
    const leaving = w.events[2];
    expect(leaving.kv.object.metadata).toMatchObject({ labels: { app: 'web', tier: 'x' }, resourceVersion: String(left.modRevision) });
    expect(JSON.parse(leaving.kv.bytes.toString())).toEqual(leaving.kv.object);
    expect(w.events[4].kv).toEqual(deleted);
    cacher.stop();
  });

  it('a sink that throws is closed with its error; unsubscribe stops delivery; stop closes the rest', async () => {
    const store = createMemoryStore();
    const cacher = await started(store);
    const boom = new Error('slow consumer');
    const closes: (Error | undefined)[] = [];
    cacher.watch({ prefix: PODS, fromRevision: 0 }, { onEvent: () => { throw boom; }, onClose: (err) => closes.push(err) });
    const gone = sink(cacher, { prefix: PODS, fromRevision: 0 });
    const kept = sink(cacher, { prefix: PODS, fromRevision: 0 });
    await settled();
    gone.unsubscribe();
    await store.create(key('ns', 'a'), pod('ns', 'a'));
    await kept.until(1);
    expect(closes).toEqual([boom]);
    expect(gone.events).toEqual([]);
    const waiting = cacher.waitUntilFresh(store.revision() + 10, new AbortController().signal);
    cacher.stop();
    expect(kept.closes).toEqual([undefined]);
    expect(gone.closes).toEqual([]);
    await expect(waiting).rejects.toMatchObject({ code: 'Unavailable' });
    expect(() => cacher.watch({ prefix: PODS, fromRevision: 0 }, { onEvent: () => {}, onClose: () => {} })).toThrow();
  });

  it('fans one event out to 1,000 watchers', async () => {
    const store = createMemoryStore();
    const cacher = await started(store);
    const watchers = Array.from({ length: 1000 }, (_, i) => sink(cacher, { prefix: PODS, fromRevision: 0, predicate: i % 2 ? isWeb : undefined }));
    await settled();
    for (let i = 0; i < 20; i++) await store.create(key('ns', `p${i}`), pod('ns', `p${i}`, { app: 'web' }));
    expect(watchers.every((w) => w.events.length === 20)).toBe(true);
    expect(watchers[999].events[7]).toBe(watchers[0].events[7]);
    cacher.stop();
  });
});
