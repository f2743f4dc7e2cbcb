// The default Store backend: LevelDB. Each group-commit batch is one atomic, fsync'd LevelDB batch holding
// the record of its writes' events and the new current revision, so a crash at any moment keeps an acknowledged
// write whole. Object records hold each key's state as of the compacted revision: compaction writes them
// in the same atomic batch that drops the event records it folds in, and recovery replays the kept events
// over them (as etcd keeps revisions and rebuilds its index).
import { Level } from 'level';
import type { CompactionOptions, Journal, RecoveredState } from '../core/journal.js';
import { DEFAULT_COMPACTION } from '../core/journal.js';
import { RevisionedStore } from '../core/revisioned-store.js';
import type { KeyValue, Store, StoreEvent } from '../interface.js';
import {
  decodeEntry, decodeObject, encodeRecord, entriesOf, EVENT_RANGE_END, eventKey, META_COMPACTED, META_REVISION,
  OBJECT_RANGE, objectKey, objectRecordOf, type RecordEntry, revisionOfEventKey,
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
  const known = (key: string, modRevision: number): KeyValue | undefined => {
    const current = objects.get(key);
    return current?.modRevision === modRevision ? current : undefined;
  };
  for await (const [k, v] of db.iterator({ gt: eventKey(compacted), lt: EVENT_RANGE_END })) {
    for (const entry of entriesOf(revisionOfEventKey(k), v)) {
      const ev = decodeEntry(entry, known);
      const prev = ev.prev ?? (ev.type === 'ADDED' ? undefined : objects.get(ev.key));
      if (ev.type === 'DELETED') objects.delete(ev.key);
      else objects.set(ev.key, ev.kv);
      events.push(prev ? { ...ev, prev } : ev);
    }
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
      await db.batch([
        { type: 'put', key: eventKey(batch[0].revision), value: encodeRecord(batch) },
        { type: 'put', key: META_REVISION, value: Buffer.from(String(batch[batch.length - 1].revision)) },
      ], { sync: true });
    },
    async compact(from, to) {
      // Each chunk folds its events into object records, drops them and records how far it got, atomically.
      // Records start after the compacted revision: one reaching past a chunk's end keeps its later events under
      // the first one's revision.
      for (let start = from; start < to; start += COMPACTION_CHUNK) {
        const end = Math.min(start + COMPACTION_CHUNK, to);
        const last = new Map<string, { deleted: boolean; record: Buffer }>();
        const ops: BatchOp[] = [];
        for await (const [k, v] of db.iterator({ gt: eventKey(start), lte: eventKey(end) })) {
          let rest: RecordEntry | undefined;
          for (const entry of entriesOf(revisionOfEventKey(k), v)) {
            if (entry.revision > end) {
              rest = entry;
              break;
            }
            const { key, ...state } = objectRecordOf(entry);
            last.set(key, state);
          }
          ops.push({ type: 'del', key: k });
          if (rest) ops.push({ type: 'put', key: eventKey(rest.revision), value: v.subarray(rest.start) });
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
