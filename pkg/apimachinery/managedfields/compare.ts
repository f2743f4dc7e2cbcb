// What a write changed, in field paths: the input of ownership transfer for both apply and update.
//
//   compareObjects(old, next, schema, lookup, ignore?): { changed: FieldSet; removed: FieldSet }
import type { Schema } from '../../../api/schema.js';
import type { KubeObject } from '../../../api/types.js';
import type { SchemaLookup } from '../schema-lookup.js';
import type { FieldSet, Path } from './fieldpath.js';
import { stripIgnored } from './entries.js';
import { flatten } from './walk.js';

export interface Comparison {
  /** Added or modified (upstream's Added ∪ Modified). */
  changed: FieldSet;
  removed: FieldSet;
}

/** The object as the field manager sees it: its own bookkeeping left out. */
export const withoutManagedFields = (obj: KubeObject | undefined): KubeObject | undefined => {
  if (!obj) return undefined;
  if (!obj.metadata?.managedFields) return obj;
  const { managedFields: _mf, ...metadata } = obj.metadata;
  return { ...obj, metadata };
};

export const compareObjects = (old: KubeObject | undefined, next: KubeObject, schema: Schema | undefined, lookup: SchemaLookup, ignore: Path[] = []): Comparison => {
  const before = old ? flatten(withoutManagedFields(old), schema, lookup) : new Map<string, string>();
  // A create changes every path: their values are never compared.
  const after = flatten(withoutManagedFields(next), schema, lookup, old !== undefined);
  const changed: FieldSet = new Set();
  const removed: FieldSet = new Set();
  for (const [k, v] of after) if (before.get(k) !== v) changed.add(k);
  for (const k of before.keys()) if (!after.has(k)) removed.add(k);
  return { changed: stripIgnored(changed, ignore), removed: stripIgnored(removed, ignore) };
};
