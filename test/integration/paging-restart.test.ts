// Paged and Exact lists across an apiserver restart on the same data dir: upstream serves them from etcd at the
// requested revision, which a restart does not change; only a revision compacted meanwhile is 410 Expired. Watches
// from before the restart are 410: upstream's watch cache keeps no events older than its list.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openLevelStore } from '../../pkg/storage/leveldb/store.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

const servers: TestApiServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
  if (servers[0]) await rm(servers[0].dataDir, { recursive: true, force: true });
});

const BASE = '/api/v1/namespaces/r-page/configmaps';
const cm = (name: string, i: number) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { i: String(i) } });
const pad = (i: number): string => String(i).padStart(3, '0');
const summary = (items: any[]): string[] => items.map((o) => `${o.metadata.name}=${o.data.i}@${o.metadata.resourceVersion}`);

async function ok(srv: TestApiServer, method: string, path: string, body?: unknown): Promise<any> {
  const r = await srv.api(method, path, body);
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  return r.body;
}

// The test compacts the LevelDB store between the two runs; the etcd3 backend does not recover history at all.
describe.skipIf(process.env.MINI_KUBE_TEST_ETCD)('lists at an older revision across an apiserver restart', () => {
  it('continues a paged list from before the restart, lists Exact at a kept revision, and 410s a compacted one', async () => {
    const first = await startTestApiServer({ controllers: [] });
    servers.push(first);
    await ok(first, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'r-page' } });
    await ok(first, 'POST', BASE, cm('early', 0));
    const early = (await ok(first, 'GET', BASE)).metadata.resourceVersion as string;
    const compactTo = Number((await ok(first, 'POST', BASE, cm('mark', 0))).metadata.resourceVersion);
    for (let i = 0; i < 30; i++) await ok(first, 'POST', BASE, cm(`cm-${pad(i)}`, i));

    const page1 = await ok(first, 'GET', `${BASE}?limit=10`);
    const snapshot = page1.metadata.resourceVersion as string;
    const expected = summary((await ok(first, 'GET', `${BASE}?resourceVersion=${snapshot}&resourceVersionMatch=Exact`)).items);
    expect(expected).toHaveLength(32);
    // After the snapshot: a page read at it shows none of these.
    await ok(first, 'DELETE', `${BASE}/cm-015`);
    await ok(first, 'PUT', `${BASE}/cm-020`, { ...cm('cm-020', 99), metadata: { name: 'cm-020' } });
    await ok(first, 'POST', BASE, cm('cm-100', 100));
    await ok(first, 'POST', BASE, cm('aaa', 0));
    await first.stop();

    // etcd compacted meanwhile: revisions older than `compactTo` are gone, the later ones kept.
    const store = await openLevelStore(join(first.dataDir, 'store'));
    await store.compact(compactTo);
    await store.close();

    const second = await startTestApiServer({ controllers: [], dataDir: first.dataDir });
    servers.push(second);
    const seen = summary(page1.items);
    for (let token: string | undefined = page1.metadata.continue; token;) {
      const page = await ok(second, 'GET', `${BASE}?limit=10&continue=${encodeURIComponent(token)}`);
      expect(page.metadata.resourceVersion).toBe(snapshot);
      seen.push(...summary(page.items));
      token = page.metadata.continue;
    }
    expect(seen).toEqual(expected);

    const exact = await ok(second, 'GET', `${BASE}?resourceVersion=${snapshot}&resourceVersionMatch=Exact`);
    expect([exact.metadata.resourceVersion, summary(exact.items)]).toEqual([snapshot, expected]);
    const atMark = await ok(second, 'GET', `${BASE}?resourceVersion=${compactTo}&resourceVersionMatch=Exact`);
    expect(summary(atMark.items)).toEqual(expected.filter((s) => /^(early|mark)=/.test(s)));

    // a watch from before the restart is not: upstream's watch cache starts at its list, and answers 410 in the
    // stream (an informer lists again); a watch-list's initial events are the current state whatever it names
    for (const q of ['', '&sendInitialEvents=false&resourceVersionMatch=NotOlderThan']) {
      const watched = await second.api('GET', `${BASE}?watch=true&timeoutSeconds=2&resourceVersion=${snapshot}${q}`);
      expect(watched.status).toBe(200);
      expect(watched.body).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: expect.stringMatching(new RegExp(`^too old resource version: ${snapshot} \\(\\d+\\)$`)) } });
    }
    const list = await second.api('GET', `${BASE}?watch=true&resourceVersion=${snapshot}&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1`);
    const events = String(list.body).trim().split('\n').map((l) => JSON.parse(l));
    expect(events.filter((e) => e.type === 'ADDED')).toHaveLength(33); // the current state: one deleted and two created since
    expect(events.at(-1)).toMatchObject({ type: 'BOOKMARK', object: { metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } } } });

    const gone = await second.api('GET', `${BASE}?resourceVersion=${early}&resourceVersionMatch=Exact`);
    expect(gone.status).toBe(410);
    expect(gone.body).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410, message: 'The resourceVersion for the provided list is too old.' });
  });
});
