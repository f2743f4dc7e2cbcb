// What a write changed, in field paths: the input of ownership transfer for both apply and update
// (structured-merge-diff's Compare: Added and Modified are `changed`).
//
//   compareObjects(old, next, schema, lookup, ignore?): { changed: FieldSet; removed: FieldSet }
//   createdPaths(next, schema, lookup, zero, ignore?): FieldSet   // a create's, against the kind's zero object
import type { Schema } from '../../../api/schema.js';
import type { KubeObject } from '../../../api/types.js';
import { jsonEqual } from '../json-equal.js';
import type { SchemaLookup } from '../schema-lookup.js';
import { fieldPE, type FieldSet, type Path } from './fieldpath.js';
import { stripIgnored } from './entries.js';
import { childKey, childOf, classify, CONTAINER, EMPTY, flatten, flattenAt, isObj, ROOT_KEY, type Place } from './walk.js';
import type { ZeroStruct } from './zero-object.js';

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

/**
 * What a create of `next` changes: upstream compares it with scope.Creater.New(kind), the kind's `zero` object
 * (zero-object.ts), so a map or list is the writer's only where that object lacks it.
 */
export const createdPaths = (next: KubeObject, schema: Schema | undefined, lookup: SchemaLookup, zero: ZeroStruct, ignore?: Path[]): FieldSet =>
  stripIgnored(new Set(flatten(withoutManagedFields(next), schema, lookup, false, zero).keys()), ignore);

export const compareObjects = (old: KubeObject, next: KubeObject, schema: Schema | undefined, lookup: SchemaLookup, ignore?: Path[]): Comparison => {
  const changed: FieldSet = new Set();
  const removed: FieldSet = new Set();
  diff(withoutManagedFields(old), withoutManagedFields(next), schema, lookup, { at: ROOT_KEY, nested: false }, changed, removed);
  return { changed: stripIgnored(changed, ignore), removed: stripIgnored(removed, ignore) };
};

const isNonEmptyObj = (v: unknown): v is Record<string, unknown> => isObj(v) && Object.keys(v).length > 0;

/**
 * Whether a path both sides have holds the same value as structured-merge-diff compares it: a map or list is a leaf
 * only when both sides are empty or null; otherwise its contents are compared, never the container itself.
 */
const sameValue = (before: string, after: string): boolean =>
  before === after
  || (before === CONTAINER && (after === EMPTY || after === 'null'))
  || (after === CONTAINER && (before === EMPTY || before === 'null'));

/**
 * The paths below `place` that `b` adds or changes and those it removes from `a`. Equal subtrees are
 * skipped without being walked, and maps and structs present on both sides are compared field by field,
 * so the cost follows the size of the change, not of the object. A map or struct both sides have is neither
 * added nor removed (upstream's compare marks a container only where one side lacks it); null beside a non-empty
 * one is the empty one.
 */
const diff = (a: unknown, b: unknown, schema: Schema | undefined, lookup: SchemaLookup, place: Place, changed: FieldSet, removed: FieldSet): void => {
  if (jsonEqual(a, b)) return;
  const x = a === null && isNonEmptyObj(b) ? {} : a;
  const y = b === null && isNonEmptyObj(a) ? {} : b;
  if (isObj(x) && isObj(y)) {
    const node = classify(y, schema, lookup);
    if ((node.kind === 'struct' || node.kind === 'map') && classify(x, schema, lookup).kind === node.kind) {
      // equal fields (shared by reference, mostly, after a patch) are passed before their path key is built
      const field = (k: string): void => {
        if (!jsonEqual(x[k], y[k])) diff(x[k], y[k], childOf(node, k, lookup), lookup, { at: childKey(place.at, fieldPE(k)), nested: true }, changed, removed);
      };
      for (const k of Object.keys(y)) field(k);
      for (const k of Object.keys(x)) if (!Object.hasOwn(y, k)) field(k);
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
  for (const [k, v] of after) {
    const w = before.get(k);
    if (w === undefined || !sameValue(w, v)) changed.add(k);
  }
  for (const k of before.keys()) if (!after.has(k)) removed.add(k);
};
