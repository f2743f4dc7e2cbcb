// Reflectors and informers against a real apiserver: a watch the server closes every second (timeoutSeconds=1)
// is resumed from the last resourceVersion without missing or repeating events and without re-listing; indexers
// follow add/update/delete; watch-list (sendInitialEvents) syncs; the factory shares one informer per resource.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client, DeletedFinalStateUnknown, indexByNodeName, indexByOwnerUid, loadKubeconfig, NODE_NAME_INDEX, OWNER_UID_INDEX,
  Reflector, Resources, SharedIndexInformer, SharedInformerFactory, type KubeObject, type ListerWatcher, type ReflectorStore,
} from '../../pkg/client/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
let c: Client;

beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory' });
  c = new Client({ ...(await loadKubeconfig(s.kubeconfig)), qps: 0 });
  for (const ns of ['refl', 'inf', 'wl', 'fac']) await c.namespaces().create({ metadata: { name: ns } });
});
afterAll(async () => {
  await c?.close();
  await s?.close();
});

const waitFor = async (pred: () => boolean, what: string, timeoutMs = 15_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('Reflector over HTTPS', () => {
  it('survives the server closing the watch every second and misses nothing', async () => {
    const cms = c.configMaps('refl');
    let lists = 0;
    let watches = 0;
    const lw: ListerWatcher = {
      list: (o) => { lists++; return cms.list(o); },
      watch: (o) => { watches++; return cms.watch(o); },
    };
    const seen: string[] = [];
    const store: ReflectorStore = {
      replace: (items) => { for (const i of items) seen.push(`init ${i.metadata!.name}`); },
      add: (o) => seen.push(`ADDED ${o.metadata!.name}`),
      update: (o) => seen.push(`MODIFIED ${o.metadata!.name} ${o.data?.n}`),
      delete: (o) => seen.push(`DELETED ${o.metadata!.name}`),
    };
    await cms.create({ metadata: { name: 'before' } });
    const ac = new AbortController();
    const r = new Reflector(lw, store, { minWatchTimeoutSeconds: 1, random: () => 0 });
    const run = r.run(ac.signal);
    await waitFor(() => watches >= 1, 'first watch');
    const expected: string[] = ['init before'];
    const started = Date.now();
    for (let i = 0; Date.now() - started < 3_000 || i < 10; i++) {
      await cms.create({ metadata: { name: `c${i}` }, data: { n: '0' } });
      expected.push(`ADDED c${i}`);
      await cms.patch(`c${i}`, 'merge', { data: { n: '1' } });
      expected.push(`MODIFIED c${i} 1`);
      if (i % 3 === 0) { await cms.delete(`c${i}`); expected.push(`DELETED c${i}`); }
      await new Promise((res) => setTimeout(res, 50));
    }
    await waitFor(() => seen.length >= expected.length, 'every event');
    expect(seen).toEqual(expected);
    expect(watches).toBeGreaterThanOrEqual(3); // the server closed it at least twice
    expect(lists).toBe(1);
    expect(Number(r.lastSyncResourceVersion())).toBeGreaterThan(0);
    ac.abort();
    await run;
  });
});

describe('SharedIndexInformer over HTTPS', () => {
  it('keeps indexes by namespace, owner and node current through add/update/delete', async () => {
    const pods = c.pods('inf');
    const inf = new SharedIndexInformer({ list: (o) => pods.list(o), watch: (o) => pods.watch(o) }, {
      indexers: { [NODE_NAME_INDEX]: indexByNodeName, [OWNER_UID_INDEX]: indexByOwnerUid, byImage: (p) => p.spec.containers.map((x: { image: string }) => x.image) },
    });
    const log: string[] = [];
    inf.addEventHandler({
      onAdd: (p) => log.push(`add ${p.metadata!.name}`),
      onUpdate: (a, b) => { if (a.metadata!.resourceVersion !== b.metadata!.resourceVersion) log.push(`update ${b.metadata!.name}`); },
      onDelete: (p) => log.push(`delete ${(p instanceof DeletedFinalStateUnknown ? p.obj : p).metadata!.name}`),
    });
    const ac = new AbortController();
    const run = inf.run(ac.signal);
    expect(await inf.waitForSync()).toBe(true);
    await c.nodes().create({ metadata: { name: 'inf-node' } });
    const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: '11111111-2222-3333-4444-555555555555', controller: true };
    await pods.create({ metadata: { name: 'p1', ownerReferences: [owner] }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    await pods.create({ metadata: { name: 'p2' }, spec: { containers: [{ name: 'c', image: 'redis' }] } });
    await waitFor(() => inf.indexer.size === 2, 'two pods cached');
    expect(inf.indexer.byIndex(OWNER_UID_INDEX, owner.uid).map((p) => p.metadata!.name)).toEqual(['p1']);
    expect(inf.indexer.byIndex('byImage', 'redis').map((p) => p.metadata!.name)).toEqual(['p2']);
    expect(inf.indexer.byIndex('namespace', 'inf')).toHaveLength(2);
    await pods.bind('p1', 'inf-node');
    await waitFor(() => inf.indexer.byIndex(NODE_NAME_INDEX, 'inf-node').length === 1, 'p1 indexed under its node');
    await pods.delete('p2', { gracePeriodSeconds: 0 });
    await waitFor(() => inf.indexer.size === 1, 'p2 gone');
    expect(inf.lister().namespace('inf').get('p1')?.spec.nodeName).toBe('inf-node');
    // p2, unscheduled, is marked before it goes (deletionTimestamp, a period of 0), as upstream's graceful deletion does
    expect(log).toEqual(['add p1', 'add p2', 'update p1', 'update p2', 'delete p2']);
    ac.abort();
    await run;
  });

  it('syncs through watch-list (sendInitialEvents) and then streams changes', async () => {
    const cms = c.configMaps('wl');
    await cms.create({ metadata: { name: 'one' } });
    await cms.create({ metadata: { name: 'two' } });
    let lists = 0;
    const inf = new SharedIndexInformer<KubeObject>({ list: (o) => { lists++; return cms.list(o); }, watch: (o) => cms.watch(o) }, { useWatchList: true });
    const ac = new AbortController();
    const run = inf.run(ac.signal);
    expect(await inf.waitForSync()).toBe(true);
    expect(lists).toBe(0);
    expect(inf.indexer.has('wl/one') && inf.indexer.has('wl/two')).toBe(true);
    expect(inf.lastSyncResourceVersion()).not.toBe('');
    await cms.create({ metadata: { name: 'three' } });
    await waitFor(() => inf.indexer.has('wl/three'), 'three');
    ac.abort();
    await run;
  });
});

describe('SharedInformerFactory', () => {
  it('hands out one informer per resource and waits for all caches', async () => {
    const f = new SharedInformerFactory(c, { namespace: 'fac' });
    const a = f.informerFor(Resources.configMaps);
    const b = f.informerFor(Resources.configMaps, { indexers: { byKey: (o) => Object.keys(o.data ?? {}) } });
    expect(a).toBe(b);
    expect(f.pods()).toBe(f.informerFor(Resources.pods));
    await c.configMaps('fac').create({ metadata: { name: 'x' }, data: { k: 'v' } });
    const ac = new AbortController();
    f.start(ac.signal);
    expect(await f.waitForCacheSync()).toBe(true);
    expect(a.indexer.byIndex('byKey', 'k').map((o) => o.metadata!.name)).toEqual(['x']);
    ac.abort();
    await f.shutdown();
  });
});
