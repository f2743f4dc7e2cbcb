// Unknown fields: upstream drops them while decoding into Go structs and, with fieldValidation
// Strict or Warn, reports them by path ("spec.containers[0].foo"). We do both in one walk.
// A JSON null decodes to Go's zero value, which is then omitted: nulls are dropped here too, and so
// are empty maps and lists of optional fields (Go's omitempty: `labels: {}` is not kept).
import type { Schema } from '../../../api/schema.js';
import { isPlainObject, type SchemaIndex } from './index.js';

/** Removes fields the schema does not know; returns their paths, in document order. */
export function pruneUnknown(index: SchemaIndex, value: unknown, schema: Schema, path = ''): string[] {
  const { schema: s } = index.resolve(schema);
  const unknown: string[] = [];
  if (s['x-kubernetes-preserve-unknown-fields']) return unknown;
  if (Array.isArray(value)) {
    if (s.items) value.forEach((item, i) => unknown.push(...pruneUnknown(index, item, s.items!, `${path}[${i}]`)));
    return unknown;
  }
  if (!isPlainObject(value)) return unknown;
  const props = s.properties;
  const extra = s.additionalProperties;
  if (!props && extra === undefined) {
    // An object schema with neither: only a typed-but-unspecified object (e.g. FieldsV1) keeps all.
    return unknown;
  }
  for (const key of Object.keys(value)) {
    if (value[key] === null) {
      delete value[key];
      continue;
    }
    const child = props?.[key];
    const childPath = path ? `${path}.${key}` : key;
    if (child) {
      unknown.push(...pruneUnknown(index, value[key], child, childPath));
      if (isEmptyCollection(index, value[key], child) && !s.required?.includes(key)) delete value[key];
    } else if (isPlainObject(extra)) {
      unknown.push(...pruneUnknown(index, value[key], extra, childPath));
    } else if (extra !== true) {
      unknown.push(childPath);
      delete value[key];
    }
  }
  return unknown;
}

/** An empty list, or an empty map (an object schema of additionalProperties only). */
function isEmptyCollection(index: SchemaIndex, value: unknown, schema: Schema): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (!isPlainObject(value) || Object.keys(value).length > 0) return false;
  const { schema: s } = index.resolve(schema);
  return !s.properties && isPlainObject(s.additionalProperties) && !s['x-kubernetes-preserve-unknown-fields'];
}
