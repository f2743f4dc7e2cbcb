// The apimachinery types with their own protobuf encoding, read side (encode.ts writes them): Time and MicroTime
// {seconds=1, nanos=2}, Duration {duration=1 (ns)}, Quantity {string=1}, IntOrString
// {type=1, intVal=2, strVal=3}, RawExtension {raw=1}, FieldsV1 {Raw=1} and apiextensions' JSON
// {raw=1} (raw JSON). apiextensions' schema unions are read in decode.ts (they hold messages).
import { parseGoDurationMs } from '../duration.js';
import { exceedsDepth, MAX_DEPTH } from '../nesting.js';
import { formatTime } from '../time.js';
import { ProtoReader, ProtobufError, WIRE_BYTES, WIRE_VARINT } from './wire.js';
import { DURATION, EXT_JSON, FIELDS_V1, INT_OR_STRING, MICRO_TIME, QUANTITY, RAW_EXTENSION, TIME } from './shape.js';

/** Reads a message of only varint and string fields into field number -> value. */
function readSimple(bytes: Uint8Array): Map<number, number | Uint8Array> {
  const r = new ProtoReader(bytes);
  const out = new Map<number, number | Uint8Array>();
  while (!r.done) {
    const { field, wire } = r.key();
    if (wire === WIRE_VARINT) out.set(field, r.varint());
    else if (wire === WIRE_BYTES) out.set(field, r.bytes());
    else r.skip(wire);
  }
  return out;
}

const num = (v: number | Uint8Array | undefined, what: string): number => {
  if (v === undefined) return 0;
  if (typeof v !== 'number') throw new ProtobufError(`${what}: expected a number`);
  return v;
};
const bytesOf = (v: number | Uint8Array | undefined, what: string): Uint8Array | undefined => {
  if (v === undefined) return undefined;
  if (typeof v === 'number') throw new ProtobufError(`${what}: expected bytes`);
  return v;
};
const text = (b: Uint8Array | undefined): string => (b ? Buffer.from(b).toString('utf8') : '');

/** RFC 3339 in UTC with whole seconds, as Go's metav1.Time marshals. */
function rfc3339(seconds: number): string {
  const d = new Date(seconds * 1000);
  if (Number.isNaN(d.getTime())) throw new ProtobufError(`timestamp ${seconds} out of range`);
  return formatTime(d.getTime());
}

/** Go's time.Duration.String() of a number of nanoseconds. */
export function goDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  let u = neg ? -ns : ns;
  let out: string;
  const frac = (v: bigint, digits: number): string => {
    const s = v.toString().padStart(digits, '0').replace(/0+$/, '');
    return s ? `.${s}` : '';
  };
  if (u < 1_000_000_000n) {
    if (u < 1000n) out = `${u}ns`;
    else if (u < 1_000_000n) out = `${u / 1000n}${frac(u % 1000n, 3)}µs`;
    else out = `${u / 1_000_000n}${frac(u % 1_000_000n, 6)}ms`;
  } else {
    out = `${(u / 1_000_000_000n) % 60n}${frac(u % 1_000_000_000n, 9)}s`;
    u /= 1_000_000_000n * 60n;
    if (u > 0n) {
      out = `${u % 60n}m${out}`;
      u /= 60n;
      if (u > 0n) out = `${u}h${out}`;
    }
  }
  return neg ? `-${out}` : out;
}

/** Nanoseconds of a Go duration string ("1h30m", "1.5s", "-300ms"). */
export function parseGoDuration(s: string): bigint {
  const neg = s.startsWith('-');
  const ms = parseGoDurationMs(neg || s.startsWith('+') ? s.slice(1) : s);
  if (ms === undefined) throw new ProtobufError(`invalid duration ${JSON.stringify(s)}`);
  const ns = BigInt(Math.round(ms * 1e6));
  return neg ? -ns : ns;
}

/**
 * Parses raw JSON (RawExtension, FieldsV1); a nested protobuf object goes to `nested`. JSON nested deeper than a
 * JSON body may be is refused too: the walkers of validation and pruning recurse once per level.
 */
function rawJson(raw: Uint8Array | undefined, what: string, nested?: (raw: Uint8Array) => unknown): unknown {
  if (!raw || raw.length === 0) return undefined;
  if (nested && raw.length >= 4 && raw[0] === 0x6b && raw[1] === 0x38 && raw[2] === 0x73 && raw[3] === 0) return nested(raw);
  const json = Buffer.from(raw).toString('utf8');
  if (exceedsDepth(json, false)) throw new ProtobufError(`${what}: exceeded max depth of ${MAX_DEPTH}`);
  try {
    return JSON.parse(json);
  } catch {
    throw new ProtobufError(`${what}: the raw bytes are not JSON`);
  }
}

/** Decodes one of the special messages; undefined means absent (a zero time, an empty raw). */
export function decodeSpecial(name: string, bytes: Uint8Array, nested?: (raw: Uint8Array) => unknown): unknown {
  if (name === TIME || name === MICRO_TIME) {
    if (bytes.length === 0) return undefined;
    const f = readSimple(bytes);
    const seconds = num(f.get(1), 'timestamp seconds');
    if (name === TIME) return rfc3339(seconds);
    const micros = Math.floor(num(f.get(2), 'timestamp nanos') / 1000);
    return rfc3339(seconds).replace(/Z$/, `.${String(micros).padStart(6, '0')}Z`);
  }
  const f = readSimple(bytes);
  switch (name) {
    case DURATION:
      return goDuration(BigInt(num(f.get(1), 'duration')));
    case QUANTITY:
      return text(bytesOf(f.get(1), 'quantity')) || '0';
    case INT_OR_STRING:
      return num(f.get(1), 'IntOrString type') === 1 ? text(bytesOf(f.get(3), 'IntOrString strVal')) : num(f.get(2), 'IntOrString intVal');
    case RAW_EXTENSION:
      return rawJson(bytesOf(f.get(1), 'RawExtension raw'), 'RawExtension', nested);
    case FIELDS_V1:
      return rawJson(bytesOf(f.get(1), 'FieldsV1 Raw'), 'FieldsV1');
    case EXT_JSON:
      return rawJson(bytesOf(f.get(1), 'JSON raw'), 'JSON');
    default:
      throw new ProtobufError(`no decoder for ${name}`);
  }
}
