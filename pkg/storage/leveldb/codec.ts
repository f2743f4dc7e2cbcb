// The LevelDB layout. Keys: "o" + object key -> object record; "e" + 16-digit revision -> event record;
// "m:…" -> meta. Values carry the object's JSON bytes verbatim after a small header line, so a write
// never re-serializes and a read parses each object once.
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

export function encodeObject(kv: KeyValue): Buffer {
  return Buffer.concat([Buffer.from(`${kv.modRevision} ${kv.createRevision}\n`), kv.bytes]);
}

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
  /** Length of the object's bytes; the previous state's bytes follow them. */
  n: number;
  /** modRevision and createRevision of the previous state. */
  p?: [number, number];
}

export function encodeEvent(ev: StoreEvent): Buffer {
  const header: EventHeader = { t: ev.type, k: ev.key, c: ev.kv.createRevision, n: ev.kv.bytes.length };
  if (ev.prev) header.p = [ev.prev.modRevision, ev.prev.createRevision];
  const parts = [Buffer.from(`${JSON.stringify(header)}\n`), ev.kv.bytes];
  if (ev.prev) parts.push(ev.prev.bytes);
  return Buffer.concat(parts);
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
