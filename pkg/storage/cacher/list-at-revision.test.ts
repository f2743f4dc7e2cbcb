// Lists at an older revision (a paged list's snapshot) rebuilt from the cacher's history.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { isStorageError } from '../errors.js';
import { createMemoryStore } from '../memory/store.js';
import { Cacher } from './cacher.js';

const PODS = '/registry/pods/';
const key = (name: string): string => `${PODS}ns/${name}`;
const pod = (name: string, app = 'web'): KubeObject => ({ kind: 'Pod', metadata: { name, namespace: 'ns', labels: { app } } });
const names = (items: { object: KubeObject }[]) => items.map((kv) => `${kv.object.metadata?.name}@${kv.object.metadata?.resourceVersion}`);

describe('Cacher.list at a revision', () => {
  it('undoes later creates, updates and deletes, pages, and refuses revisions older than the history', async () => {
    const store = createMemoryStore();
    for (const n of ['a', 'b', 'c', 'd']) await store.create(key(n), pod(n));
    const cacher = new Cacher(store, PODS, { historySize: 6 });
    await cacher.start();
    const at = store.revision(); // 4: a b c d
    await store.delete(key('b'));
    await store.guaranteedUpdate(key('c'), (cur) => ({ ...cur!.object, metadata: { ...cur!.object.metadata, labels: { app: 'db' } } }));
    await store.create(key('e'), pod('e'));
    await store.create(key('bb'), pod('bb'));

    const then = cacher.list({ prefix: PODS, revision: at });
    expect(then.revision).toBe(at);
    expect(names(then.items)).toEqual(['a@1', 'b@2', 'c@3', 'd@4']);
    expect(names(cacher.list({ prefix: PODS }).items)).toEqual(['a@1', 'bb@8', 'c@6', 'd@4', 'e@7']);

    const isWeb = (o: KubeObject): boolean => o.metadata?.labels?.app === 'web';
    const page1 = cacher.list({ prefix: PODS, revision: at, predicate: isWeb, limit: 2 });
    expect(names(page1.items)).toEqual(['a@1', 'b@2']);
    expect([page1.nextKey, page1.remaining]).toEqual([key('b'), 2]);
    const page2 = cacher.list({ prefix: PODS, revision: at, predicate: isWeb, limit: 2, startKey: `${page1.nextKey}\0` });
    expect(names(page2.items)).toEqual(['c@3', 'd@4']);
    expect(page2.nextKey).toBeUndefined();

    for (let i = 0; i < 3; i++) await store.create(key(`z${i}`), pod(`z${i}`));
    expect(cacher.oldestRevision()).toBe(5);
    let thrown: unknown;
    try {
      cacher.list({ prefix: PODS, revision: at });
    } catch (err) {
      thrown = err;
    }
    expect(isStorageError(thrown, 'Compacted')).toBe(true);
    cacher.stop();
  });
});
