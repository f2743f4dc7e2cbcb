// What a property's schema says about its protobuf encoding: a nested message, one of the
// scalar-like apimachinery messages, a repeated field, a map, or a plain scalar.
import { refName, type Schema } from '../../../api/schema.js';
import type { ProtoMessage } from '../../../api/proto/types.js';

/** Where the decoder and encoder look up our schemas and the field tables. */
export interface ProtoSchemas {
  definition(name: string): Schema | undefined;
  message(name: string): ProtoMessage | undefined;
}

export const TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.Time';
export const MICRO_TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime';
export const DURATION = 'io.k8s.apimachinery.pkg.apis.meta.v1.Duration';
export const FIELDS_V1 = 'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1';
export const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
export const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
export const RAW_EXTENSION = 'io.k8s.apimachinery.pkg.runtime.RawExtension';

const X = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.';
/** apiextensions' JSON {raw=1}: any JSON value, as RawExtension. */
export const EXT_JSON = `${X}JSON`;
export const SCHEMA_PROPS = `${X}JSONSchemaProps`;
/** JSON true/false or a schema: {allows=1, schema=2}. */
export const SCHEMA_OR_BOOL = `${X}JSONSchemaPropsOrBool`;
/** A schema or a list of them: {schema=1, jSONSchemas=2}. */
export const SCHEMA_OR_ARRAY = `${X}JSONSchemaPropsOrArray`;
/** A schema or a list of strings: {schema=1, property=2}. */
export const SCHEMA_OR_STRINGS = `${X}JSONSchemaPropsOrStringArray`;
/** Unions of a JSONSchemaProps and something else: the message they use depends on the JSON value's type. */
export const SCHEMA_UNIONS = new Set([SCHEMA_OR_BOOL, SCHEMA_OR_ARRAY, SCHEMA_OR_STRINGS]);

export const SPECIAL_MESSAGES = new Set([TIME, MICRO_TIME, DURATION, FIELDS_V1, QUANTITY, INT_OR_STRING, RAW_EXTENSION, EXT_JSON, ...SCHEMA_UNIONS]);

export type ScalarType = 'string' | 'bytes' | 'integer' | 'number' | 'boolean';

export type Shape =
  | { kind: 'message'; name: string }
  | { kind: 'special'; name: string }
  | { kind: 'array'; items: Shape }
  | { kind: 'map'; values: Shape }
  | { kind: 'scalar'; type: ScalarType }
  | { kind: 'unknown' };

const UNKNOWN: Shape = { kind: 'unknown' };
const cache = new WeakMap<Schema, Shape>();

const refOf = (s: Schema): string | undefined => refName(s) ?? (s.allOf?.length === 1 ? refName(s.allOf[0]!) : undefined);

export function shapeOf(schema: Schema | undefined, schemas: ProtoSchemas, depth = 0): Shape {
  if (!schema || depth > 8) return UNKNOWN;
  const cached = cache.get(schema);
  if (cached) return cached;
  const shape = computeShape(schema, schemas, depth);
  cache.set(schema, shape);
  return shape;
}

function computeShape(s: Schema, schemas: ProtoSchemas, depth: number): Shape {
  const ref = refOf(s);
  if (ref) {
    if (SPECIAL_MESSAGES.has(ref)) return { kind: 'special', name: ref };
    if (schemas.message(ref)) return { kind: 'message', name: ref };
    return shapeOf(schemas.definition(ref), schemas, depth + 1);
  }
  switch (s.type) {
    case 'array':
      return { kind: 'array', items: shapeOf(s.items, schemas, depth + 1) };
    case 'object':
      if (!s.properties && s.additionalProperties && typeof s.additionalProperties === 'object') {
        return { kind: 'map', values: shapeOf(s.additionalProperties, schemas, depth + 1) };
      }
      return UNKNOWN;
    case 'string':
      return { kind: 'scalar', type: s.format === 'byte' ? 'bytes' : 'string' };
    case 'integer':
    case 'number':
    case 'boolean':
      return { kind: 'scalar', type: s.type };
    default:
      return UNKNOWN;
  }
}

/** Splits a table entry into the JSON name and whether a zero value is kept. */
export const fieldName = (entry: string): { name: string; keepZero: boolean } =>
  entry.endsWith('*') ? { name: entry.slice(0, -1), keepZero: true } : { name: entry, keepZero: false };
