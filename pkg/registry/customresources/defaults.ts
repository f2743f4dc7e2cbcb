// Structural defaulting of a custom resource (upstream: apiserver/schema/defaulting): a property's `default`
// fills it when absent, parents before children, through properties, additionalProperties and items.
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import { isPlainObject } from '../schema/index.js';
import { itemSchema } from './schema.js';
import { cloneJson } from '../../apimachinery/json-clone.js';

export function defaultCustomResource(value: unknown, s: JSONSchemaProps | undefined): void {
  if (!s || !hasDefaults(s)) return;
  if (Array.isArray(value)) {
    const items = itemSchema(s);
    if (items) for (const v of value) defaultCustomResource(v, items);
    return;
  }
  if (!isPlainObject(value)) return;
  const props = s.properties ?? {};
  for (const key in props) {
    const d = props[key]!.default;
    if (value[key] === undefined && d !== undefined) value[key] = cloneJson(d);
  }
  for (const key in value) {
    const v = value[key];
    if (typeof v !== 'object' || v === null) continue;
    const prop = props[key] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
    if (prop) defaultCustomResource(v, prop);
  }
}

/** Whether any node of the schema has a default (reads and writes skip defaulting otherwise); asked once per node. */
export function hasDefaults(s: JSONSchemaProps | undefined): boolean {
  if (!s) return false;
  let known = withDefaults.get(s);
  if (known === undefined) {
    known = s.default !== undefined || Object.values(s.properties ?? {}).some(hasDefaults) ||
      (typeof s.additionalProperties === 'object' && hasDefaults(s.additionalProperties)) || hasDefaults(itemSchema(s));
    withDefaults.set(s, known);
  }
  return known;
}

/** Schemas are not changed once a CRD version is served. */
const withDefaults = new WeakMap<JSONSchemaProps, boolean>();
