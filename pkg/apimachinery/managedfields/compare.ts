// What a write changed, in field paths: the input of ownership transfer for both apply and update.
//
//   compareObjects(old, next, schema, lookup, ignore?): { changed: FieldSet; removed: FieldSet }
import type { Schema } from '../../../api/schema.js';
import type { KubeObject } from '../../../api/types.js';
import { jsonEqual } from '../json-equal.js';
import type { SchemaLookup } from '../schema-lookup.js';
import { fieldPE, type FieldSet, type Path } from './fieldpath.js';
import { stripIgnored } from './entries.js';
import { childKey, childOf, classify, flatten, flattenAt, isObj, ownsContainer, requiredFields, ROOT_KEY, type Place } from './walk.js';

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

export const compareObjects = (old: KubeObject | undefined, next: KubeObject, schema: Schema | undefined, lookup: SchemaLookup, ignore?: Path[]): Comparison => {
  const changed: FieldSet = new Set();
  const removed: FieldSet = new Set();
  const after = withoutManagedFields(next);
  // A create changes every path: their values are never compared.
  if (!old) for (const k of flatten(after, schema, lookup, false).keys()) changed.add(k);
  else diff(withoutManagedFields(old), after, schema, lookup, { at: ROOT_KEY, nested: false, required: false }, changed, removed);
  return { changed: stripIgnored(changed, ignore), removed: stripIgnored(removed, ignore) };
};

/**
 * The paths below `place` that `b` adds or changes and those it removes from `a`. Equal subtrees are
 * skipped without being walked, and maps and structs present on both sides are compared field by field,
 * so the cost follows the size of the change, not of the object.
 */
const diff = (a: unknown, b: unknown, schema: Schema | undefined, lookup: SchemaLookup, place: Place, changed: FieldSet, removed: FieldSet): void => {
  if (jsonEqual(a, b)) return;
  if (isObj(a) && isObj(b)) {
    const node = classify(b, schema, lookup);
    if ((node.kind === 'struct' || node.kind === 'map') && classify(a, schema, lookup).kind === node.kind) {
      const keysA = Object.keys(a);
      const keysB = Object.keys(b);
      const ownA = ownsContainer(node, keysA.length, true, place.nested, place.required);
      const ownB = ownsContainer(node, keysB.length, true, place.nested, place.required);
      if (ownB && !ownA) changed.add(place.at);
      if (ownA && !ownB) removed.add(place.at);
      const req = requiredFields(node.schema);
      // equal fields (shared by reference, mostly, after a patch) are passed before their path key is built
      const field = (k: string): void => {
        if (!jsonEqual(a[k], b[k])) diff(a[k], b[k], childOf(node, k, lookup), lookup, { at: childKey(place.at, fieldPE(k)), nested: true, required: req?.has(k) ?? false }, changed, removed);
      };
      for (const k of keysB) field(k);
      for (const k of keysA) if (!Object.hasOwn(b, k)) field(k);
      return;
    }
  }
  // a subtree only one side has: its paths, without the values there is nothing to compare with
  if (a === undefined || b === undefined) {
    for (const k of flattenAt(a ?? b, schema, lookup, place, false).keys()) (a === undefined ? changed : removed).add(k);
    return;
  }
  const before = flattenAt(a, schema, lookup, place);
  const after = flattenAt(b, schema, lookup, place);
  for (const [k, v] of after) if (before.get(k) !== v) changed.add(k);
  for (const k of before.keys()) if (!after.has(k)) removed.add(k);
};
