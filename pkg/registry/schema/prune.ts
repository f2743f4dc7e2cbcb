// Unknown fields: upstream drops them while decoding into Go structs and, with fieldValidation
// Strict or Warn, reports them by path ("spec.containers[0].foo"). We do both in one walk.
// A JSON null decodes to Go's zero value, which is then omitted: nulls are dropped here too.
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
    } else if (isPlainObject(extra)) {
      unknown.push(...pruneUnknown(index, value[key], extra, childPath));
    } else if (extra !== true) {
      unknown.push(childPath);
      delete value[key];
    }
  }
  return unknown;
}
