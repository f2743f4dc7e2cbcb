import { describe, expect, it } from 'vitest';
import { selectorFromSet } from '../apimachinery/labels.js';
import { FakeClock } from './clock.js';
import { SharedIndexInformer } from './informer.js';
import { DeletedFinalStateUnknown, Indexer, NODE_NAME_INDEX, OWNER_UID_INDEX, indexByNodeName, indexByOwnerUid } from './store.js';
import { FakeListerWatcher, obj, until } from './testing/fake-lw.js';
import type { KubeObject } from './types.js';

describe('Indexer', () => {
  it('indexes by namespace, owner uid, node name and custom functions, and keeps indexes current', () => {
    const ix = new Indexer<KubeObject>(undefined, { [OWNER_UID_INDEX]: indexByOwnerUid, [NODE_NAME_INDEX]: indexByNodeName });
    ix.add(obj('a', '1', { spec: { nodeName: 'n1' } }));
    ix.add({ ...obj('b', '2', { spec: { nodeName: 'n1' } }), metadata: { name: 'b', namespace: 'x', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'rs-1' }] } });
    expect(ix.byIndex(NODE_NAME_INDEX, 'n1').map((o) => o.metadata!.name).sort()).toEqual(['a', 'b']);
    expect(ix.byIndex(OWNER_UID_INDEX, 'rs-1').map((o) => o.metadata!.name)).toEqual(['b']);
    ix.update(obj('a', '3', { spec: { nodeName: 'n2' } }));
    expect(ix.indexKeys(NODE_NAME_INDEX, 'n1')).toEqual(['x/b']);
    expect(ix.listIndexFuncValues(NODE_NAME_INDEX).sort()).toEqual(['n1', 'n2']);
    ix.addIndexers({ byRv: (o) => [o.metadata!.resourceVersion ?? ''] });
    expect(ix.byIndex('byRv', '3').map((o) => o.metadata!.name)).toEqual(['a']);
    ix.deleteKey('default/a');
    expect(ix.listIndexFuncValues(NODE_NAME_INDEX)).toEqual(['n1']);
    expect(() => ix.byIndex('nope', 'x')).toThrow(/does not exist/);
    expect(() => ix.addIndexers({ byRv: () => [] })).toThrow(/conflict/);
  });
});

describe('SharedIndexInformer', () => {
  it('with dropManagedFields caches objects without managedFields and asks its watches to leave them unparsed', async () => {
    const lw = new FakeListerWatcher();
    const managedFields = [{ manager: 'm', operation: 'Update' as const }];
    const withFields = (name: string, rv: string): KubeObject => { const o = obj(name, rv); o.metadata!.managedFields = managedFields; return o; };
    lw.items = [withFields('a', '1')];
    const inf = new SharedIndexInformer(lw, { clock: new FakeClock(), dropManagedFields: true });
    const ac = new AbortController();
    const run = inf.run(ac.signal);
    await inf.waitForSync();
    await until(() => lw.watches.length === 1);
    expect(lw.current.options.dropManagedFields).toBe(true);
    lw.current.send({ type: 'ADDED', object: withFields('b', '2') });
    await until(() => inf.indexer.list().length === 2);
    expect(inf.indexer.list().map((o) => o.metadata!.managedFields)).toEqual([undefined, undefined]);
    ac.abort();
    lw.current.end();
    await run;
  });

  it('delivers add/update/delete with old and new, and DeletedFinalStateUnknown for re-list gaps', async () => {
    const lw = new FakeListerWatcher();
    lw.items = [obj('a', '1'), obj('b', '2')];
    const clock = new FakeClock();
    const inf = new SharedIndexInformer(lw, { clock });
    const log: string[] = [];
    inf.addEventHandler({
      onAdd: (o, initial) => log.push(`add ${o.metadata!.name}${initial ? ' (initial)' : ''}`),
      onUpdate: (a, b) => log.push(`update ${a.metadata!.resourceVersion}->${b.metadata!.resourceVersion}`),
      onDelete: (o) => log.push(o instanceof DeletedFinalStateUnknown ? `gone ${o.key}` : `delete ${o.metadata!.name}`),
    });
    const ac = new AbortController();
    const run = inf.run(ac.signal);
    expect(await inf.waitForSync()).toBe(true);
    await until(() => lw.watches.length === 1);
    lw.current.send({ type: 'MODIFIED', object: obj('a', '3') });
    lw.current.send({ type: 'DELETED', object: obj('b', '4') });
    lw.current.send({ type: 'ADDED', object: obj('c', '5') });
    await until(() => log.length === 5);
    expect(inf.lister().namespace('default').list().map((o) => o.metadata!.name).sort()).toEqual(['a', 'c']);
    // a re-list that no longer has c
    lw.items = [obj('a', '3')];
    lw.current.send({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 410, reason: 'Expired' } });
    await until(() => clock.pending() > 0, 'backoff before the re-list');
    await clock.advance(2_000);
    await until(() => log.length === 7, 'relist notifications');
    expect(log).toEqual(['add a (initial)', 'add b (initial)', 'update 1->3', 'delete b', 'add c', 'gone default/c', 'update 3->3']);
    ac.abort();
    lw.current.end();
    await run;
  });

  it('replays the cache to late handlers, resyncs on the period, and lists by selector', async () => {
    const clock = new FakeClock();
    const lw = new FakeListerWatcher();
    lw.items = [obj('a', '1', { metadata: { name: 'a', namespace: 'default', labels: { app: 'x' } } }), obj('b', '2')];
    const inf = new SharedIndexInformer(lw, { clock });
    const ac = new AbortController();
    const run = inf.run(ac.signal);
    await inf.waitForSync();
    const log: string[] = [];
    const reg = inf.addEventHandler({ onAdd: (o) => log.push(`add ${o.metadata!.name}`), onUpdate: (o) => log.push(`resync ${o.metadata!.name}`) }, 30_000);
    expect(reg.hasSynced()).toBe(true);
    expect(log).toEqual(['add a', 'add b']);
    await clock.advance(30_000);
    expect(log.slice(2).sort()).toEqual(['resync a', 'resync b']);
    reg.remove();
    await clock.advance(60_000);
    expect(log).toHaveLength(4);
    expect(inf.lister().list(selectorFromSet({ app: 'x' })).map((o) => o.metadata!.name)).toEqual(['a']);
    expect(inf.lister().get('default/b')?.metadata?.name).toBe('b');
    ac.abort();
    await until(() => lw.watches.length > 0);
    lw.current.end();
    await run;
  });

  it('a throwing handler does not stop the others', async () => {
    const lw = new FakeListerWatcher();
    lw.items = [obj('a', '1')];
    const errors: unknown[] = [];
    const inf = new SharedIndexInformer(lw, { clock: new FakeClock(), onError: (e) => errors.push(e) });
    let seen = 0;
    inf.addEventHandler({ onAdd: () => { throw new Error('boom'); } });
    inf.addEventHandler({ onAdd: () => { seen++; } });
    const ac = new AbortController();
    const run = inf.run(ac.signal);
    await inf.waitForSync();
    expect(seen).toBe(1);
    expect(errors).toHaveLength(1);
    ac.abort();
    await until(() => lw.watches.length > 0);
    lw.current.end();
    await run;
  });
});
