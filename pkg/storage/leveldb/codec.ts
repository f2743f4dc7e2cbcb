// The LevelDB layout. Keys: "e" + 16-digit revision -> event record (every write: the object's state
// after it); "o" + object key -> object record (the state of each key as of the compacted revision,
// written by compaction); "m:…" -> meta. Values carry the object's JSON bytes verbatim after a small
// header line, so a write never re-serializes and a read parses each object once. A write stores its
// bytes once: the state before it is the previous event of its key, or its object record.
import type { KeyValue, StoreEvent, WatchEventType } from '../interface.js';
import { keyValueOf } from '../keyvalue.js';

export const META_REVISION = 'm:revision';
export const META_COMPACTED = 'm:compacted';
export const OBJECT_RANGE = { gte: 'o', lt: 'p' };
export const objectKey = (key: string): string => `o${key}`;
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
  t: WatchEventType;
  k: string;
  /** createRevision of the object; its modRevision is the event's revision. */
  c: number;
  /** Length of the object's bytes. */
  n: number;
  /**
   * Records written before object records moved to compaction also carry the previous state: its
   * modRevision and createRevision here, its bytes after the object's.
   */
  p?: [number, number];
}

export function encodeEvent(ev: StoreEvent): Buffer {
  const header: EventHeader = { t: ev.type, k: ev.key, c: ev.kv.createRevision, n: ev.kv.bytes.length };
  return Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), ev.kv.bytes]);
}

/** The object record of an event's state: what compaction writes for the last event of each key. */
export function objectRecordOfEvent(revision: number, value: Buffer): { key: string; deleted: boolean; record: Buffer } {
  const nl = value.indexOf(NEWLINE);
  const h = JSON.parse(value.subarray(0, nl).toString()) as EventHeader;
  const bytes = value.subarray(nl + 1, nl + 1 + h.n);
  return { key: h.k, deleted: h.t === 'DELETED', record: Buffer.concat([Buffer.from(`${revision} ${h.c}\n`), bytes]) };
}

/**
 * `known(key, modRevision)` returns an already decoded state of the key (the current object, an earlier
 * event) so that replayed history shares objects instead of parsing them again.
 */
export function decodeEvent(
  revision: number,
  value: Buffer,
  known: (key: string, modRevision: number) => KeyValue | undefined,
): StoreEvent {
  const nl = value.indexOf(NEWLINE);
  const h = JSON.parse(value.subarray(0, nl).toString()) as EventHeader;
  const body = value.subarray(nl + 1);
  const kv = known(h.k, revision) ?? parsed(h.k, body.subarray(0, h.n), revision, h.c);
  if (!h.p) return { type: h.t, key: h.k, revision, kv };
  const prev = known(h.k, h.p[0]) ?? parsed(h.k, body.subarray(h.n), h.p[0], h.p[1]);
  return { type: h.t, key: h.k, revision, kv, prev };
}

function parsed(key: string, bytes: Buffer, modRevision: number, createRevision: number): KeyValue {
  // Copied out so the record's larger buffer is not kept alive by a slice of it; parsed when first read.
  return keyValueOf(key, Buffer.from(bytes), modRevision, createRevision);
}

export const revisionOfEventKey = (key: string): number => Number(key.slice(1));
