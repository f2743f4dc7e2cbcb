// The LevelDB layout. Keys: "e" + 16-digit revision -> event record: the events of one group-commit batch (each
// the object's state after a write), keyed by the first one's revision, and later rewritten by compaction with
// only the events still needed; "o" + object key -> object record (the earlier layout's state of a key as of the
// compacted revision: read, never written); "m:…" -> meta. Each event carries the object's JSON bytes verbatim
// after a small header line, so a write never re-serializes and a read parses each object once. A write stores
// its bytes once: the state before it is the previous event of its key, or its object record.
// One record per batch rather than per event: LevelDB's cost is mostly per operation.
import type { KeyValue, StoreEvent, WatchEventType } from '../interface.js';
import { keyValueOf, storedCopy } from '../keyvalue.js';

/** The current revision as of the last compaction (which may have deleted the newest record); else the newest record's. */
export const META_REVISION = 'm:revision';
export const META_COMPACTED = 'm:compacted';
export const OBJECT_RANGE = { gte: 'o', lt: 'p' };
export const eventKey = (revision: number): string => `e${String(revision).padStart(16, '0')}`;
/** Every event key sorts below this. */
export const EVENT_RANGE_END = 'f';

const NEWLINE = 0x0a;

export function decodeObject(key: string, value: Buffer): KeyValue {
  const nl = value.indexOf(NEWLINE);
  const [mod, create] = value.subarray(0, nl).toString().split(' ').map(Number);
  return parsed(key, value.subarray(nl + 1), mod, create);
}

interface EventHeader {
  /** The event's revision (records written one per event have none: the key's revision is theirs). */
  r?: number;
  t: WatchEventType;
  k: string;
  /** createRevision of the object; its modRevision is the event's revision. */
  c: number;
  /** Length of the object's bytes. */
  n: number;
  /**
   * Records written before object records moved to compaction hold one event that also carries the previous
   * state: its modRevision and createRevision here, its bytes after the object's, to the record's end.
   */
  p?: [number, number];
}

/** One event of a record: its header and its object's bytes. */
export interface RecordEntry {
  revision: number;
  header: EventHeader;
  bytes: Buffer;
  /** The previous state's bytes (old one-event records only). */
  prevBytes?: Buffer;
}

/** The record of a batch of events (in revision order). */
export function encodeRecord(batch: readonly StoreEvent[]): Buffer {
  const parts: Buffer[] = [];
  for (const ev of batch) {
    const header: EventHeader = { r: ev.revision, t: ev.type, k: ev.key, c: ev.kv.createRevision, n: ev.kv.bytes.length };
    parts.push(Buffer.from(`${JSON.stringify(header)}\n`), ev.kv.bytes);
  }
  return Buffer.concat(parts);
}

/** The events of the record stored under `revision`, in order. */
export function* entriesOf(revision: number, value: Buffer): Generator<RecordEntry> {
  for (let at = 0; at < value.length;) {
    const nl = value.indexOf(NEWLINE, at);
    const header = JSON.parse(value.subarray(at, nl).toString()) as EventHeader;
    const start = nl + 1;
    const end = header.p ? value.length : start + header.n;
    const bytes = value.subarray(start, start + header.n);
    yield { revision: header.r ?? revision, header, bytes, prevBytes: header.p ? value.subarray(start + header.n) : undefined };
    at = end;
  }
}

/**
 * `known(key, modRevision)` returns an already decoded state of the key (the current object, an earlier
 * event) so that replayed history shares objects instead of parsing them again.
 */
export function decodeEntry(entry: RecordEntry, known: (key: string, modRevision: number) => KeyValue | undefined): StoreEvent {
  const { revision, header: h } = entry;
  const kv = known(h.k, revision) ?? parsed(h.k, entry.bytes, revision, h.c);
  if (!h.p || !entry.prevBytes) return { type: h.t, key: h.k, revision, kv };
  const prev = known(h.k, h.p[0]) ?? parsed(h.k, entry.prevBytes, h.p[0], h.p[1]);
  return { type: h.t, key: h.k, revision, kv, prev };
}

function parsed(key: string, bytes: Buffer, modRevision: number, createRevision: number): KeyValue {
  // Copied out so the record's larger buffer is not kept alive by a slice of it; parsed when first read.
  return keyValueOf(key, storedCopy(bytes), modRevision, createRevision);
}

export const revisionOfEventKey = (key: string): number => Number(key.slice(1));
