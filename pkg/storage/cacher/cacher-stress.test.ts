// Many writers and many watchers at once, over a store whose batches become durable after varying delays:
// every watcher of the cache (from now, from an older revision, with initial events; with namespace, label and
// nodeName predicates; some leaving early) sees exactly its events, in revision order, with no gap and no
// duplicate, compared with a replay of the store's own history. Seeded, so a failure replays the same way.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import type { Journal } from '../core/journal.js';
import { RevisionedStore } from '../core/revisioned-store.js';
import { isStorageError } from '../errors.js';
import type { Store, StoreEvent } from '../interface.js';
import { type Change, expectedEvents, type ObjectPredicate, type Seen, stateAt, streamMismatch } from '../testing/watch-oracle.js';
import { Cacher } from './cacher.js';
import { seededRandom as random } from '../testing/seeded-random.js';

const PODS = '/registry/pods/';
const NAMESPACES = ['ns0', 'ns1', 'ns2'];
const NODES = ['', 'node-0', 'node-1'];

/** Batches become durable after none, a microtask, a macrotask or a timer: group commits of every size. */
function jitteryJournal(rand: () => number): Journal {
  const waits = [(): Promise<void> => Promise.resolve(), () => new Promise<void>((r) => setImmediate(r)), () => new Promise<void>((r) => setTimeout(r, 1))];
  return {
    append: () => waits[Math.floor(rand() * waits.length)](),
    compact: async () => undefined,
    close: async () => undefined,
  };
}

const pod = (ns: string, name: string, app: string, nodeName: string, n: number): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns, labels: { app } }, spec: { nodeName }, status: { n },
});

const predicates: Record<string, ObjectPredicate | undefined> = {
  all: undefined,
  'app=web': (o) => o.metadata?.labels?.app === 'web',
  'spec.nodeName=node-1': (o) => (o.spec as { nodeName?: string } | undefined)?.nodeName === 'node-1',
  'spec.nodeName=': (o) => !(o.spec as { nodeName?: string } | undefined)?.nodeName,
};

interface Observed {
  label: string;
  prefix: string;
  predicate?: ObjectPredicate;
  /** Live events are those after this revision (known at once, or at the initial-events end). */
  after?: number;
  initial?: Map<string, number>;
  seen: Seen[];
  closedWith?: Error;
  left: boolean;
}

/** Random writes: creates, label and nodeName changes (predicates flip both ways), status churn and deletes. */
async function writer(store: Store, rand: () => number, ops: number, onOp: () => void): Promise<void> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  for (let i = 0; i < ops; i++) {
    const ns = pick(NAMESPACES);
    const name = `p${Math.floor(rand() * 40)}`;
    const key = `${PODS}${ns}/${name}`;
    const r = rand();
    try {
      if (r < 0.35) await store.create(key, pod(ns, name, pick(['web', 'db']), pick(NODES), i));
      else if (r < 0.85) {
        await store.guaranteedUpdate(key, (cur) => {
          const o = cur!.object;
          const change = rand();
          if (change < 0.3) return { ...o, metadata: { ...o.metadata, labels: { app: pick(['web', 'db']) } } };
          if (change < 0.6) return { ...o, spec: { nodeName: pick(NODES) } };
          return { ...o, status: { n: i } };
        });
      } else await store.delete(key);
    } catch (err) {
      if (!isStorageError(err, 'KeyExists') && !isStorageError(err, 'KeyNotFound')) throw err;
    }
    onOp();
  }
}

/** Starts a watcher of a random kind: from now, from a revision still in the history, or with initial events. */
function startWatcher(cacher: Cacher, rand: () => number, n: number): { obs: Observed; stop: () => void } {
  const names = Object.keys(predicates);
  const pname = names[n % names.length];
  const prefix = n % 3 === 0 ? `${PODS}${NAMESPACES[n % NAMESPACES.length]}/` : PODS;
  const mode = Math.floor(rand() * 3);
  const obs: Observed = { label: `#${n} ${['now', 'resume', 'initial'][mode]} ${prefix} ${pname}`, prefix, predicate: predicates[pname], seen: [], left: false };
  let fromRevision = 0;
  if (mode === 0) obs.after = cacher.revision();
  if (mode === 1) {
    const oldest = cacher.oldestRevision();
    fromRevision = oldest + Math.floor(rand() * (cacher.revision() - oldest + 1));
    obs.after = fromRevision;
    obs.label += ` from ${fromRevision}`;
  }
  const initial = new Map<string, number>();
  const stop = cacher.watch({ prefix, fromRevision, predicate: obs.predicate, sendInitialEvents: mode === 2 }, {
    onEvent: (ev: StoreEvent) => {
      if (mode === 2 && obs.after === undefined) initial.set(ev.key, ev.revision);
      else obs.seen.push({ type: ev.type, key: ev.key, revision: ev.revision });
    },
    onClose: (err) => { obs.closedWith = err ?? new Error('closed'); },
    onInitialEventsEnd: (revision) => {
      obs.after = revision;
      obs.initial = initial;
    },
  });
  return { obs, stop: () => { obs.left = true; stop(); } };
}

describe('Cacher under concurrent writers and watchers', () => {
  it.each([1, 2, 3])('every watcher sees exactly its events in order (seed %i)', async (seed) => {
    const rand = random(seed);
    const store = new RevisionedStore(jitteryJournal(rand), { objects: new Map(), events: [], revision: 0, compacted: 0 });
    // The history below is this first state plus a replay after it (a store watch from 0 means "from now").
    await store.create(`${PODS}ns0/seed`, pod('ns0', 'seed', 'web', '', 0));
    // A short history, so that some resuming watchers start near its edge while it moves.
    const cacher = new Cacher(store, PODS, { historySize: 300 });
    await cacher.start();
    const watchers: { obs: Observed; stop: () => void }[] = [];
    let ops = 0;
    const onOp = (): void => {
      if (++ops % 15 === 0) watchers.push(startWatcher(cacher, rand, watchers.length));
      // Some leave early: what they saw must still be a prefix of their events.
      if (ops % 97 === 0 && watchers.length > 0) watchers[Math.floor(rand() * watchers.length)].stop();
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => writer(store, random(seed * 100 + w), 600, onOp)));
    await cacher.waitUntilFresh(store.revision(), AbortSignal.timeout(5_000));
    await new Promise((resolve) => setImmediate(resolve));

    const history: Change[] = [{ type: 'ADDED', key: `${PODS}ns0/seed`, revision: 1, object: (await store.get(`${PODS}ns0/seed`))?.object ?? {} }];
    store.watch(PODS, { fromRevision: 1, signal: new AbortController().signal }, {
      onEvent: (ev) => history.push({ type: ev.type, key: ev.key, revision: ev.revision, object: ev.kv.object }),
      onClose: () => undefined,
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(history.length).toBeGreaterThan(2500);

    const failures: string[] = [];
    let compacted = 0;
    for (const { obs } of watchers) {
      // The only way a watch ends on its own here: its start fell out of the moving history before its replay.
      if (obs.closedWith && !obs.left) {
        if (isStorageError(obs.closedWith, 'Compacted') && obs.seen.length === 0) compacted++;
        else failures.push(`${obs.label}: closed: ${obs.closedWith.message}`);
        continue;
      }
      if (obs.after === undefined) {
        if (!obs.left) failures.push(`${obs.label}: never got its initial events end`);
        continue;
      }
      if (obs.initial) {
        const want = stateAt(history, obs.after, obs.prefix, obs.predicate);
        const got = [...obs.initial].sort().join(',');
        if (got !== [...want].sort().join(',')) failures.push(`${obs.label}: initial events differ from the state at ${obs.after}`);
      }
      const problem = streamMismatch(obs.seen, expectedEvents(history, obs.after, obs.prefix, obs.predicate), !obs.left);
      if (problem) failures.push(`${obs.label}: ${problem}`);
    }
    expect(failures).toEqual([]);
    expect(watchers.length - compacted).toBeGreaterThan(100);
    cacher.stop();
    await store.close();
  });
});
