// JSON -> protobuf for one message, the inverse of decode.ts. Each message is compiled once into a
// plan of field writers, and every object is written into one reused scratch buffer whose nested
// lengths are patched in place: list and watch responses encode thousands of objects, and this
// keeps that close to JSON.stringify's speed. Fields go out in number order; maps sorted by key;
// repeated scalars unpacked (proto2, as upstream's generated marshallers write them).
import { propertyOf, type Schema } from '../../../api/schema.js';
import { parseGoDuration } from './scalars.js';
import {
  DURATION, EXT_JSON, FIELDS_V1, fieldName, INT_OR_STRING, MICRO_TIME, QUANTITY, RAW_EXTENSION, SCHEMA_OR_ARRAY, SCHEMA_OR_BOOL,
  SCHEMA_OR_STRINGS, SCHEMA_PROPS, shapeOf, TIME, type ProtoSchemas, type Shape,
} from './shape.js';
import { Sink } from './sink.js';
import { ProtobufError, WIRE_BYTES, WIRE_FIXED64, WIRE_VARINT } from './wire.js';

/** Writes one property's value: its key(s) and value(s). */
type Emit = (s: Sink, v: unknown) => void;

type Step = { name: string; emit: Emit } | { inline: () => Plan; key: number };

interface Plan {
  steps: Step[];
}

const plans = new WeakMap<ProtoSchemas, Map<string, Plan>>();
const scratch = new Sink();

/** Encodes the JSON object `obj` as the message of definition `name`; properties with no field are dropped. */
export function encodeMessage(obj: Record<string, unknown>, name: string, schemas: ProtoSchemas): Buffer {
  const plan = planOf(name, schemas);
  scratch.reset();
  writePlan(scratch, plan, obj);
  return scratch.copy();
}

/** Encodes into `s` at its position (for callers that frame several messages in one buffer). */
export function writeMessage(s: Sink, obj: Record<string, unknown>, name: string, schemas: ProtoSchemas): void {
  writePlan(s, planOf(name, schemas), obj);
}

function writePlan(s: Sink, plan: Plan, obj: Record<string, unknown>): void {
  for (const step of plan.steps) {
    if ('inline' in step) {
      // An embedded Go struct: its own message on the wire, its fields in the parent's JSON object.
      s.key(step.key);
      const at = s.begin();
      writePlan(s, step.inline(), obj);
      s.end(at);
      continue;
    }
    const v = obj[step.name];
    if (v !== undefined && v !== null) step.emit(s, v);
  }
}

function planOf(name: string, schemas: ProtoSchemas): Plan {
  let byName = plans.get(schemas);
  if (!byName) plans.set(schemas, (byName = new Map()));
  let plan = byName.get(name);
  if (plan) return plan;
  const table = schemas.message(name);
  const schema = schemas.definition(name);
  if (!table || !schema) throw new ProtobufError(`${name}: no protobuf encoding is known for ${name}`);
  plan = { steps: [] };
  byName.set(name, plan); // before compiling the fields: messages may nest themselves
  plan.steps = compileSteps(name, schema, schemas);
  return plan;
}

/** The steps of message `name`, whose properties are looked up in `schema` (the parent's, for an inlined struct). */
function compileSteps(name: string, schema: Schema, schemas: ProtoSchemas): Step[] {
  const table = schemas.message(name);
  if (!table) throw new ProtobufError(`${name}: no protobuf encoding is known for ${name}`);
  const steps: Step[] = [];
  for (const n of Object.keys(table).map(Number).sort((a, b) => a - b)) {
    const entry = table[n]!;
    if (typeof entry === 'object') {
      let inline: Plan | undefined;
      steps.push({ key: n * 8 + WIRE_BYTES, inline: () => (inline ??= { steps: compileSteps(entry.inline, schema, schemas) }) });
      continue;
    }
    const prop = fieldName(entry).name;
    const shape = shapeOf(propertyOf(schema, prop), schemas);
    if (shape.kind === 'unknown') continue;
    steps.push({ name: prop, emit: fieldEmitter(n, shape, schemas, `${name}.${prop}`) });
  }
  return steps;
}

function fieldEmitter(n: number, shape: Shape, schemas: ProtoSchemas, path: string): Emit {
  if (shape.kind === 'array') {
    const item = valueEmitter(n, shape.items, schemas, path);
    return (s, v) => {
      if (!Array.isArray(v)) throw new ProtobufError(`${path}: expected a list`);
      for (const x of v) if (x !== undefined) item(s, x);
    };
  }
  if (shape.kind === 'map') {
    const value = valueEmitter(2, shape.values, schemas, path);
    const key = n * 8 + WIRE_BYTES;
    return (s, v) => {
      if (typeof v !== 'object' || Array.isArray(v)) throw new ProtobufError(`${path}: expected an object`);
      const map = v as Record<string, unknown>;
      for (const k of Object.keys(map).sort()) {
        s.key(key);
        const at = s.begin();
        s.key(KEY1_BYTES);
        s.string(k);
        const x = map[k];
        if (x !== undefined && x !== null) value(s, x);
        s.end(at);
      }
    };
  }
  return valueEmitter(n, shape, schemas, path);
}

const KEY1_BYTES = 1 * 8 + WIRE_BYTES;

/** Writes one value with its key, field number `n`. */
function valueEmitter(n: number, shape: Shape, schemas: ProtoSchemas, path: string): Emit {
  const bytesKey = n * 8 + WIRE_BYTES;
  switch (shape.kind) {
    case 'message': {
      let plan: Plan | undefined;
      return (s, v) => {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ProtobufError(`${path}: expected an object`);
        plan ??= planOf(shape.name, schemas);
        s.key(bytesKey);
        const at = s.begin();
        writePlan(s, plan, v as Record<string, unknown>);
        s.end(at);
      };
    }
    case 'special': {
      const special = specialWriter(shape.name, path, schemas);
      return (s, v) => {
        s.key(bytesKey);
        const at = s.begin();
        special(s, v);
        s.end(at);
      };
    }
    case 'array': {
      // A list as a map value: Go's named slice types (ExtraValue) are messages {items=1}.
      const item = valueEmitter(1, shape.items, schemas, path);
      return (s, v) => {
        if (!Array.isArray(v)) throw new ProtobufError(`${path}: expected a list`);
        s.key(bytesKey);
        const at = s.begin();
        for (const x of v) if (x !== undefined && x !== null) item(s, x);
        s.end(at);
      };
    }
    case 'scalar':
      switch (shape.type) {
        case 'string':
          return (s, v) => {
            s.key(bytesKey);
            s.string(typeof v === 'string' ? v : String(v));
          };
        case 'bytes':
          return (s, v) => {
            s.key(bytesKey);
            s.bytes(Buffer.from(String(v), 'base64'));
          };
        case 'boolean':
          return (s, v) => {
            s.key(n * 8 + WIRE_VARINT);
            s.varint(v ? 1 : 0);
          };
        case 'integer':
          return (s, v) => {
            s.key(n * 8 + WIRE_VARINT);
            s.varint(typeof v === 'number' ? v : Number(v));
          };
        case 'number':
          return (s, v) => {
            s.key(n * 8 + WIRE_FIXED64);
            s.double(Number(v));
          };
      }
      break;
    default:
      break;
  }
  throw new ProtobufError(`${path}: cannot encode a ${shape.kind}`);
}

/** The body of one of apimachinery's messages with their own encoding (see scalars.ts for the reading side). */
function specialWriter(name: string, path: string, schemas: ProtoSchemas): (s: Sink, v: unknown) => void {
  switch (name) {
    case TIME:
    case MICRO_TIME:
      // Timestamp {seconds=1, nanos=2}.
      return (s, v) => {
        const t = parseTimestamp(String(v));
        if (!t) throw new ProtobufError(`${path}: invalid timestamp ${JSON.stringify(v)}`);
        s.key(1 * 8 + WIRE_VARINT);
        s.varint(t.seconds);
        if (name === MICRO_TIME && t.nanos) {
          s.key(2 * 8 + WIRE_VARINT);
          s.varint(t.nanos);
        }
      };
    case DURATION:
      return (s, v) => {
        s.key(1 * 8 + WIRE_VARINT);
        s.varint(parseGoDuration(String(v)));
      };
    case QUANTITY:
      return (s, v) => {
        s.key(KEY1_BYTES);
        s.string(String(v));
      };
    case INT_OR_STRING:
      // {type=1, intVal=2, strVal=3}, all three written as upstream's marshaller does.
      return (s, v) => {
        const isInt = typeof v === 'number';
        s.key(1 * 8 + WIRE_VARINT);
        s.varint(isInt ? 0 : 1);
        s.key(2 * 8 + WIRE_VARINT);
        s.varint(isInt ? v : 0);
        s.key(3 * 8 + WIRE_BYTES);
        s.string(isInt ? '' : String(v));
      };
    case SCHEMA_OR_BOOL:
    case SCHEMA_OR_ARRAY:
    case SCHEMA_OR_STRINGS:
      return schemaUnionWriter(name, path, schemas);
    case RAW_EXTENSION:
    case FIELDS_V1:
    case EXT_JSON:
      // {raw=1}: the JSON bytes.
      return (s, v) => {
        s.key(KEY1_BYTES);
        s.string(JSON.stringify(v));
      };
    default:
      throw new ProtobufError(`${path}: no encoder for ${name}`);
  }
}

/** apiextensions' unions: a JSON object is the schema; otherwise the bool (allows=1) or the list (field 2). */
function schemaUnionWriter(name: string, path: string, schemas: ProtoSchemas): (s: Sink, v: unknown) => void {
  const schemaKey = (name === SCHEMA_OR_BOOL ? 2 : 1) * 8 + WIRE_BYTES;
  const writeSchema = (s: Sink, v: unknown): void => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ProtobufError(`${path}: expected a schema object`);
    s.key(schemaKey);
    const at = s.begin();
    writePlan(s, planOf(SCHEMA_PROPS, schemas), v as Record<string, unknown>);
    s.end(at);
  };
  return (s, v) => {
    if (name === SCHEMA_OR_BOOL) {
      // Upstream reads a schema object as {allows: true, schema}.
      s.key(1 * 8 + WIRE_VARINT);
      s.varint(typeof v === 'boolean' ? (v ? 1 : 0) : 1);
      if (typeof v !== 'boolean') writeSchema(s, v);
      return;
    }
    if (!Array.isArray(v)) return writeSchema(s, v);
    for (const x of v) {
      s.key(2 * 8 + WIRE_BYTES);
      if (name === SCHEMA_OR_STRINGS) {
        s.string(String(x));
        continue;
      }
      const at = s.begin();
      writePlan(s, planOf(SCHEMA_PROPS, schemas), x as Record<string, unknown>);
      s.end(at);
    }
  };
}

const digits = (s: string, from: number, n: number): number => {
  let v = 0;
  for (let i = from; i < from + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return NaN;
    v = v * 10 + c;
  }
  return v;
};

/** Seconds and nanoseconds of an RFC 3339 time; the common `YYYY-MM-DDTHH:MM:SS[.frac]Z` is parsed by hand. */
export function parseTimestamp(t: string): { seconds: number; nanos: number } | undefined {
  // Date.UTC reads years 0-99 as 1900-1999: those go the slow way.
  if (t.length >= 20 && t.charCodeAt(t.length - 1) === 90 /* Z */ && t.charCodeAt(10) === 84 /* T */ && digits(t, 0, 4) >= 100) {
    const ms = Date.UTC(digits(t, 0, 4), digits(t, 5, 2) - 1, digits(t, 8, 2), digits(t, 11, 2), digits(t, 14, 2), digits(t, 17, 2));
    const frac = t.length > 21 && t.charCodeAt(19) === 46 /* . */ ? t.slice(20, -1) : '';
    const nanos = frac ? digits(frac.padEnd(9, '0').slice(0, 9), 0, 9) : 0;
    if (Number.isFinite(ms) && Number.isFinite(nanos) && (t.length === 20 || frac)) return { seconds: Math.floor(ms / 1000), nanos };
  }
  const ms = Date.parse(t);
  if (Number.isNaN(ms)) return undefined;
  const frac = /\.(\d{1,9})/.exec(t)?.[1];
  return { seconds: Math.floor(ms / 1000), nanos: frac ? Number(frac.padEnd(9, '0')) : 0 };
}
