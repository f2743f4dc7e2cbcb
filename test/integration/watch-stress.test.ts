// Watch correctness over real HTTPS under concurrent writers: pods created, bound, status-patched, relabelled
// and deleted across namespaces while watchers with namespace, label and spec.nodeName selectors start at
// various resourceVersions. Each watcher must see exactly its events (in revision order, no gap, no duplicate)
// as computed from a replay of the whole history by a watch from before the first write.
import type { KubeObject } from '../../api/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Change, expectedEvents, type ObjectPredicate, type Seen, streamMismatch } from '../../pkg/storage/testing/watch-oracle.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { openWatch, type WatchEvent, type WatchStream } from '../support/watch-stream.js';
import { seededRandom as random } from '../../pkg/storage/testing/seeded-random.js';

const NAMESPACES = ['st-0', 'st-1', 'st-2'];
let s: TestApiServer;

beforeAll(async () => {
  s = await startTestApiServer();
  for (const name of NAMESPACES) {
    const r = await s.api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    expect(r.status).toBe(201);
  }
});
afterAll(async () => {
  await s?.close();
});

const keyOf = (e: WatchEvent): string => `${e.object.metadata.namespace}/${e.object.metadata.name}`;
const seenOf = (e: WatchEvent): Seen => ({ type: e.type, key: keyOf(e), revision: Number(e.object.metadata.resourceVersion) });
const nodeName = (o: KubeObject): string => (o as { spec?: { nodeName?: string } }).spec?.nodeName ?? '';

const selectors: { query: string; predicate?: ObjectPredicate }[] = [
  { query: '' },
  { query: 'labelSelector=app%3Dweb', predicate: (o) => o.metadata?.labels?.app === 'web' },
  { query: 'fieldSelector=spec.nodeName%3Dnode-1', predicate: (o) => nodeName(o) === 'node-1' },
  { query: 'fieldSelector=spec.nodeName%3D', predicate: (o) => nodeName(o) === '' },
];

async function currentRevision(): Promise<number> {
  return Number((await s.api('GET', '/api/v1/pods?limit=1')).body.metadata.resourceVersion);
}

/** One random write; refusals (the pod is gone, already bound, already exists) are part of the game. */
async function randomWrite(rand: () => number, i: number): Promise<void> {
  const ns = NAMESPACES[Math.floor(rand() * NAMESPACES.length)];
  const name = `p${Math.floor(rand() * 25)}`;
  const path = `/api/v1/namespaces/${ns}/pods/${name}`;
  const merge = { 'content-type': 'application/merge-patch+json' };
  const r = rand();
  let res: { status: number; body: unknown };
  if (r < 0.3) {
    res = await s.api('POST', `/api/v1/namespaces/${ns}/pods`, {
      apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: rand() < 0.5 ? 'web' : 'db' } },
      spec: { containers: [{ name: 'c', image: 'pause' }] },
    });
  } else if (r < 0.5) {
    res = await s.api('POST', `${path}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { kind: 'Node', name: rand() < 0.5 ? 'node-0' : 'node-1' } });
  } else if (r < 0.7) {
    res = await s.api('PATCH', `${path}/status`, { status: { message: `m${i}` } }, merge);
  } else if (r < 0.85) {
    res = await s.api('PATCH', path, { metadata: { labels: { app: rand() < 0.5 ? 'web' : 'db' } } }, merge);
  } else {
    res = await s.api('DELETE', `${path}?gracePeriodSeconds=0`);
  }
  if (![200, 201, 404, 409].includes(res.status)) throw new Error(`${res.status}: ${JSON.stringify(res.body)}`);
}

interface Watcher {
  label: string;
  prefix: string;
  predicate?: ObjectPredicate;
  from: number;
  stream: WatchStream;
}

describe('watch over HTTPS under concurrent writers', () => {
  it('every watcher sees exactly its events, in order, without gaps or duplicates', async () => {
    const rand = random(7);
    const start = await currentRevision();
    const watchers: Promise<Watcher>[] = [];
    const openOne = async (n: number, from: number): Promise<Watcher> => {
      const sel = selectors[n % selectors.length];
      const ns = n % 3 === 0 ? NAMESPACES[n % NAMESPACES.length] : undefined;
      const path = `${ns ? `/api/v1/namespaces/${ns}/pods` : '/api/v1/pods'}?watch=1&resourceVersion=${from}${sel.query ? `&${sel.query}` : ''}`;
      const stream = await openWatch(s.url + path, s.agent);
      expect(stream.status).toBe(200);
      return { label: `#${n} ${path}`, prefix: ns ? `${ns}/` : '', predicate: sel.predicate, from, stream };
    };
    let ops = 0;
    const writer = async (w: number): Promise<void> => {
      const r = random(100 + w);
      for (let i = 0; i < 70; i++) {
        await randomWrite(r, i);
        // Watchers from the current revision and from older ones, opened while the writes go on.
        if (++ops % 8 === 0) {
          const now = await currentRevision();
          watchers.push(openOne(watchers.length, Math.max(start, now - Math.floor(rand() * 40))));
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)));
    const opened = await Promise.all(watchers);
    try {
      await compare(start, opened);
    } finally {
      for (const w of opened) w.stream.close();
    }
    expect(opened.length).toBeGreaterThan(50);
  }, 60_000);
});

async function compare(start: number, watchers: Watcher[]): Promise<void> {
    const sentinel = await s.api('POST', `/api/v1/namespaces/${NAMESPACES[0]}/pods`, {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'sentinel', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'pause' }] },
    });
    const end = Number(sentinel.body.metadata.resourceVersion);

    const replay = await openWatch(`${s.url}/api/v1/pods?watch=1&resourceVersion=${start}`, s.agent);
    await replay.until((evs) => evs.some((e) => Number(e.object.metadata.resourceVersion) >= end), 10_000, 'the replay to reach the sentinel');
    const history: Change[] = replay.events.map((e) => ({ type: e.type, key: keyOf(e), revision: Number(e.object.metadata.resourceVersion), object: e.object }));
    replay.close();
    expect(history.length).toBeGreaterThan(200);

    const failures: string[] = [];
    for (const w of watchers) {
      const want = expectedEvents(history, w.from, w.prefix, w.predicate);
      try {
        await w.stream.until((evs) => evs.length >= want.length, 5_000, `${want.length} events`);
      } catch {
        // compared below: the mismatch says what is missing
      }
      w.stream.close();
      const problem = streamMismatch(w.stream.events.map(seenOf), want, true);
      if (problem) failures.push(`${w.label}: ${problem}`);
    }
    expect(failures).toEqual([]);
}
