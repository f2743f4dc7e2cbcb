// Protobuf -> JSON for one message, walking it with our schema: the field table gives each field
// number's JSON name, the schema gives its type. The result is what Go's JSON encoding of the same
// decoded struct gives: absent fields, empty lists and maps, and zero scalars of omitempty
// non-pointer fields are left out.
import type { Schema } from '../../../api/schema.js';
import type { ProtoMessage } from '../../../api/proto/types.js';
import { decodeSpecial } from './scalars.js';
import { fieldName, SCHEMA_OR_ARRAY, SCHEMA_OR_BOOL, SCHEMA_OR_STRINGS, SCHEMA_PROPS, SCHEMA_UNIONS, shapeOf, type ProtoSchemas, type Shape } from './shape.js';
import { ProtoReader, ProtobufError, WIRE_BYTES, WIRE_FIXED32, WIRE_FIXED64, WIRE_VARINT } from './wire.js';

export interface DecodeOptions {
  /** Decodes an object embedded in a RawExtension in protobuf form (with the `k8s\0` magic). */
  nested?: (raw: Uint8Array) => unknown;
}

const MAX_DEPTH = 64;

/** Decodes the message `bytes` of definition `name` into its JSON object. */
export function decodeMessage(bytes: Uint8Array, name: string, schemas: ProtoSchemas, opts: DecodeOptions = {}): Record<string, unknown> {
  return new Decoder(schemas, opts).message(bytes, name, name, 0);
}

const isZero = (v: unknown): boolean => v === '' || v === 0 || v === false;

class Decoder {
  constructor(private readonly schemas: ProtoSchemas, private readonly opts: DecodeOptions) {}

  message(bytes: Uint8Array, name: string, path: string, depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) throw new ProtobufError(`${path}: nested too deeply`);
    const table = this.schemas.message(name);
    const schema = this.schemas.definition(name);
    if (!table || !schema) throw new ProtobufError(`${path}: no protobuf encoding is known for ${name}`);
    const out: Record<string, unknown> = {};
    this.fields(out, bytes, table, schema, path, depth);
    return out;
  }

  private fields(out: Record<string, unknown>, bytes: Uint8Array, table: ProtoMessage, schema: Schema, path: string, depth: number): void {
    const r = new ProtoReader(bytes);
    while (!r.done) {
      const { field, wire } = r.key();
      const entry = table[field];
      if (entry === undefined) {
        r.skip(wire);
        continue;
      }
      if (typeof entry === 'object') {
        // An embedded Go struct inlined into this JSON object.
        const inline = this.schemas.message(entry.inline);
        if (!inline || wire !== WIRE_BYTES) throw new ProtobufError(`${path}: bad embedded ${entry.inline}`);
        this.fields(out, r.bytes(), inline, schema, path, depth + 1);
        continue;
      }
      const { name, keepZero } = fieldName(entry);
      const prop = schema.properties?.[name];
      const shape = shapeOf(prop, this.schemas);
      const at = `${path}.${name}`;
      if (shape.kind === 'unknown') {
        r.skip(wire);
        continue;
      }
      if (shape.kind === 'array') {
        const list = (out[name] ?? []) as unknown[];
        const item = shape.items;
        if (wire === WIRE_BYTES && item.kind === 'scalar' && item.type !== 'string' && item.type !== 'bytes') {
          const packed = r.bytes();
          const pr = new ProtoReader(packed);
          const packedWire = item.type === 'number' ? WIRE_FIXED64 : WIRE_VARINT;
          while (!pr.done) list.push(this.value(pr, packedWire, item, at, depth));
        } else {
          const v = this.value(r, wire, item, at, depth);
          list.push(v ?? null);
        }
        if (list.length) out[name] = list;
        continue;
      }
      if (shape.kind === 'map') {
        if (wire !== WIRE_BYTES) throw new ProtobufError(`${at}: a map entry must be length-delimited`);
        const map = (out[name] ??= {}) as Record<string, unknown>;
        const [key, value] = this.mapEntry(r.bytes(), shape.values, at, depth);
        map[key] = value;
        continue;
      }
      const v = this.value(r, wire, shape, at, depth);
      // a message on the wire is kept even when it reads as a zero (an IntOrString 0): Go's pointer was set, or
      // Go's JSON writes the struct whatever its value
      if (v === undefined || (!keepZero && shape.kind === 'scalar' && isZero(v))) delete out[name];
      else out[name] = v;
    }
  }

  private mapEntry(bytes: Uint8Array, values: Shape, path: string, depth: number): [string, unknown] {
    const r = new ProtoReader(bytes);
    let key = '';
    let value: unknown;
    while (!r.done) {
      const { field, wire } = r.key();
      if (field === 1 && wire === WIRE_BYTES) key = r.string();
      else if (field === 2 && values.kind === 'array') value = this.wrappedList(r, wire, values.items, `${path}[${JSON.stringify(key)}]`, depth);
      else if (field === 2) value = this.value(r, wire, values, `${path}[${JSON.stringify(key)}]`, depth);
      else r.skip(wire);
    }
    return [key, value ?? zeroOf(values)];
  }

  /** A list as a map value: Go's named slice types (ExtraValue) are messages {items=1}. */
  private wrappedList(r: ProtoReader, wire: number, item: Shape, path: string, depth: number): unknown[] {
    if (wire !== WIRE_BYTES) throw new ProtobufError(`${path}: a list in a map must be length-delimited`);
    const wr = new ProtoReader(r.bytes());
    const list: unknown[] = [];
    while (!wr.done) {
      const k = wr.key();
      if (k.field === 1) list.push(this.value(wr, k.wire, item, path, depth) ?? null);
      else wr.skip(k.wire);
    }
    return list;
  }

  /** apiextensions' unions of a JSONSchemaProps with a bool, a list of schemas or a list of strings, as upstream's MarshalJSON writes them. */
  private schemaUnion(name: string, bytes: Uint8Array, path: string, depth: number): unknown {
    const r = new ProtoReader(bytes);
    const schemaField = name === SCHEMA_OR_BOOL ? 2 : 1;
    let schema: Record<string, unknown> | undefined;
    let allows = false;
    const list: unknown[] = [];
    while (!r.done) {
      const { field, wire } = r.key();
      if (field === schemaField && wire === WIRE_BYTES) schema = this.message(r.bytes(), SCHEMA_PROPS, path, depth + 1);
      else if (name === SCHEMA_OR_BOOL && field === 1 && wire === WIRE_VARINT) allows = r.varint() !== 0;
      else if (name === SCHEMA_OR_ARRAY && field === 2 && wire === WIRE_BYTES) list.push(this.message(r.bytes(), SCHEMA_PROPS, path, depth + 1));
      else if (name === SCHEMA_OR_STRINGS && field === 2 && wire === WIRE_BYTES) list.push(r.string());
      else r.skip(wire);
    }
    if (name === SCHEMA_OR_BOOL) return schema ?? allows;
    return list.length ? list : schema;
  }

  private value(r: ProtoReader, wire: number, shape: Shape, path: string, depth: number): unknown {
    const mismatch = (): ProtobufError => new ProtobufError(`${path}: wire type ${wire} does not fit a ${describe(shape)}`);
    switch (shape.kind) {
      case 'message':
        if (wire !== WIRE_BYTES) throw mismatch();
        return this.message(r.bytes(), shape.name, path, depth + 1);
      case 'special':
        if (wire !== WIRE_BYTES) throw mismatch();
        if (SCHEMA_UNIONS.has(shape.name)) return this.schemaUnion(shape.name, r.bytes(), path, depth);
        return decodeSpecial(shape.name, r.bytes(), this.opts.nested);
      case 'scalar':
        switch (shape.type) {
          case 'string':
            if (wire !== WIRE_BYTES) throw mismatch();
            return r.string();
          case 'bytes':
            if (wire !== WIRE_BYTES) throw mismatch();
            return Buffer.from(r.bytes()).toString('base64');
          case 'boolean':
            if (wire !== WIRE_VARINT) throw mismatch();
            return r.varint() !== 0;
          case 'integer':
            if (wire === WIRE_VARINT) return r.varint();
            if (wire === WIRE_FIXED64) return Number(r.fixed64().getBigInt64(0, true));
            if (wire === WIRE_FIXED32) return r.fixed32().getInt32(0, true);
            throw mismatch();
          case 'number':
            if (wire === WIRE_FIXED64) return r.double();
            if (wire === WIRE_FIXED32) return r.float();
            if (wire === WIRE_VARINT) return r.varint();
            throw mismatch();
        }
        break;
      default:
        r.skip(wire);
        return undefined;
    }
  }
}

const describe = (s: Shape): string =>
  s.kind === 'scalar' ? s.type : s.kind === 'message' || s.kind === 'special' ? s.name.replace(/^.*\./, '') : s.kind;

/** The value of a map entry whose value field is absent: Go's zero value. */
function zeroOf(s: Shape): unknown {
  if (s.kind === 'scalar') return s.type === 'integer' || s.type === 'number' ? 0 : s.type === 'boolean' ? false : '';
  if (s.kind === 'message') return {};
  if (s.kind === 'special') return decodeSpecial(s.name, new Uint8Array(0)) ?? null;
  if (s.kind === 'array') return [];
  return null;
}
