// Structural defaulting of a custom resource (upstream: apiserver/schema/defaulting): a property's `default`
// fills it when absent, parents before children, through properties, additionalProperties and items.
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import { isPlainObject } from '../schema/index.js';
import { itemSchema } from './schema.js';

export function defaultCustomResource(value: unknown, s: JSONSchemaProps | undefined): void {
  if (!s) return;
  if (Array.isArray(value)) {
    const items = itemSchema(s);
    if (items) for (const v of value) defaultCustomResource(v, items);
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [key, prop] of Object.entries(s.properties ?? {})) {
    if (value[key] === undefined && prop.default !== undefined) value[key] = structuredClone(prop.default);
  }
  for (const [key, v] of Object.entries(value)) {
    const prop = s.properties?.[key] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
    if (prop && v !== null) defaultCustomResource(v, prop);
  }
}

/** Whether any node of the schema has a default (reads can skip defaulting otherwise). */
export function hasDefaults(s: JSONSchemaProps | undefined): boolean {
  if (!s) return false;
  if (s.default !== undefined) return true;
  if (Object.values(s.properties ?? {}).some(hasDefaults)) return true;
  if (typeof s.additionalProperties === 'object' && hasDefaults(s.additionalProperties)) return true;
  return hasDefaults(itemSchema(s));
}
