// Managers' sets reconciled with the schema now in force, before a write compares anything (structured-merge-diff's
// reconcileManagedFieldsWithSchemaChanges): a map or list a manager owned children of, and that has since become
// atomic (a CRD changed its map-type or list-type), is owned whole instead, so a later apply conflicts over it.
// Changes from atomic to granular need nothing: the owner keeps the field itself, none of its children.
//
//   reconcileEntries(entries, schema, lookup): Entry[]   // the entries, those that changed replaced
import type { Schema } from '../../../api/schema.js';
import { childSchema, itemSchema, resolveSchema, type SchemaLookup } from '../schema-lookup.js';
import { entryFields, type Entry } from './entries.js';
import { encodeFieldsV1, pathKey, type FieldSet, type Path } from './fieldpath.js';
import { isObj } from './walk.js';

type Obj = Record<string, unknown>;

/** Whether a schema's value is owned whole: an atomic map or struct, or a list that is neither a map list nor a set. */
const isAtomic = (s: Schema): boolean => {
  if (s.type === 'array' || s.items) {
    const type = s['x-kubernetes-list-type'];
    return !((type === 'map' && (s['x-kubernetes-list-map-keys']?.length ?? 0) > 0) || type === 'set');
  }
  return s['x-kubernetes-map-type'] === 'atomic';
};

/** An object that keeps unknown fields and declares none: the library's deduced map, left as it is. */
const isDeduced = (s: Schema): boolean => Boolean(s['x-kubernetes-preserve-unknown-fields']) && !s.properties && !isObj(s.additionalProperties);

/** The paths below `node` (FieldsV1) that own children of what is now atomic. */
const atomicOwned = (node: Obj, schema: Schema | undefined, path: Path, lookup: SchemaLookup, out: Path[]): void => {
  const s = resolveSchema(schema, lookup);
  if (!s || isDeduced(s)) return;
  const list = s.type === 'array' || Boolean(s.items);
  for (const [pe, child] of Object.entries(node)) {
    if (pe === '.' || !isObj(child) || Object.keys(child).every((k) => k === '.')) continue; // a leaf member
    const sub = list ? (pe.startsWith('f:') ? undefined : itemSchema(s, lookup)) : pe.startsWith('f:') ? childSchema(s, pe.slice(2), lookup) : undefined;
    const resolved = resolveSchema(sub, lookup);
    if (!resolved) continue; // not in the schema: ignored, as the library does
    if (isAtomic(resolved)) out.push([...path, pe]);
    else atomicOwned(child, resolved, [...path, pe], lookup, out);
  }
};

/** `set` owning each of `paths` whole: the path itself instead of anything under it. */
const ownWhole = (set: FieldSet, paths: Path[]): FieldSet => {
  const stems = paths.map((p) => pathKey(p).slice(0, -1));
  const out: FieldSet = new Set();
  for (const k of set) if (!stems.some((stem) => k.startsWith(stem) && (k.length === stem.length + 1 || k[stem.length] === ','))) out.add(k);
  for (const p of paths) out.add(pathKey(p));
  return out;
};

export const reconcileEntries = (entries: Entry[], schema: Schema | undefined, lookup: SchemaLookup): Entry[] =>
  entries.map((e) => {
    const paths: Path[] = [];
    atomicOwned(entryFields(e) ?? encodeFieldsV1(e.set), schema, [], lookup, paths);
    return paths.length === 0 ? e : { ...e, set: ownWhole(e.set, paths) };
  });
