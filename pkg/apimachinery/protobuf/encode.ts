// JSON -> protobuf for one message, the inverse of decode.ts: fields in number order, repeated
// scalars packed, maps as {key=1, value=2} entries, embedded Go structs as their own message.
import type { Schema } from '../../../api/schema.js';
import type { ProtoMessage } from '../../../api/proto/types.js';
import { encodeSpecial } from './scalars.js';
import { fieldName, shapeOf, type ProtoSchemas, type Shape } from './shape.js';
import { ProtoWriter, ProtobufError } from './wire.js';

/** Encodes the JSON object `obj` as the message of definition `name`; properties with no field are dropped. */
export function encodeMessage(obj: Record<string, unknown>, name: string, schemas: ProtoSchemas): Buffer {
  return messageWriter(obj, name, schemas, name).finish();
}

function messageWriter(obj: Record<string, unknown>, name: string, schemas: ProtoSchemas, path: string): ProtoWriter {
  const table = schemas.message(name);
  const schema = schemas.definition(name);
  if (!table || !schema) throw new ProtobufError(`${path}: no protobuf encoding is known for ${name}`);
  const w = new ProtoWriter();
  writeFields(w, obj, table, schema, schemas, path);
  return w;
}

function writeFields(w: ProtoWriter, obj: Record<string, unknown>, table: ProtoMessage, schema: Schema, schemas: ProtoSchemas, path: string): void {
  const numbers = Object.keys(table).map(Number).sort((a, b) => a - b);
  for (const n of numbers) {
    const entry = table[n]!;
    if (typeof entry === 'object') {
      const inline = schemas.message(entry.inline);
      if (!inline) throw new ProtobufError(`${path}: no protobuf encoding is known for ${entry.inline}`);
      const sub = new ProtoWriter();
      writeFields(sub, obj, inline, schema, schemas, path);
      w.message(n, sub);
      continue;
    }
    const { name } = fieldName(entry);
    const value = obj[name];
    if (value === undefined || value === null) continue;
    const shape = shapeOf(schema.properties?.[name], schemas);
    const at = `${path}.${name}`;
    if (shape.kind === 'array') {
      if (!Array.isArray(value)) throw new ProtobufError(`${at}: expected a list`);
      const item = shape.items;
      if (item.kind === 'scalar' && (item.type === 'integer' || item.type === 'boolean')) {
        if (value.length) w.packed(n, value.map((v) => Number(v)));
      } else {
        for (const v of value) writeValue(w, n, v, item, schemas, at);
      }
    } else if (shape.kind === 'map') {
      if (typeof value !== 'object' || Array.isArray(value)) throw new ProtobufError(`${at}: expected an object`);
      for (const key of Object.keys(value).sort()) {
        const e = new ProtoWriter().string(1, key);
        const v = (value as Record<string, unknown>)[key];
        if (v !== undefined && v !== null) writeValue(e, 2, v, shape.values, schemas, `${at}[${JSON.stringify(key)}]`);
        w.message(n, e);
      }
    } else if (shape.kind !== 'unknown') {
      writeValue(w, n, value, shape, schemas, at);
    }
  }
}

function writeValue(w: ProtoWriter, n: number, v: unknown, shape: Shape, schemas: ProtoSchemas, path: string): void {
  switch (shape.kind) {
    case 'message':
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ProtobufError(`${path}: expected an object`);
      w.message(n, messageWriter(v as Record<string, unknown>, shape.name, schemas, path));
      return;
    case 'special':
      w.message(n, encodeSpecial(shape.name, v));
      return;
    case 'array': {
      // A list as a map value: Go's named slice types (ExtraValue) are messages {items=1}.
      if (!Array.isArray(v)) throw new ProtobufError(`${path}: expected a list`);
      const items = new ProtoWriter();
      for (const x of v) writeValue(items, 1, x, shape.items, schemas, path);
      w.message(n, items);
      return;
    }
    case 'scalar':
      switch (shape.type) {
        case 'string': w.string(n, String(v)); return;
        case 'bytes': w.bytes(n, Buffer.from(String(v), 'base64')); return;
        case 'boolean': w.varint(n, Boolean(v)); return;
        case 'integer': w.varint(n, Number(v)); return;
        case 'number': w.double(n, Number(v)); return;
      }
      return;
    default:
      throw new ProtobufError(`${path}: cannot encode a ${shape.kind}`);
  }
}
