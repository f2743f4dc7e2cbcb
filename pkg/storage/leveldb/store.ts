// The default Store backend: LevelDB. Each group-commit batch is one atomic, fsync'd LevelDB batch holding
// every write's event record and the new current revision, so a crash at any moment keeps an acknowledged
// write whole. Object records hold each key's state as of the compacted revision: compaction writes them
// in the same atomic batch that drops the event records it folds in, and recovery replays the kept events
// over them (as etcd keeps revisions and rebuilds its index).
import { Level } from 'level';
import type { CompactionOptions, Journal, RecoveredState } from '../core/journal.js';
import { DEFAULT_COMPACTION } from '../core/journal.js';
import { RevisionedStore } from '../core/revisioned-store.js';
import type { KeyValue, Store, StoreEvent } from '../interface.js';
import {
  decodeEvent, decodeObject, encodeEvent, EVENT_RANGE_END, eventKey, META_COMPACTED, META_REVISION,
  OBJECT_RANGE, objectKey, objectRecordOfEvent, revisionOfEventKey,
} from './codec.js';

type Db = Level<string, Buffer>;
type BatchOp = { type: 'put'; key: string; value: Buffer } | { type: 'del'; key: string };

/** Event records folded per compaction batch, so a large compaction never builds one huge batch. */
const COMPACTION_CHUNK = 2_000;

export async function openLevelStore(dir: string, opts: { compaction?: CompactionOptions } = {}): Promise<Store> {
  const db: Db = new Level<string, Buffer>(dir, { keyEncoding: 'utf8', valueEncoding: 'buffer' });
  await db.open();
  try {
    const state = await recover(db);
    return new RevisionedStore(levelJournal(db), state, opts.compaction ?? DEFAULT_COMPACTION);
  } catch (err) {
    await db.close();
    throw err;
  }
}

async function recover(db: Db): Promise<RecoveredState> {
  const revision = await readNumber(db, META_REVISION);
  const compacted = await readNumber(db, META_COMPACTED);
  const objects = new Map<string, KeyValue>();
  for await (const [k, v] of db.iterator(OBJECT_RANGE)) {
    const key = k.slice(1);
    objects.set(key, decodeObject(key, v));
  }
  // Replayed in order over the object records: each event's previous state is the key's state before it.
  const events: StoreEvent[] = [];
  for await (const [k, v] of db.iterator({ gt: eventKey(compacted), lt: EVENT_RANGE_END })) {
    const revision = revisionOfEventKey(k);
    const ev = decodeEvent(revision, v, (key, modRevision) => {
      const current = objects.get(key);
      return current?.modRevision === modRevision ? current : undefined;
    });
    const prev = ev.prev ?? (ev.type === 'ADDED' ? undefined : objects.get(ev.key));
    if (ev.type === 'DELETED') objects.delete(ev.key);
    else objects.set(ev.key, ev.kv);
    events.push(prev ? { ...ev, prev } : ev);
  }
  return { objects, events, revision, compacted };
}

async function readNumber(db: Db, key: string): Promise<number> {
  const value = await db.get(key);
  return value === undefined ? 0 : Number(value.toString());
}

function levelJournal(db: Db): Journal {
  return {
    async append(batch) {
      const ops: BatchOp[] = batch.map((ev) => ({ type: 'put', key: eventKey(ev.revision), value: encodeEvent(ev) }));
      ops.push({ type: 'put', key: META_REVISION, value: Buffer.from(String(batch[batch.length - 1].revision)) });
      await db.batch(ops, { sync: true });
    },
    async compact(from, to) {
      // Each chunk folds its events into object records, drops them and records how far it got, atomically.
      for (let start = from; start < to; start += COMPACTION_CHUNK) {
        const end = Math.min(start + COMPACTION_CHUNK, to);
        const last = new Map<string, { deleted: boolean; record: Buffer }>();
        const ops: BatchOp[] = [];
        for await (const [k, v] of db.iterator({ gt: eventKey(start), lte: eventKey(end) })) {
          const { key, ...state } = objectRecordOfEvent(revisionOfEventKey(k), v);
          last.set(key, state);
          ops.push({ type: 'del', key: k });
        }
        for (const [key, { deleted, record }] of last) {
          ops.push(deleted ? { type: 'del', key: objectKey(key) } : { type: 'put', key: objectKey(key), value: record });
        }
        ops.push({ type: 'put', key: META_COMPACTED, value: Buffer.from(String(end)) });
        await db.batch(ops);
      }
    },
    close: () => db.close(),
  };
}
