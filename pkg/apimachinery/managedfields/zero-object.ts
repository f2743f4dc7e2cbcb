// The object a create's writer is compared with. Upstream's create handler hands the field manager
// scope.Creater.New(kind) as the live object: for a built-in, the typed Go zero value, seen through its JSON tags (a
// value struct is there, `{}` at zero; a metav1.Time is null; a scalar without omitempty is its zero; a pointer, list
// or map without omitempty is null; the rest is absent); for a custom resource an Unstructured holding apiVersion
// and kind alone. structured-merge-diff's compare then makes a map or list the writer's own member only where the
// zero object lacks it, and skips what equals the zero object's value.
//
//   zeroObjectOf(rootDefinition, lookup): ZeroStruct
import { goZeroObject } from '../../../api/go-zero-objects.js';
import type { SchemaLookup } from '../schema-lookup.js';

/** A struct the zero object holds, by the fields it holds (any other field is absent from it). */
export interface ZeroStruct {
  fields: ReadonlyMap<string, ZeroField>;
}
/** A field of the zero object: a struct, or a value (null, '', 0, false) that a written one is compared with. */
export type ZeroField = ZeroStruct | { value: unknown };

/** A struct without fields of its own: a custom resource's root, or a pointer's target that was null. */
export const NO_FIELDS: ZeroStruct = { fields: new Map() };

/** A zero object written as JSON: its objects are structs, anything else a value. */
const fromJson = (obj: Record<string, unknown>): ZeroStruct => ({
  fields: new Map(Object.entries(obj).map(([k, v]): [string, ZeroField] =>
    [k, typeof v === 'object' && v !== null && !Array.isArray(v) ? fromJson(v as Record<string, unknown>) : { value: v }])),
});

/** Zero objects by root definition, per lookup (the built-in definitions never change under one). */
const built = new WeakMap<SchemaLookup, Map<string, ZeroStruct>>();

/**
 * The zero object of the kind `rootDefinition` names: a built-in's from its Go types (api/go-zero-objects.ts, without
 * the conversion's additions), a custom resource's empty.
 */
export const zeroObjectOf = (rootDefinition: string, lookup: SchemaLookup): ZeroStruct => {
  let cache = built.get(lookup);
  if (!cache) built.set(lookup, (cache = new Map()));
  let out = cache.get(rootDefinition);
  if (!out) {
    const obj = goZeroObject(rootDefinition, lookup);
    cache.set(rootDefinition, (out = obj ? fromJson(obj) : NO_FIELDS));
  }
  return out;
};
