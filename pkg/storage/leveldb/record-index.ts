// What the LevelDB journal knows of the records on disk, so that compaction needs no read and rewrites only
// what has gone dead. A record stays as written while every entry in it is needed; compaction deletes a record
// whose entries are all dead and rewrites (under its own key) one that is at least half dead with the live
// ones. A create-only load thus never writes an object twice, and the keys compaction touches are event keys
// in revision order rather than object keys all over the key space (LevelDB's own compactions paid for those).
//
// An entry (one event's state of a key) is needed while it is:
//   - the key's latest entry, unless that is a deletion with nothing older of the key left on disk;
//   - the state before a kept event (its successor is past the compacted revision and is not a create): a
//     reopened store gives that event its `prev`.
// Records are processed in revision order, each batch atomically, so a deletion is dropped only after (or
// with) everything older of its key and a crash at any point recovers the same objects.
import type { KeyValue, WatchEventType } from '../interface.js';

export interface IndexedEntry {
  key: string;
  revision: number;
  type: WatchEventType;
  /** The state, kept while the entry may be rewritten (dropped once the entry is known dead). */
  kv: KeyValue | undefined;
  /** The key's next entry on disk. */
  next: IndexedEntry | undefined;
  record: IndexedRecord;
  /** How many entries of its key are on disk, kept up to date on the key's latest entry only. */
  count: number;
}

export interface IndexedRecord {
  /** Its LevelDB key: an event record's, or a legacy object record's. */
  key: string;
  last: number;
  entries: IndexedEntry[];
  /** Entries that may have gone dead: superseded ones and deletions. A record with none is never looked at. */
  flagged: number;
}

/** What a compaction does to one record: delete it, or write it again with only the entries given. */
export type RecordChange = { type: 'del'; key: string } | { type: 'rewrite'; key: string; entries: IndexedEntry[] };

export class RecordIndex {
  /** In the order compaction must process them: legacy object records, then event records by revision. */
  private records: IndexedRecord[] = [];
  private readonly latest = new Map<string, IndexedEntry>();

  /** A record as written (or read back at open), its entries in revision order. */
  add(key: string, entries: readonly { key: string; revision: number; type: WatchEventType; kv: KeyValue }[]): void {
    const record: IndexedRecord = { key, last: 0, entries: [], flagged: 0 };
    for (const e of entries) {
      const before = this.latest.get(e.key);
      const entry: IndexedEntry = { key: e.key, revision: e.revision, type: e.type, kv: e.kv, next: undefined, record, count: before ? before.count + 1 : 1 };
      if (before) {
        before.next = entry;
        if (before.type !== 'DELETED') before.record.flagged++; // a deletion was flagged when written
      }
      if (e.type === 'DELETED') record.flagged++;
      this.latest.set(e.key, entry);
      record.entries.push(entry);
      record.last = e.revision;
    }
    this.records.push(record);
  }

  /**
   * The changes that compacting to `revision` makes, in the order they must be written. The index reflects
   * them at once: a caller whose write fails must stop using it.
   */
  compact(revision: number): RecordChange[] {
    const changes: RecordChange[] = [];
    const kept: IndexedRecord[] = [];
    for (const record of this.records) {
      if (record.flagged === 0 || record.last > revision) {
        kept.push(record);
        continue;
      }
      const live: IndexedEntry[] = [];
      const dead: IndexedEntry[] = [];
      for (const e of record.entries) (this.needed(e, revision) ? live : dead).push(e);
      if (dead.length === 0) {
        kept.push(record);
        continue;
      }
      if (live.length > 0 && 2 * live.length > record.entries.length) {
        for (const e of dead) e.kv = undefined; // left on disk for now, never written again
        kept.push(record);
        continue;
      }
      for (const e of dead) this.drop(e);
      if (live.length === 0) {
        changes.push({ type: 'del', key: record.key });
      } else {
        record.entries = live;
        record.flagged = live.filter((e) => e.next || e.type === 'DELETED').length;
        changes.push({ type: 'rewrite', key: record.key, entries: live });
        kept.push(record);
      }
    }
    this.records = kept;
    return changes;
  }

  /** Once a reopened store has read everything: the states no compaction will write again are let go. */
  settle(compacted: number): void {
    for (const record of this.records) {
      if (record.flagged > 0) for (const e of record.entries) if (!this.needed(e, compacted)) e.kv = undefined;
    }
  }

  private needed(e: IndexedEntry, compacted: number): boolean {
    if (!e.next) return e.type !== 'DELETED' || e.count > 1;
    return e.next.revision > compacted && e.next.type !== 'ADDED';
  }

  private drop(e: IndexedEntry): void {
    e.kv = undefined;
    const latest = this.latest.get(e.key)!;
    if (latest === e) this.latest.delete(e.key); // only a deletion with nothing older left is dropped as the latest
    else latest.count--;
  }
}
