// One behaviour suite for every Store backend: each backend's test file runs it with its own factory.
import { describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import type { CompactionOptions } from '../core/journal.js';
import { isStorageError, StorageError } from '../errors.js';
import type { Store, StoreEvent } from '../interface.js';

export interface StoreBackend {
  /** A fresh, empty store. */
  open(opts?: { compaction?: CompactionOptions }): Promise<Store>;
  /** Close the store and open one on the same data (backends that persist). */
  reopen?(store: Store): Promise<Store>;
  /**
   * Concurrent writes get revisions and acknowledgements in call order (a group-committing backend does);
   * etcd orders concurrent requests as they reach it. Revisions stay distinct and dense either way.
   */
  unorderedConcurrentWrites?: boolean;
  /** A reopened store starts its event history at the revision it opened at (etcd3: the watch caches re-list). */
  historyStartsAtOpen?: boolean;
}

const pod = (name: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default' },
  ...extra,
});
const podKey = (name: string): string => `/registry/pods/default/${name}`;

/** Collects a watch's events; `until(n)` resolves once n have arrived. */
export function collect(store: Store, prefix: string, fromRevision: number) {
  const events: StoreEvent[] = [];
  const controller = new AbortController();
  const closes: (Error | undefined)[] = [];
  let waiting: { n: number; resolve: () => void } | undefined;
  store.watch(prefix, { fromRevision, signal: controller.signal }, {
    onEvent: (ev) => {
      events.push(ev);
      if (waiting && events.length >= waiting.n) waiting.resolve();
    },
    onClose: (err) => closes.push(err),
  });
  // A missing event fails fast instead of hanging until the test timeout.
  const until = (n: number): Promise<void> =>
    events.length >= n ? Promise.resolve() : new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`got ${events.length} of ${n} events`)), 2_000);
      waiting = { n, resolve: () => { clearTimeout(timer); resolve(); } };
    });
  return { events, closes, until, stop: () => controller.abort() };
}

async function rejection(p: Promise<unknown>): Promise<StorageError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof StorageError) return err;
    throw err;
  }
  throw new Error('expected a StorageError');
}

export function storeSuite(name: string, backend: StoreBackend): void {
  describe(`Store: ${name}`, () => {
    it('creates, stamps the revision without mutating the input, and gets', async () => {
      const store = await backend.open();
      const input = pod('a');
      const kv = await store.create(podKey('a'), input);
      expect(input.metadata?.resourceVersion).toBeUndefined();
      expect(kv.modRevision).toBeGreaterThan(0);
      expect(kv.createRevision).toBe(kv.modRevision);
      expect(kv.object.metadata?.resourceVersion).toBe(String(kv.modRevision));
      expect(JSON.parse(kv.bytes.toString())).toEqual(kv.object);
      expect(await store.get(podKey('a'))).toEqual(kv);
      expect(await store.get(podKey('nope'))).toBeUndefined();
      expect((await rejection(store.create(podKey('a'), pod('a')))).code).toBe('KeyExists');
      await store.close();
    });

    it('lists a prefix sorted by key at the current revision', async () => {
      const store = await backend.open();
      for (const n of ['c', 'a', 'b']) await store.create(podKey(n), pod(n));
      await store.create('/registry/services/default/a', { kind: 'Service', metadata: { name: 'a' } });
      const list = await store.list('/registry/pods/');
      expect(list.items.map((kv) => kv.key)).toEqual([podKey('a'), podKey('b'), podKey('c')]);
      expect(list.revision).toBe(store.revision());
      await store.close();
    });

    it('guaranteedUpdate writes a new revision and keeps the create revision', async () => {
      const store = await backend.open();
      const created = await store.create(podKey('a'), pod('a'));
      const updated = await store.guaranteedUpdate(podKey('a'), (cur) => ({ ...cur!.object, spec: { x: 1 } }));
      expect(updated.modRevision).toBe(created.modRevision + 1);
      expect(updated.createRevision).toBe(created.modRevision);
      expect(updated.object.spec).toEqual({ x: 1 });
      expect(updated.object.metadata?.resourceVersion).toBe(String(updated.modRevision));
      expect(store.revision()).toBe(updated.modRevision);
      await store.close();
    });

    it('guaranteedUpdate: not found, ignoreNotFound creates, identical object writes nothing', async () => {
      const store = await backend.open();
      expect((await rejection(store.guaranteedUpdate(podKey('a'), (c) => c!.object))).code).toBe('KeyNotFound');
      const created = await store.guaranteedUpdate(podKey('a'), (cur) => {
        expect(cur).toBeUndefined();
        return pod('a');
      }, { ignoreNotFound: true });
      expect(created.createRevision).toBe(created.modRevision);
      const same = await store.guaranteedUpdate(podKey('a'), (cur) => cur!.object);
      expect(same).toEqual(created);
      expect(store.revision()).toBe(created.modRevision);
      await store.close();
    });

    it('guaranteedUpdate fails a stale expectedRevision and retries tryUpdate on a concurrent write', async () => {
      const store = await backend.open();
      const created = await store.create(podKey('a'), pod('a', { n: 0 }));
      await store.guaranteedUpdate(podKey('a'), (c) => ({ ...c!.object, n: 1 }));
      const stale = store.guaranteedUpdate(podKey('a'), (c) => c!.object, { expectedRevision: created.modRevision });
      expect((await rejection(stale)).code).toBe('Conflict');

      let calls = 0;
      const result = await store.guaranteedUpdate(podKey('a'), async (cur) => {
        calls++;
        if (calls === 1) await store.guaranteedUpdate(podKey('a'), (c) => ({ ...c!.object, other: true }));
        return { ...cur!.object, n: (cur!.object.n as number) + 1 };
      });
      expect(calls).toBe(2);
      expect(result.object).toMatchObject({ n: 2, other: true });
      await store.close();
    });

    it('concurrent guaranteedUpdates never lose an increment', async () => {
      const store = await backend.open();
      await store.create(podKey('a'), pod('a', { n: 0 }));
      await Promise.all(Array.from({ length: 50 }, () =>
        store.guaranteedUpdate(podKey('a'), async (c) => ({ ...c!.object, n: (c!.object.n as number) + 1 }))));
      expect((await store.get(podKey('a')))!.object.n).toBe(50);
      await store.close();
    });

    it('deletes with expectedRevision and precondition; the result carries the delete revision', async () => {
      const store = await backend.open();
      const created = await store.create(podKey('a'), pod('a'));
      await store.guaranteedUpdate(podKey('a'), (c) => ({ ...c!.object, n: 1 }));
      expect((await rejection(store.delete(podKey('a'), { expectedRevision: created.modRevision }))).code).toBe('Conflict');
      const veto = new Error('has finalizers');
      await expect(store.delete(podKey('a'), { precondition: () => { throw veto; } })).rejects.toBe(veto);
      expect(await store.get(podKey('a'))).toBeDefined();
      const deleted = await store.delete(podKey('a'), { precondition: (cur) => expect(cur.object.n).toBe(1) });
      expect(deleted.modRevision).toBe(store.revision());
      expect(deleted.createRevision).toBe(created.modRevision);
      expect(deleted.object).toMatchObject({ n: 1, metadata: { resourceVersion: String(deleted.modRevision) } });
      expect(await store.get(podKey('a'))).toBeUndefined();
      expect((await rejection(store.delete(podKey('a')))).code).toBe('KeyNotFound');
      await store.close();
    });

    it('group commit: 200 concurrent creates are acknowledged with distinct increasing revisions', async () => {
      const store = await backend.open();
      const base = store.revision();
      const acked: number[] = [];
      const results = await Promise.all(Array.from({ length: 200 }, (_, i) =>
        store.create(podKey(`p${i}`), pod(`p${i}`)).then((kv) => {
          acked.push(kv.modRevision);
          return kv;
        })));
      const expected = Array.from({ length: 200 }, (_, i) => base + 1 + i);
      if (backend.unorderedConcurrentWrites) {
        expect(results.map((kv) => kv.modRevision).sort((a, b) => a - b)).toEqual(expected);
      } else {
        expect(results.map((kv) => kv.modRevision)).toEqual(expected);
        expect(acked).toEqual([...acked].sort((a, b) => a - b));
      }
      expect(store.revision()).toBe(base + 200);
      expect((await store.list('/registry/pods/')).items).toHaveLength(200);
      await store.close();
    });

    it('watch from 0 sees only new events, filtered by prefix, with prev', async () => {
      const store = await backend.open();
      await store.create(podKey('old'), pod('old'));
      const w = collect(store, '/registry/pods/', 0);
      await store.create('/registry/services/default/s', { kind: 'Service', metadata: { name: 's' } });
      const a = await store.create(podKey('a'), pod('a'));
      const b = await store.guaranteedUpdate(podKey('a'), (c) => ({ ...c!.object, n: 1 }));
      const d = await store.delete(podKey('a'));
      await w.until(3);
      expect(w.events.map((e) => [e.type, e.revision])).toEqual([
        ['ADDED', a.modRevision], ['MODIFIED', b.modRevision], ['DELETED', d.modRevision]]);
      expect(w.events[1].prev).toEqual(a);
      expect(w.events[2].prev).toEqual(b);
      expect(w.events[2].kv).toEqual(d);
      w.stop();
      expect(w.closes).toEqual([undefined]);
      await store.close();
    });

    it('watches of every prefix shape get exactly the events under it: a resource, a namespace, a name prefix, all', async () => {
      const store = await backend.open();
      const prefixes = ['/registry/pods/', '/registry/pods/default/', '/registry/pods/default/we', '/registry/', '', '/registry/pods/other/'];
      const watches = prefixes.map((p) => collect(store, p, 0));
      const keys = [podKey('web-1'), podKey('db-1'), '/registry/pods/other/web-2', '/registry/services/default/web', '/registry/podsecurity/x'];
      for (const key of keys) await store.create(key, pod(key.split('/').pop()!));
      await watches[4]!.until(keys.length); // the '' watch, which gets everything
      await Promise.all(prefixes.map((p, i) => watches[i]!.until(keys.filter((k) => k.startsWith(p)).length)));
      prefixes.forEach((p, i) => expect(watches[i]!.events.map((e) => e.key), p).toEqual(keys.filter((k) => k.startsWith(p))));
      for (const w of watches) w.stop();
      await store.close();
    });

    it('watch replays kept events then goes live without gaps or duplicates under concurrent writes', async () => {
      const store = await backend.open();
      const base = store.revision();
      let w: ReturnType<typeof collect> | undefined;
      const writer = async (tag: string, onStep?: (i: number) => void): Promise<void> => {
        for (let i = 0; i < 60; i++) {
          await store.create(podKey(`${tag}${i}`), pod(`${tag}${i}`));
          onStep?.(i);
        }
      };
      let from = 0;
      await Promise.all([
        writer('a', (i) => {
          if (i === 20) w = collect(store, '/registry/pods/', (from = store.revision() - 10));
        }),
        writer('b'),
        writer('c'),
      ]);
      const last = store.revision();
      expect(last).toBe(base + 180);
      await w!.until(last - from);
      expect(w!.events.map((e) => e.revision)).toEqual(Array.from({ length: last - from }, (_, i) => from + 1 + i));
      w!.stop();
      await store.close();
    });

    it('progress notify: once live, then after every batch, also for writes under other prefixes', async () => {
      const store = await backend.open();
      const a = await store.create(podKey('a'), pod('a'));
      const progress: number[] = [];
      let live!: () => void;
      const isLive = new Promise<void>((resolve) => (live = resolve));
      const controller = new AbortController();
      store.watch('/registry/pods/', { fromRevision: 0, signal: controller.signal }, {
        onEvent: () => {},
        onClose: () => {},
        onProgress: (rev) => {
          progress.push(rev);
          live();
        },
      });
      await isLive;
      expect(progress).toEqual([a.modRevision]);
      const s = await store.create('/registry/services/default/s', { kind: 'Service', metadata: { name: 's' } });
      expect(progress).toEqual([a.modRevision, s.modRevision]);
      controller.abort();
      await store.close();
    });

    it('compaction: older watches fail synchronously with Compacted; newer ones replay', async () => {
      const store = await backend.open();
      for (let i = 0; i < 10; i++) await store.create(podKey(`p${i}`), pod(`p${i}`));
      const rev = store.revision();
      await store.compact(rev - 3);
      expect(store.compactedRevision()).toBe(rev - 3);
      let thrown: unknown;
      try {
        store.watch('/registry/pods/', { fromRevision: rev - 4, signal: new AbortController().signal }, { onEvent: () => {}, onClose: () => {} });
      } catch (err) {
        thrown = err;
      }
      expect(isStorageError(thrown, 'Compacted')).toBe(true);
      expect((thrown as StorageError).revision).toBe(rev - 3);
      const w = collect(store, '/registry/pods/', rev - 3);
      await w.until(3);
      expect(w.events.map((e) => e.revision)).toEqual([rev - 2, rev - 1, rev]);
      await store.compact(1); // never goes backwards
      expect(store.compactedRevision()).toBe(rev - 3);
      w.stop();
      await store.close();
    });

    it('automatic compaction keeps the last N revisions', async () => {
      const store = await backend.open({ compaction: { keepRevisions: 5, intervalMs: 5 } });
      for (let i = 0; i < 20; i++) await store.create(podKey(`p${i}`), pod(`p${i}`));
      await vi.waitFor(() => expect(store.compactedRevision()).toBe(store.revision() - 5));
      await store.close();
    });

    it('automatic compaction does not wait for the timer when history grows past twice what is kept', async () => {
      const store = await backend.open({ compaction: { keepRevisions: 5, intervalMs: 3_600_000 } });
      const base = store.revision();
      for (let i = 0; i < 11; i++) await store.create(podKey(`p${i}`), pod(`p${i}`));
      expect(store.compactedRevision()).toBe(base + 6);
      await store.close();
    });

    it('close ends watches and refuses writes', async () => {
      const store = await backend.open();
      const w = collect(store, '/registry/', 0);
      await store.create(podKey('a'), pod('a'));
      await w.until(1);
      await store.close();
      expect(w.closes).toEqual([undefined]);
      expect((await rejection(store.create(podKey('b'), pod('b')))).code).toBe('Unavailable');
    });

    if (backend.reopen && backend.historyStartsAtOpen) {
      const reopen = backend.reopen.bind(backend);
      it('reopening keeps objects and the revision; history starts at the reopen', async () => {
        let store = await backend.open();
        for (let i = 0; i < 3; i++) await store.create(podKey(`p${i}`), pod(`p${i}`));
        await store.delete(podKey('p1'));
        const before = await store.list('/registry/');
        const rev = store.revision();
        store = await reopen(store);
        expect(store.revision()).toBe(rev);
        expect(store.compactedRevision()).toBe(rev);
        const after = await store.list('/registry/');
        expect(after.items.map((kv) => [kv.key, kv.modRevision, kv.createRevision, kv.bytes.toString()]))
          .toEqual(before.items.map((kv) => [kv.key, kv.modRevision, kv.createRevision, kv.bytes.toString()]));
        expect(() => store.watch('/registry/pods/', { fromRevision: rev - 1, signal: new AbortController().signal }, { onEvent: () => {}, onClose: () => {} }))
          .toThrow(expect.objectContaining({ code: 'Compacted', revision: rev }));
        const w = collect(store, '/registry/pods/', rev);
        const next = await store.guaranteedUpdate(podKey('p0'), (c) => ({ ...c!.object, n: 1 }));
        expect(next.modRevision).toBe(rev + 1);
        await w.until(1);
        expect(w.events[0]).toMatchObject({ type: 'MODIFIED', revision: rev + 1, prev: { modRevision: before.items[0].modRevision } });
        w.stop();
        await store.close();
      });
    } else if (backend.reopen) {
      const reopen = backend.reopen.bind(backend);
      it('reopening keeps objects, the revision, compaction and kept events', async () => {
        let store = await backend.open();
        const base = store.revision();
        for (let i = 0; i < 5; i++) await store.create(podKey(`p${i}`), pod(`p${i}`));
        await store.guaranteedUpdate(podKey('p1'), (c) => ({ ...c!.object, n: 1 }));
        await store.delete(podKey('p2'));
        await store.compact(base + 3);
        const before = await store.list('/registry/');
        const rev = store.revision();
        store = await reopen(store);
        expect(store.revision()).toBe(rev);
        expect(store.compactedRevision()).toBe(base + 3);
        const after = await store.list('/registry/');
        expect(after.items.map((kv) => [kv.key, kv.modRevision, kv.createRevision, kv.bytes.toString()]))
          .toEqual(before.items.map((kv) => [kv.key, kv.modRevision, kv.createRevision, kv.bytes.toString()]));
        const w = collect(store, '/registry/pods/', base + 3);
        await w.until(rev - base - 3);
        expect(w.events.map((e) => [e.type, e.revision - base])).toEqual([
          ['ADDED', 4], ['ADDED', 5], ['MODIFIED', 6], ['DELETED', 7]]);
        expect(w.events[2].prev).toMatchObject({ modRevision: base + 2, createRevision: base + 2, object: { metadata: { name: 'p1' } } });
        expect(w.events[3].kv.object.metadata?.resourceVersion).toBe(String(base + 7));
        const next = await store.create(podKey('new'), pod('new'));
        expect(next.modRevision).toBe(rev + 1);
        await w.until(rev - base - 2);
        w.stop();
        // Compacting past an update and a delete folds them into the kept state; a later update's
        // previous state survives another reopen.
        await store.compact(store.revision());
        await store.guaranteedUpdate(podKey('p1'), (c) => ({ ...c!.object, n: 2 }));
        const folded = await store.list('/registry/');
        store = await reopen(store);
        expect((await store.list('/registry/')).items.map((kv) => [kv.key, kv.modRevision, kv.bytes.toString()]))
          .toEqual(folded.items.map((kv) => [kv.key, kv.modRevision, kv.bytes.toString()]));
        expect(folded.items.map((kv) => kv.key)).not.toContain(podKey('p2'));
        const w2 = collect(store, '/registry/pods/', store.compactedRevision());
        await w2.until(1);
        expect(w2.events[0]).toMatchObject({ type: 'MODIFIED', prev: { modRevision: base + 6, object: { n: 1 } }, kv: { object: { n: 2 } } });
        w2.stop();
        await store.close();
      });
    }
  });
}
