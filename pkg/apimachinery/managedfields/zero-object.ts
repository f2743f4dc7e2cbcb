// The object a create's writer is compared with. Upstream's create handler hands the field manager
// scope.Creater.New(kind) as the live object: for a built-in, the typed Go zero value, seen through its JSON tags (a
// value struct is there, `{}` at zero; a metav1.Time is null; a scalar without omitempty is its zero; a pointer, list
// or map without omitempty is null; the rest is absent); for a custom resource an Unstructured holding apiVersion
// and kind alone. structured-merge-diff's compare then makes a map or list the writer's own member only where the
// zero object lacks it, and skips what equals the zero object's value.
//
//   zeroObjectOf(rootDefinition, lookup): ZeroStruct
import { goZeroObjects } from '../../../api/go-zero-objects.js';
import { goZeroValues } from '../../../api/go-zero-values.js';
import { refName, type Schema } from '../../../api/schema.js';
import { resolveSchema, type SchemaLookup } from '../schema-lookup.js';

/** A struct the zero object holds, by the fields it holds (any other field is absent from it). */
export interface ZeroStruct {
  fields: ReadonlyMap<string, ZeroField>;
}
/** A field of the zero object: a struct, or a value (null, '', 0, false) that a written one is compared with. */
export type ZeroField = ZeroStruct | { value: unknown };

/** A struct without fields of its own: a custom resource's root, or a pointer's target that was null. */
export const NO_FIELDS: ZeroStruct = { fields: new Map() };
const NULL: ZeroField = { value: null };
const SCALARS = new Set(['string', 'integer', 'number', 'boolean']);

const scalarZero = (s: Schema | undefined): unknown => {
  switch (s?.type) {
    case 'string': return '';
    case 'integer':
    case 'number': return 0;
    case 'boolean': return false;
    default: return undefined;
  }
};

const definitionOf = (s: Schema): string | undefined => refName(s) ?? (s.allOf?.length === 1 ? refName(s.allOf[0]) : undefined);

/** Structs by definition name, per lookup (the built-in definitions never change under one). */
const built = new WeakMap<SchemaLookup, Map<string, ZeroStruct>>();

const zeroStruct = (name: string, lookup: SchemaLookup, cache: Map<string, ZeroStruct>): ZeroStruct => {
  const known = cache.get(name);
  if (known) return known;
  const s = resolveSchema(lookup(name), lookup);
  const fields = new Map<string, ZeroField>();
  const zeros = goZeroValues[name] ?? {};
  for (const [key, kind] of Object.entries(zeros)) {
    const property = s?.properties?.[key];
    if (!property) continue;
    if (kind === 'struct') {
      const def = definitionOf(property);
      fields.set(key, def ? zeroStruct(def, lookup, cache) : NO_FIELDS);
    } else if (kind === 'null') {
      fields.set(key, NULL);
    } else {
      const value = scalarZero(resolveSchema(property, lookup));
      if (value !== undefined) fields.set(key, { value });
    }
  }
  // A required field has no omitempty (openapi-gen's rule): a pointer, list or map one is written as null.
  for (const key of s?.required ?? []) {
    if (zeros[key]) continue;
    const property = resolveSchema(s?.properties?.[key], lookup);
    if (property && !SCALARS.has(property.type ?? '') && !property['x-kubernetes-int-or-string']) fields.set(key, NULL);
  }
  const out: ZeroStruct = { fields };
  cache.set(name, out);
  return out;
};

/** A zero object written as JSON: its objects are structs, anything else a value. */
const fromJson = (obj: Record<string, unknown>): ZeroStruct => ({
  fields: new Map(Object.entries(obj).map(([k, v]): [string, ZeroField] =>
    [k, typeof v === 'object' && v !== null && !Array.isArray(v) ? fromJson(v as Record<string, unknown>) : { value: v }])),
});

/**
 * The zero object of the kind `rootDefinition` names: a built-in's from its Go types, a custom resource's empty. A
 * watched kind whose types go-zero-values.ts lacks (APIService, PodSecurityPolicy) has its zero object's JSON in
 * go-zero-objects.ts (made for watch bookmarks from the same types; the other kinds' hold conversion artefacts).
 */
export const zeroObjectOf = (rootDefinition: string, lookup: SchemaLookup): ZeroStruct => {
  const typed = goZeroValues[rootDefinition] !== undefined;
  const json = goZeroObjects[rootDefinition];
  if (!typed && json === undefined) return NO_FIELDS;
  let cache = built.get(lookup);
  if (!cache) built.set(lookup, (cache = new Map()));
  if (typed) return zeroStruct(rootDefinition, lookup, cache);
  let out = cache.get(rootDefinition);
  if (!out) cache.set(rootDefinition, (out = fromJson({ metadata: { creationTimestamp: null }, ...JSON.parse(`{${json}}`) })));
  return out;
};
