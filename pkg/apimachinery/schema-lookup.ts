// Walking the api/ schema definitions: strategic merge patch and server-side apply both need, at every
// node of an object, the schema of a child field and its list/map extensions.
//
//   type SchemaLookup = (definitionName: string) => Schema | undefined
//   resolveSchema(s, lookup): Schema | undefined        // follows $ref and allOf:[{$ref}] wrappers
//   childSchema(parent, key, lookup): Schema | undefined // properties[key], else additionalProperties
//   itemSchema(list, lookup): Schema | undefined
import { propertyOf, refName, type Schema } from '../../api/schema.js';

export type SchemaLookup = (definitionName: string) => Schema | undefined;

const MAX_REF_DEPTH = 16;

/**
 * The schema a node really has: `$ref` and the `allOf: [{$ref}]` wrapper (how api/schema.ts attaches a
 * description to a reference) are followed; extensions written on the wrapper win over the target's.
 */
export const resolveSchema = (s: Schema | undefined, lookup: SchemaLookup): Schema | undefined => {
  if (!s) return undefined;
  // Definitions never change under a lookup, so each node resolves once (a wrapper resolves to a new object).
  let cache = lookup === lastLookup ? lastCache : resolvedBy.get(lookup);
  if (!cache) resolvedBy.set(lookup, (cache = new WeakMap()));
  lastLookup = lookup;
  lastCache = cache;
  if (cache.has(s)) return cache.get(s);
  const out = resolveUncached(s, lookup);
  cache.set(s, out);
  return out;
};

const resolvedBy = new WeakMap<SchemaLookup, WeakMap<Schema, Schema | undefined>>();
// the lookup of the previous call: walks ask with one lookup many times in a row
let lastLookup: SchemaLookup | undefined;
let lastCache: WeakMap<Schema, Schema | undefined> | undefined;

const resolveUncached = (s: Schema, lookup: SchemaLookup): Schema | undefined => {
  let cur: Schema | undefined = s;
  for (let depth = 0; cur && depth < MAX_REF_DEPTH; depth++) {
    const target = refName(cur) ?? (cur.allOf?.length === 1 ? refName(cur.allOf[0]) : undefined);
    if (!target) return cur;
    const { $ref: _ref, allOf: _allOf, description: _d, ...own } = cur;
    const resolved = lookup(target);
    if (!resolved) return Object.keys(own).length ? own : undefined;
    cur = { ...resolved, ...own };
  }
  return cur;
};

export const childSchema = (parent: Schema | undefined, key: string, lookup: SchemaLookup): Schema | undefined => {
  const p = resolveSchema(parent, lookup);
  if (!p) return undefined;
  const prop = propertyOf(p, key);
  if (prop) return resolveSchema(prop, lookup);
  return typeof p.additionalProperties === 'object' ? resolveSchema(p.additionalProperties, lookup) : undefined;
};

export const itemSchema = (list: Schema | undefined, lookup: SchemaLookup): Schema | undefined =>
  resolveSchema(resolveSchema(list, lookup)?.items, lookup);
