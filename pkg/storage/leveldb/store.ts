// The default Store backend: LevelDB. Each group-commit batch is one atomic, fsync'd LevelDB batch holding
// every write's object record, its event record and the new current revision, so a crash at any moment
// keeps an acknowledged write whole and never leaves an object without its event or the reverse.
import { Level } from 'level';
import type { CompactionOptions, Journal, RecoveredState } from '../core/journal.js';
import { DEFAULT_COMPACTION } from '../core/journal.js';
import { RevisionedStore } from '../core/revisioned-store.js';
import type { KeyValue, Store, StoreEvent } from '../interface.js';
import {
  decodeEvent, decodeObject, encodeEvent, encodeObject, EVENT_RANGE_END, eventKey, META_COMPACTED, META_REVISION,
  OBJECT_RANGE, objectKey, revisionOfEventKey,
} from './codec.js';

type Db = Level<string, Buffer>;
type BatchOp = { type: 'put'; key: string; value: Buffer } | { type: 'del'; key: string };

/** Event records deleted per compaction batch, so a large compaction never builds one huge batch. */
const COMPACTION_CHUNK = 5_000;

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
  // The newest decoded state of each key, to share objects between consecutive events of a key.
  const seen = new Map<string, KeyValue>();
  const known = (key: string, modRevision: number): KeyValue | undefined => {
    const earlier = seen.get(key);
    if (earlier?.modRevision === modRevision) return earlier;
    const current = objects.get(key);
    return current?.modRevision === modRevision ? current : undefined;
  };
  const events: StoreEvent[] = [];
  for await (const [k, v] of db.iterator({ gt: eventKey(compacted), lt: EVENT_RANGE_END })) {
    const ev = decodeEvent(revisionOfEventKey(k), v, known);
    seen.set(ev.key, ev.kv);
    events.push(ev);
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
      const ops: BatchOp[] = [];
      for (const ev of batch) {
        ops.push({ type: 'put', key: eventKey(ev.revision), value: encodeEvent(ev) });
        if (ev.type === 'DELETED') ops.push({ type: 'del', key: objectKey(ev.key) });
        else ops.push({ type: 'put', key: objectKey(ev.key), value: encodeObject(ev.kv) });
      }
      ops.push({ type: 'put', key: META_REVISION, value: Buffer.from(String(batch[batch.length - 1].revision)) });
      await db.batch(ops, { sync: true });
    },
    async compact(from, to) {
      // Each chunk deletes its records and records how far it got in the same atomic batch.
      for (let start = from; start < to; start += COMPACTION_CHUNK) {
        const end = Math.min(start + COMPACTION_CHUNK, to);
        const ops: BatchOp[] = [];
        for (let rev = start + 1; rev <= end; rev++) ops.push({ type: 'del', key: eventKey(rev) });
        ops.push({ type: 'put', key: META_COMPACTED, value: Buffer.from(String(end)) });
        await db.batch(ops);
      }
    },
    close: () => db.close(),
  };
}
