// Watch over real HTTPS, read the way client-go reads it (a stream of JSON lines): resume without gaps or
// doubles under concurrent writes, 410 Expired past the history window, bookmarks, sendInitialEvents,
// timeoutSeconds, selectors (leaving is DELETED), one object, and Table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { openWatch, summarize, type WatchEvent } from '../support/watch-stream.js';

let s: TestApiServer;
/** A server whose watch caches keep only 20 events, to reach the edge of the window. */
let small: TestApiServer;
const HISTORY = 20;

beforeAll(async () => {
  // Apiservers alone (no serviceaccount controller): the tests count revisions, which its writes would shift.
  [s, small] = await Promise.all([
    startTestApiServer({ storageBackend: 'memory', controllers: [] }),
    startTestApiServer({ storageBackend: 'memory', watchCacheHistorySize: HISTORY, controllers: [] }),
  ]);
});
afterAll(async () => {
  await Promise.all([s?.close(), small?.close()]);
});

const cm = (name: string, labels: Record<string, string> = {}, data: Record<string, string> = {}) =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data });

async function namespace(srv: TestApiServer, name: string): Promise<void> {
  const r = await srv.api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  expect(r.status).toBe(201);
}

async function create(srv: TestApiServer, ns: string, obj: object): Promise<any> {
  const r = await srv.api('POST', `/api/v1/namespaces/${ns}/configmaps`, obj);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

async function mergePatch(srv: TestApiServer, ns: string, name: string, patch: object, resource = 'configmaps'): Promise<any> {
  const r = await srv.api('PATCH', `/api/v1/namespaces/${ns}/${resource}/${name}`, patch, { 'content-type': 'application/merge-patch+json' });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

const watch = (srv: TestApiServer, path: string, headers?: Record<string, string>) => openWatch(srv.url + path, srv.agent, headers);
const rvOf = (e: WatchEvent): number => Number(e.object.metadata.resourceVersion);

describe('watch over HTTPS', () => {
  it('resumes from a resourceVersion with exactly the later events, in order, under concurrent writes', async () => {
    await namespace(s, 'w-resume');
    await namespace(s, 'w-other');
    for (let i = 0; i < 10; i++) await create(s, 'w-resume', cm(`seed-${i}`));
    const from = Number((await s.api('GET', '/api/v1/namespaces/w-resume/configmaps')).body.metadata.resourceVersion);

    const acked = new Map<number, string>(); // rv -> "TYPE name" of every acknowledged create and update
    let deletes = 0;
    let ops = 0;
    let opened: ReturnType<typeof watch> | undefined;
    const worker = async (w: number): Promise<void> => {
      for (let i = 0; i < 12; i++) {
        const name = `w${w}-${i}`;
        const created = await create(s, 'w-resume', cm(name, {}, { n: '0' }));
        acked.set(Number(created.metadata.resourceVersion), `ADDED ${name}`);
        const updated = await mergePatch(s, 'w-resume', name, { data: { n: '1' } });
        acked.set(Number(updated.metadata.resourceVersion), `MODIFIED ${name}`);
        if (i % 3 === 0) {
          const r = await s.api('DELETE', `/api/v1/namespaces/w-resume/configmaps/${name}`);
          expect(r.status).toBe(200);
          deletes++;
        }
        await create(s, 'w-other', cm(name)); // same names elsewhere: must not leak into the namespaced watch
        // Open the resuming watch while the writers are half way through.
        if (++ops === 40) opened = watch(s, `/api/v1/namespaces/w-resume/configmaps?watch=1&resourceVersion=${from}`);
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
    const stream = await opened!;
    expect(stream.status).toBe(200);
    const total = acked.size + deletes;
    const events = await stream.count(total, undefined, 15_000);

    const revisions = events.map(rvOf);
    expect(revisions.every((rv, i) => rv > from && (i === 0 || rv > revisions[i - 1]))).toBe(true);
    const seen = new Map<number, string>();
    for (const e of events) if (e.type !== 'DELETED') seen.set(rvOf(e), `${e.type} ${e.object.metadata.name}`);
    expect(seen).toEqual(acked);
    expect(events.filter((e) => e.type === 'DELETED')).toHaveLength(deletes);
    expect(events.every((e) => e.object.metadata.namespace === 'w-resume')).toBe(true);
    // Per object: ADDED, MODIFIED, then DELETED for every third.
    const byName = new Map<string, string[]>();
    for (const e of events) byName.set(e.object.metadata.name, [...(byName.get(e.object.metadata.name) ?? []), e.type]);
    for (const [name, types] of byName) {
      const i = Number(name.split('-')[1]);
      expect(types, name).toEqual(i % 3 === 0 ? ['ADDED', 'MODIFIED', 'DELETED'] : ['ADDED', 'MODIFIED']);
    }
    // Nothing more, nothing doubled: the next event is the next write.
    const last = await create(s, 'w-resume', cm('sentinel'));
    await stream.count(total + 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(summarize(events.slice(total))).toEqual([`ADDED sentinel@${last.metadata.resourceVersion}`]);
    stream.close();
  });

  it('a resourceVersion older than the history window gets an ERROR event: 410 Expired, then the stream ends', async () => {
    await namespace(small, 'w-expired');
    const rvs: string[] = [];
    for (let i = 0; i < HISTORY + 10; i++) rvs.push((await create(small, 'w-expired', cm(`c${i}`))).metadata.resourceVersion);
    const stream = await watch(small, `/api/v1/namespaces/w-expired/configmaps?watch=1&resourceVersion=${rvs[0]}`);
    expect(stream.status).toBe(200);
    await stream.ended;
    expect(stream.events).toHaveLength(1);
    const [ev] = stream.events;
    expect(ev.type).toBe('ERROR');
    expect(ev.object).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410 });
    expect(ev.object.message).toMatch(new RegExp(`^too old resource version: ${rvs[0]} \\(\\d+\\)$`));

    // Inside the window the watch resumes exactly.
    const recent = await watch(small, `/api/v1/namespaces/w-expired/configmaps?watch=1&resourceVersion=${rvs[HISTORY + 4]}`);
    const got = await recent.count(5);
    expect(got.map((e) => e.object.metadata.resourceVersion)).toEqual(rvs.slice(HISTORY + 5));
    recent.close();

    // A list at an expired resourceVersion with Exact is 410 too (upstream: etcd's compacted error).
    const exact = await small.api('GET', `/api/v1/namespaces/w-expired/configmaps?resourceVersion=${rvs[0]}&resourceVersionMatch=Exact`);
    expect(exact.status).toBe(410);
    expect(exact.body).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410, message: 'The resourceVersion for the provided list is too old.' });
  });

  it('allowWatchBookmarks: a BOOKMARK with a resourceVersion before the timeout, and timeoutSeconds ends the stream', async () => {
    await namespace(s, 'w-bookmark');
    const c = await create(s, 'w-bookmark', cm('a'));
    const t0 = Date.now();
    const stream = await watch(s, `/api/v1/namespaces/w-bookmark/configmaps?watch=1&allowWatchBookmarks=true&timeoutSeconds=3&resourceVersion=${c.metadata.resourceVersion}`);
    // a bookmark carries a revision past the watch's own: a write elsewhere moves the store on, as a real
    // cluster's lease renewals do
    await namespace(s, 'w-bookmark-elsewhere');
    const [bm] = await stream.count(1, ['BOOKMARK'], 5_000);
    expect(bm.object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1' });
    expect(Number(bm.object.metadata.resourceVersion)).toBeGreaterThan(Number(c.metadata.resourceVersion));
    await stream.ended;
    expect(Date.now() - t0).toBeLessThan(6_000);
    expect(stream.events.map((e) => e.type)).toEqual(['BOOKMARK']);
  });

  it('a watch from a revision not reached yet gets no bookmark older than it, as upstream\'s cache watcher', async () => {
    await namespace(s, 'w-bookmark-ahead');
    const rv = Number((await create(s, 'w-bookmark-ahead', cm('a'))).metadata.resourceVersion);
    const stream = await watch(s, `/api/v1/namespaces/w-bookmark-ahead/configmaps?watch=1&allowWatchBookmarks=true&timeoutSeconds=3&resourceVersion=${rv + 1_000_000}`);
    await stream.ended;
    expect(stream.events).toEqual([]);
  });

  it('a resourceVersion not reached yet: the watch delivers only what follows it; a watch-list too far ahead is ERROR 504', async () => {
    await namespace(s, 'w-future');
    const rv = Number((await create(s, 'w-future', cm('now'))).metadata.resourceVersion);
    const ahead = await Promise.all([
      watch(s, `/api/v1/namespaces/w-future/configmaps?watch=1&resourceVersion=${rv + 1}`),
      // Sent right after the watch: it lands while the watch waits for rv+1, or just before; either way only b follows.
      (async () => [await create(s, 'w-future', cm('a')), await create(s, 'w-future', cm('b'))])(),
    ]);
    const [stream, [a, b]] = ahead;
    expect(Number(a.metadata.resourceVersion)).toBe(rv + 1);
    await stream.count(1);
    expect(summarize(stream.events)).toEqual([`ADDED b@${b.metadata.resourceVersion}`]);
    stream.close();

    // as upstream's cacher, a plain watch does not wait for the revision: it is silent until the store passes it
    const silent = await watch(s, `/api/v1/namespaces/w-future/configmaps?watch=1&timeoutSeconds=1&resourceVersion=${rv + 1_000_000}`);
    await create(s, 'w-future', cm('c'));
    await silent.ended;
    expect(silent.events).toEqual([]);

    // a watch-list waits for it to be reached (3 s), then says it is too large
    const far = await watch(s, `/api/v1/namespaces/w-future/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=${rv + 1_000_000}`);
    expect(far.status).toBe(200);
    await far.ended;
    expect(far.events).toHaveLength(1);
    expect(far.events[0].type).toBe('ERROR');
    expect(far.events[0].object).toMatchObject({ kind: 'Status', reason: 'Timeout', code: 504, details: { causes: [{ reason: 'ResourceVersionTooLarge' }] } });
  });

  it('timeoutSeconds=1 ends the stream', async () => {
    const t0 = Date.now();
    const stream = await watch(s, '/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1');
    await stream.ended;
    const elapsed = Date.now() - t0;
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(4_000);
  });

  it('a timeoutSeconds of 35 days (past setTimeout\'s longest delay) keeps the stream open and delivering', async () => {
    await namespace(s, 'long-watch');
    const stream = await watch(s, `/api/v1/namespaces/long-watch/configmaps?watch=1&timeoutSeconds=${35 * 24 * 3600}`);
    await create(s, 'long-watch', cm('after'));
    await stream.until((evs) => evs.some((e) => e.type === 'ADDED' && e.object.metadata.name === 'after'), 10_000, 'ADDED after');
    expect(stream.isEnded()).toBe(false);
    stream.close();
  });

  it('a negative timeoutSeconds ends the stream at once', async () => {
    const t0 = Date.now();
    const stream = await watch(s, '/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=-1');
    await stream.ended;
    expect(Date.now() - t0).toBeLessThan(2_000);
  });

  it('sendInitialEvents: ADDED for every object, the initial-events-end BOOKMARK, then live events', async () => {
    await namespace(s, 'w-initial');
    let last = '';
    for (const n of ['c', 'a', 'b', 'e', 'd']) last = (await create(s, 'w-initial', cm(n))).metadata.resourceVersion;
    const stream = await watch(s, '/api/v1/namespaces/w-initial/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true');
    expect(stream.status).toBe(200);
    await stream.count(6);
    expect(stream.events.slice(0, 5).map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED a', 'ADDED b', 'ADDED c', 'ADDED d', 'ADDED e']);
    const end = stream.events[5];
    expect(end.type).toBe('BOOKMARK');
    expect(end.object.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
    expect(Number(end.object.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(last));
    const f = await create(s, 'w-initial', cm('f'));
    await stream.count(7);
    expect(summarize(stream.events.slice(6))).toEqual([`ADDED f@${f.metadata.resourceVersion}`]);
    stream.close();

    // Upstream's ListOptions validation for watch: sendInitialEvents needs resourceVersionMatch=NotOlderThan.
    const bad = await s.api('GET', '/api/v1/namespaces/w-initial/configmaps?watch=1&sendInitialEvents=true');
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ kind: 'Status', reason: 'Invalid', details: { kind: 'ListOptions', group: 'meta.k8s.io' } });
    expect(bad.body.message).toContain('sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
  });

  it('a watch from "now" and the legacy resourceVersion=0 watch (current state as ADDED first)', async () => {
    await namespace(s, 'w-legacy');
    await create(s, 'w-legacy', cm('old'));
    const legacy = await watch(s, '/api/v1/namespaces/w-legacy/configmaps?watch=1&resourceVersion=0');
    const now = await watch(s, '/api/v1/namespaces/w-legacy/configmaps?watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan');
    await legacy.count(1);
    // The "now" watch is live once the state it starts from is in place: a write after this is delivered.
    const n = await create(s, 'w-legacy', cm('new'));
    await Promise.all([legacy.count(2), now.count(1)]);
    expect(summarize(legacy.events)).toEqual([expect.stringMatching(/^ADDED old@/), `ADDED new@${n.metadata.resourceVersion}`]);
    expect(summarize(now.events)).toEqual([`ADDED new@${n.metadata.resourceVersion}`]);
    legacy.close();
    now.close();
  });

  it('label selector: entering is ADDED, leaving is DELETED with the previous content at the new resourceVersion', async () => {
    await namespace(s, 'w-labels');
    const rv = (await s.api('GET', '/api/v1/namespaces/w-labels/configmaps')).body.metadata.resourceVersion;
    const stream = await watch(s, `/api/v1/namespaces/w-labels/configmaps?watch=1&labelSelector=app%3Dweb&resourceVersion=${rv}`);
    await create(s, 'w-labels', cm('a', { app: 'web' }));
    await create(s, 'w-labels', cm('b', { app: 'db' }));
    const left = await mergePatch(s, 'w-labels', 'a', { metadata: { labels: { app: 'db' } } });
    const back = await mergePatch(s, 'w-labels', 'b', { metadata: { labels: { app: 'web' } } });
    const modified = await mergePatch(s, 'w-labels', 'b', { data: { x: 'y' } });
    await s.api('DELETE', '/api/v1/namespaces/w-labels/configmaps/a');
    await s.api('DELETE', '/api/v1/namespaces/w-labels/configmaps/b');
    await stream.count(5);
    expect(stream.events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED a', 'DELETED a', 'ADDED b', 'MODIFIED b', 'DELETED b']);
    const leaving = stream.events[1].object;
    expect(leaving.metadata.labels).toEqual({ app: 'web' });
    expect(leaving.metadata.resourceVersion).toBe(left.metadata.resourceVersion);
    expect(stream.events[2].object.metadata.resourceVersion).toBe(back.metadata.resourceVersion);
    expect(stream.events[3].object.metadata.resourceVersion).toBe(modified.metadata.resourceVersion);
    stream.close();
  });

  it('field selector: a pod whose status.phase changes leaves status.phase=Pending as DELETED', async () => {
    await namespace(s, 'w-fields');
    // What the serviceaccount controller would add: the ServiceAccount admission plugin needs it for the pod.
    expect((await s.api('POST', '/api/v1/namespaces/w-fields/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } })).status).toBe(201);
    const stream = await watch(s, '/api/v1/namespaces/w-fields/pods?watch=1&fieldSelector=status.phase%3DPending&sendInitialEvents=false&resourceVersionMatch=NotOlderThan');
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
    const created = await s.api('POST', '/api/v1/namespaces/w-fields/pods', pod);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.status.phase).toBe('Pending');
    const running = await mergePatch(s, 'w-fields', 'p/status', { status: { phase: 'Running' } }, 'pods');
    await stream.count(2);
    expect(stream.events.map((e) => e.type)).toEqual(['ADDED', 'DELETED']);
    expect(stream.events[1].object.status.phase).toBe('Pending');
    expect(stream.events[1].object.metadata.resourceVersion).toBe(running.metadata.resourceVersion);
    stream.close();
  });

  it('one object: fieldSelector=metadata.name=x and the /watch/ path', async () => {
    await namespace(s, 'w-one');
    const rv = (await create(s, 'w-one', cm('y'))).metadata.resourceVersion;
    const byField = await watch(s, `/api/v1/namespaces/w-one/configmaps?watch=1&fieldSelector=metadata.name%3Dx&resourceVersion=${rv}`);
    const byPath = await watch(s, `/api/v1/watch/namespaces/w-one/configmaps/x?resourceVersion=${rv}`);
    await create(s, 'w-one', cm('z'));
    await create(s, 'w-one', cm('x'));
    await mergePatch(s, 'w-one', 'y', { data: { a: 'b' } });
    await mergePatch(s, 'w-one', 'x', { data: { a: 'b' } });
    await s.api('DELETE', '/api/v1/namespaces/w-one/configmaps/x');
    for (const w of [byField, byPath]) {
      await w.count(3);
      expect(w.events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED x', 'MODIFIED x', 'DELETED x']);
      w.close();
    }
    // the /watch/ path with a field selector: the one of that very name (with others) or a 400, as ListResource
    const both = await watch(s, `/api/v1/watch/namespaces/w-one/configmaps/y?resourceVersion=${rv}&fieldSelector=metadata.namespace%3Dw-one,metadata.name%3Dy`);
    await both.count(1);
    expect(both.events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['MODIFIED y']);
    both.close();
    for (const selector of ['metadata.name%3Dother', 'metadata.namespace%3Dw-one']) {
      const other = await s.api('GET', `/api/v1/watch/namespaces/w-one/configmaps/y?fieldSelector=${selector}`);
      expect([other.status, other.body.reason, other.body.message]).toEqual([400, 'BadRequest', "fieldSelector metadata.name doesn't match requested name"]);
    }
    // a named GET with ?watch=true is a get: the object itself
    const got = await s.api('GET', '/api/v1/namespaces/w-one/configmaps/y?watch=true');
    expect([got.status, got.body.kind, got.body.metadata.name]).toEqual([200, 'ConfigMap', 'y']);
    // the /watch/ paths are GET routes of what can be watched, nothing else (no create there, no subresources)
    const posted = await s.api('POST', '/api/v1/watch/namespaces/w-one/configmaps', cm('w'));
    expect([posted.status, posted.body.reason]).toEqual([405, 'MethodNotAllowed']);
    expect((await s.api('GET', '/api/v1/namespaces/w-one/configmaps/w')).status).toBe(404);
    const status = await s.api('GET', '/api/v1/watch/namespaces/w-one/pods/p/status');
    expect([status.status, status.body.reason]).toEqual([404, 'NotFound']);
  });

  it('Table watch: each event is a Table of one row, column definitions in the first', async () => {
    await namespace(s, 'w-table');
    await create(s, 'w-table', cm('t1', {}, { k: 'v' }));
    const stream = await watch(s, '/api/v1/namespaces/w-table/configmaps?watch=1', { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(stream.status).toBe(200);
    await stream.count(1);
    await create(s, 'w-table', cm('t2', {}, { a: '1', b: '2' }));
    await stream.count(2);
    const [first, second] = stream.events;
    expect(first.type).toBe('ADDED');
    expect(first.object).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    expect(first.object.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Data', 'Age']);
    expect(first.object.rows).toHaveLength(1);
    expect(first.object.rows[0].cells.slice(0, 2)).toEqual(['t1', 1]);
    expect(first.object.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 't1' } });
    expect(second.object.kind).toBe('Table');
    expect(second.object.rows[0].cells.slice(0, 2)).toEqual(['t2', 2]);
    stream.close();
  });
});
