// Group commit and durability ordering, with a journal whose writes complete when the test says so.
import { describe, expect, it } from 'vitest';
import type { StoreEvent } from '../interface.js';
import type { Journal } from './journal.js';
import { RevisionedStore } from './revisioned-store.js';

function gatedJournal() {
  const batches: number[][] = [];
  const gates: { resolve: () => void; reject: (err: Error) => void }[] = [];
  const journal: Journal = {
    append: (batch) => {
      batches.push(batch.map((ev) => ev.revision));
      return new Promise<void>((resolve, reject) => gates.push({ resolve, reject }));
    },
    compact: async () => undefined,
    close: async () => undefined,
  };
  /** Resolves once the journal has been asked to write `n` batches. */
  const appended = async (n: number): Promise<void> => {
    while (batches.length < n) await new Promise((resolve) => setImmediate(resolve));
  };
  return { journal, batches, gates, appended };
}

const empty = () => ({ objects: new Map(), events: [], revision: 0, compacted: 0 });
const obj = (name: string) => ({ kind: 'Pod', metadata: { name } });

describe('RevisionedStore group commit', () => {
  it('queues writes behind the batch in flight and commits them together, durable before visible', async () => {
    const { journal, batches, gates, appended } = gatedJournal();
    const store = new RevisionedStore(journal, empty());
    const seen: StoreEvent[] = [];
    store.watch('/', { fromRevision: 0, signal: new AbortController().signal }, { onEvent: (ev) => seen.push(ev), onClose: () => {} });

    const first = store.create('/a', obj('a'));
    await appended(1);
    const rest = ['/b', '/c', '/d'].map((k) => store.create(k, obj(k)));
    // Pending writes already count for compare-and-swap, but nobody reads them yet.
    await expect(store.create('/b', obj('b'))).rejects.toMatchObject({ code: 'KeyExists' });
    expect(await store.get('/a')).toBeUndefined();
    expect(store.revision()).toBe(0);
    expect(seen).toEqual([]);

    gates[0].resolve();
    expect((await first).modRevision).toBe(1);
    expect(seen.map((e) => e.revision)).toEqual([1]);
    await appended(2);
    expect(batches).toEqual([[1], [2, 3, 4]]);
    gates[1].resolve();
    expect((await Promise.all(rest)).map((kv) => kv.modRevision)).toEqual([2, 3, 4]);
    expect(seen.map((e) => e.revision)).toEqual([1, 2, 3, 4]);
    expect(store.revision()).toBe(4);
  });

  it('a no-op update of a pending write waits until that write is durable', async () => {
    const { journal, gates, appended } = gatedJournal();
    const store = new RevisionedStore(journal, empty());
    const created = store.create('/a', obj('a'));
    await appended(1);
    let done = false;
    const same = store.guaranteedUpdate('/a', (cur) => cur!.object).then((kv) => ((done = true), kv));
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    gates[0].resolve();
    expect(await same).toBe(await created);
  });

  it('a failed batch fails its writes and everything queued, then the store refuses writes', async () => {
    const { journal, gates, appended } = gatedJournal();
    const store = new RevisionedStore(journal, empty());
    const closes: (Error | undefined)[] = [];
    store.watch('/', { fromRevision: 0, signal: new AbortController().signal }, { onEvent: () => {}, onClose: (err) => closes.push(err) });
    const first = store.create('/a', obj('a'));
    await appended(1);
    const queued = store.create('/b', obj('b'));
    gates[0].reject(new Error('disk full'));
    await expect(first).rejects.toMatchObject({ code: 'Unavailable' });
    await expect(queued).rejects.toMatchObject({ code: 'Unavailable' });
    await expect(store.create('/c', obj('c'))).rejects.toMatchObject({ code: 'Unavailable' });
    expect(closes).toHaveLength(1);
    expect(closes[0]?.message).toContain('disk full');
    expect(store.revision()).toBe(0);
  });

  it('compactions reach the journal one at a time, in order', async () => {
    const calls: string[] = [];
    const gates: (() => void)[] = [];
    const journal: Journal = {
      append: async () => undefined,
      compact: (from, to) => {
        calls.push(`${from}-${to}`);
        return new Promise<void>((resolve) => gates.push(resolve));
      },
      close: async () => undefined,
    };
    const store = new RevisionedStore(journal, empty());
    for (let i = 0; i < 6; i++) await store.create(`/k${i}`, obj(`k${i}`));
    const first = store.compact(2);
    const second = store.compact(5);
    expect(store.compactedRevision()).toBe(5);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual(['0-2']);
    gates[0]();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual(['0-2', '2-5']);
    gates[1]();
    await second;
  });
});
