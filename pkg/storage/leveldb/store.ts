// The default Store backend: LevelDB. Each group-commit batch is one fsync'd LevelDB put of the record of its
// writes' events, under a key made of its first revision, so a crash at any moment keeps an acknowledged write
// whole and the current revision is the newest record's. Nothing else is written with it, so a memtable's file
// covers a key range of its own unless compaction's deletions of old records are in it: a key written with every
// batch, as the revision was, made every file overlap all the others, and LevelDB's compactions rewrote 2.2-2.4
// times what it flushed under a create load (1.1-1.9 times since). The records are the objects: a record stays
// while any state in it is needed (the latest of a key, or the state before a kept event) and compaction deletes
// or rewrites records that have gone dead, as record-index.ts decides from memory. Recovery replays every record
// in revision order. Object records of the earlier layout (each key's state at the compacted revision) are read
// first and dropped once superseded.
import { Level } from 'level';
import type { CompactionOptions, Journal, RecoveredState } from '../core/journal.js';
import { DEFAULT_COMPACTION } from '../core/journal.js';
import { RevisionedStore } from '../core/revisioned-store.js';
import type { KeyValue, Store, StoreEvent } from '../interface.js';
import {
  decodeEntry, decodeObject, encodeRecord, entriesOf, EVENT_RANGE_END, eventKey, META_COMPACTED, META_REVISION,
  OBJECT_RANGE, revisionOfEventKey,
} from './codec.js';
import { RecordIndex } from './record-index.js';

type Db = Level<string, Buffer>;
type BatchOp = { type: 'put'; key: string; value: Buffer } | { type: 'del'; key: string };

/** Bytes of rewritten records, and operations, per compaction batch: a large compaction never builds one huge batch. */
const COMPACTION_BATCH_BYTES = 4 * 1024 * 1024;
const COMPACTION_BATCH_OPS = 10_000;

export async function openLevelStore(dir: string, opts: { compaction?: CompactionOptions } = {}): Promise<Store> {
  const db: Db = new Level<string, Buffer>(dir, { keyEncoding: 'utf8', valueEncoding: 'buffer' });
  await db.open();
  try {
    const index = new RecordIndex();
    const state = await recover(db, index);
    return new RevisionedStore(levelJournal(db, index, state.revision), state, opts.compaction ?? DEFAULT_COMPACTION);
  } catch (err) {
    await db.close();
    throw err;
  }
}

async function recover(db: Db, index: RecordIndex): Promise<RecoveredState> {
  let revision = await readNumber(db, META_REVISION);
  const compacted = await readNumber(db, META_COMPACTED);
  const objects = new Map<string, KeyValue>();
  for await (const [k, v] of db.iterator(OBJECT_RANGE)) {
    const key = k.slice(1);
    const kv = decodeObject(key, v);
    objects.set(key, kv);
    index.add(k, [{ key, revision: kv.modRevision, type: 'MODIFIED', kv }]);
  }
  // Replayed in order over the object records: each event's previous state is the key's state before it.
  const events: StoreEvent[] = [];
  const known = (key: string, modRevision: number): KeyValue | undefined => {
    const current = objects.get(key);
    return current?.modRevision === modRevision ? current : undefined;
  };
  for await (const [k, v] of db.iterator({ gte: eventKey(0), lt: EVENT_RANGE_END })) {
    const recorded: StoreEvent[] = [];
    for (const entry of entriesOf(revisionOfEventKey(k), v)) {
      const ev = decodeEntry(entry, known);
      const prev = ev.prev ?? (ev.type === 'ADDED' ? undefined : objects.get(ev.key));
      if (ev.type === 'DELETED') objects.delete(ev.key);
      else objects.set(ev.key, ev.kv);
      recorded.push(ev);
      if (ev.revision > revision) revision = ev.revision;
      if (ev.revision > compacted) events.push(prev ? { ...ev, prev } : ev);
    }
    index.add(k, recorded);
  }
  index.settle(compacted);
  return { objects, events, revision, compacted };
}

async function readNumber(db: Db, key: string): Promise<number> {
  const value = await db.get(key);
  return value === undefined ? 0 : Number(value.toString());
}

function levelJournal(db: Db, index: RecordIndex, recovered: number): Journal {
  // A compaction write that failed leaves the disk behind the index: no more compactions until a reopen.
  let broken: Error | undefined;
  let revision = recovered;
  return {
    async append(batch) {
      const key = eventKey(batch[0].revision);
      await db.put(key, encodeRecord(batch), { sync: true });
      index.add(key, batch);
      revision = batch[batch.length - 1].revision;
    },
    async compact(_from, to) {
      if (broken) throw broken;
      // The current revision is the newest record's, unless compaction deletes that record: `to` is kept beside the
      // compacted revision for that, before any deletion.
      let ops: BatchOp[] = [
        { type: 'put', key: META_COMPACTED, value: Buffer.from(String(to)) },
        { type: 'put', key: META_REVISION, value: Buffer.from(String(to)) },
      ];
      let bytes = 0;
      const write = async (): Promise<void> => {
        try {
          await db.batch(ops);
        } catch (err) {
          broken = err as Error;
          throw err;
        }
        ops = [];
        bytes = 0;
      };
      // In order, each batch atomic: a deletion goes only after everything older of its key.
      for (const change of index.compact(to)) {
        if (change.type === 'del') {
          ops.push(change);
        } else {
          const value = encodeRecord(change.entries.map((e) => ({ type: e.type, key: e.key, revision: e.revision, kv: e.kv! })));
          ops.push({ type: 'put', key: change.key, value });
          bytes += value.length;
        }
        if (bytes >= COMPACTION_BATCH_BYTES || ops.length >= COMPACTION_BATCH_OPS) await write();
      }
      if (ops.length > 0) await write();
    },
    async close() {
      // A clean stop leaves the current revision where versions before 9d1b5a9 read it alone: one of them opening
      // this store would otherwise give new writes revisions (and record keys) that are already taken.
      if (!broken && revision > 0) await db.put(META_REVISION, Buffer.from(String(revision)), { sync: true }).catch(() => undefined);
      await db.close();
    },
  };
}
