// Defaulting as upstream does it for a decoded object: at each node, constant schema defaults for
// absent properties, then the computed defaulter of that definition, then the children.
import type { Schema } from '../../../api/schema.js';
import { isPlainObject, type SchemaIndex } from './index.js';

export function applyDefaults(index: SchemaIndex, value: unknown, schema: Schema): void {
  const { schema: s, name } = index.resolve(schema);
  if (Array.isArray(value)) {
    if (s.items) for (const item of value) applyDefaults(index, item, s.items);
    return;
  }
  if (!isPlainObject(value)) return;
  if (s.properties) {
    for (const [key, prop] of Object.entries(s.properties)) {
      if (value[key] === undefined) {
        if (prop.default !== undefined) value[key] = structuredClone(prop.default);
      }
    }
  }
  if (name) index.defaulters[name]?.(value);
  if (s.properties) {
    for (const [key, prop] of Object.entries(s.properties)) {
      if (value[key] !== undefined && value[key] !== null) applyDefaults(index, value[key], prop);
    }
  }
  if (isPlainObject(s.additionalProperties)) {
    const inner = s.additionalProperties;
    for (const [key, v] of Object.entries(value)) {
      if (!s.properties?.[key]) applyDefaults(index, v, inner);
    }
  }
}
