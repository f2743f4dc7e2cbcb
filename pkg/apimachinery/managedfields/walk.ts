// How server-side apply sees an object: every node classified by its schema (structured-merge-diff's
// list-type / map-type rules), and the field paths an object holds.
//
//   classify(value, schema, lookup): Node
//   itemPE(item, node): string                               // k:{...} for map-lists, v:... for sets
//   fieldSetOf(obj, schema, lookup): FieldSet                // what an applier owns: leaves and list items
//   flatten(obj, schema, lookup, values?, zero?): Map<pathKey, valueJson>  // every leaf and member, for comparing two objects
//   createdFieldsV1(obj, schema, lookup, excluded, zero): FieldsV1 | undefined  // what a create's writer owns
import type { Schema } from '../../../api/schema.js';
import { childSchema, itemSchema, resolveSchema, type SchemaLookup } from '../schema-lookup.js';
import { FieldTrie, fieldPE, keyPE, valuePE, type FieldSet, type Path } from './fieldpath.js';
import { NO_FIELDS, type ZeroStruct } from './zero-object.js';

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export type Node =
  | { kind: 'leaf' }
  /** A struct (named properties) or a map (additionalProperties or untyped): merged field by field. */
  | { kind: 'struct' | 'map'; schema: Schema | undefined }
  | { kind: 'mapList'; keys: string[]; item: Schema | undefined }
  | { kind: 'set' };

const LEAF: Node = { kind: 'leaf' };
const UNTYPED_MAP: Node = { kind: 'map', schema: undefined };
/** Nodes depend only on the schema and whether the value is a list or an object: made once per schema. */
const listNodes = new WeakMap<Schema, Node>();
const objectNodes = new WeakMap<Schema, Node>();

export const classify = (value: unknown, schema: Schema | undefined, lookup: SchemaLookup): Node => {
  const list = Array.isArray(value);
  if (!list && !isObj(value)) return LEAF;
  const s = resolveSchema(schema, lookup);
  if (!s) return list ? LEAF : UNTYPED_MAP;
  const cache = list ? listNodes : objectNodes;
  let node = cache.get(s);
  if (!node) {
    if (list) {
      const type = s['x-kubernetes-list-type'];
      const keys = s['x-kubernetes-list-map-keys'] ?? [];
      node = type === 'map' && keys.length > 0 ? { kind: 'mapList', keys, item: itemSchema(s, lookup) } : type === 'set' ? { kind: 'set' } : LEAF;
    } else {
      node = s['x-kubernetes-map-type'] === 'atomic' ? LEAF : { kind: s.properties ? 'struct' : 'map', schema: s };
    }
    cache.set(s, node);
  }
  return node;
};

/** The path element of one list item; a missing key field takes its schema default (protocol: TCP). */
export const itemPE = (item: unknown, node: Node, lookup: SchemaLookup): string => {
  if (node.kind !== 'mapList') return valuePE(item);
  const keys: Obj = {};
  const obj = isObj(item) ? item : {};
  for (const k of node.keys) {
    const v = obj[k] ?? childSchema(node.item, k, lookup)?.default;
    if (v !== undefined) keys[k] = v;
  }
  return keyPE(keys);
};

export const childOf = (node: Node, key: string, lookup: SchemaLookup): Schema | undefined =>
  node.kind === 'struct' || node.kind === 'map' ? childSchema(node.schema, key, lookup) : undefined;

/**
 * What flatten gives a map, struct or granular list: an empty one is a leaf (`{}`), a non-empty one CONTAINER, whose
 * contents are compared instead (structured-merge-diff promotes a container to a leaf only when both sides are empty).
 */
export const EMPTY = '{}';
export const CONTAINER = '{…}';
const emptyValue = (): string => EMPTY;
const containerValue = (): string => CONTAINER;
const sizeValue = (size: number): (() => string) => (size === 0 ? emptyValue : containerValue);

/** Marks a field equal to the zero object's: a create did not write it. */
export const UNCHANGED: unique symbol = Symbol('unchanged');

/**
 * How the field `key` of a create's object stands against the zero object's struct `zero`: UNCHANGED (the zero
 * object's value), a struct the zero object holds there (walked against it, not a member itself), or undefined
 * (absent there, or another value: the writer's, a map or list with it). A nil pointer, list or map was there as
 * null: a non-empty one fills it (its contents are the writer's, the container is not), an empty one replaces it.
 */
export const zeroOfChild = (zero: ZeroStruct, key: string, value: unknown): ZeroStruct | typeof UNCHANGED | undefined => {
  const z = zero.fields.get(key);
  if (z === undefined) return undefined;
  if ('fields' in z) return isObj(value) ? z : undefined;
  if (value === z.value) return UNCHANGED;
  if (z.value !== null || typeof value !== 'object' || value === null) return undefined;
  return (Array.isArray(value) ? value.length : Object.keys(value).length) > 0 ? NO_FIELDS : undefined;
};

/**
 * Where a subtree stands: its path's name, whether it is below the root, and the zero object's struct there when
 * the subtree is a create's and the zero object holds one (see zeroOfChild).
 */
export interface Place<C = string> {
  at: C;
  nested: boolean;
  zero?: ZeroStruct;
}

/**
 * How a walk names the paths it visits: `child` gives a child's name from its parent's and the path
 * element, or undefined to leave that subtree out.
 */
interface PathBuilder<C> {
  root: C;
  child(parent: C, pe: string): C | undefined;
}

/** A path element as JSON: the same elements recur in every write of a kind, so each is quoted once. */
const quotedPEs = new Map<string, string>();
const quoted = (pe: string): string => {
  let q = quotedPEs.get(pe);
  if (q === undefined) {
    if (quotedPEs.size >= 50_000) quotedPEs.clear(); // keys of maps (labels, data) are unbounded
    quotedPEs.set(pe, (q = JSON.stringify(pe)));
  }
  return q;
};

/** Paths as FieldSet keys, each built from its parent's key (equal to pathKey of the whole path). */
const keyPaths: PathBuilder<string> = {
  root: '[]',
  child: (parent, pe) => (parent.length === 2 ? `[${quoted(pe)}]` : `${parent.slice(0, -1)},${quoted(pe)}]`),
};

/**
 * Visits every path of `value`. `containers`: whether maps and granular lists count as members themselves
 * (a writer that adds a labels map owns it; an applier owns only what it wrote); empty ones always do, and list
 * items. Against a zero object (`from.zero`) only what it lacks is a member, and what equals it is left out. A null is
 * a leaf: what a stored object holds as null is Go's zero value written out (a condition's `lastProbeTime`), and its
 * writer owns it, as a cluster's managedFields show.
 */
const visit = <C>(
  value: unknown, schema: Schema | undefined, lookup: SchemaLookup, containers: boolean,
  paths: PathBuilder<C>, emit: (at: C, v: () => string) => void,
  from: Place<C> = { at: paths.root, nested: false },
): void => {
  const walk = (v: unknown, s: Schema | undefined, at: C, nested: boolean, zero: ZeroStruct | undefined, member = false): void => {
    if (v === undefined) return;
    const node = classify(v, s, lookup);
    switch (node.kind) {
      case 'leaf':
        emit(at, () => JSON.stringify(v));
        return;
      case 'struct':
      case 'map': {
        const keys = Object.keys(v as Obj);
        if (member || (!zero && ownsContainer(keys.length, containers, nested))) emit(at, sizeValue(keys.length));
        for (const k of keys) {
          const value = (v as Obj)[k];
          const z = zero && zeroOfChild(zero, k, value);
          if (z === UNCHANGED) continue;
          const child = paths.child(at, fieldPE(k));
          if (child !== undefined) walk(value, childOf(node, k, lookup), child, true, z);
        }
        return;
      }
      case 'mapList':
      case 'set': {
        const items = v as unknown[];
        if (member || (!zero && ownsContainer(items.length, containers, nested))) emit(at, sizeValue(items.length));
        for (const item of items) {
          const child = paths.child(at, itemPE(item, node, lookup));
          if (child === undefined) continue;
          if (node.kind === 'set') emit(child, () => JSON.stringify(item));
          else walk(item, node.item, child, true, undefined, true);
        }
      }
    }
  };
  walk(value, schema, from.at, from.nested, from.zero);
};

/** Whether a map, struct or granular list below the root is a member itself (empty ones always; with `containers`, all). */
const ownsContainer = (size: number, containers: boolean, nested: boolean): boolean => nested && (containers || size === 0);

/** What an applier of `value` owns: its leaves, list items and empty objects (never the maps above them). */
export const fieldSetOf = (value: unknown, schema: Schema | undefined, lookup: SchemaLookup): FieldSet => {
  const out: FieldSet = new Set();
  visit(value, schema, lookup, false, keyPaths, (key) => out.add(key));
  return out;
};

/**
 * Every path of `value` with its value's JSON (CONTAINER or EMPTY for containers); without `values`, the paths
 * alone. With `zero`, the paths a create of `value` writes (see zeroOfChild).
 */
export const flatten = (value: unknown, schema: Schema | undefined, lookup: SchemaLookup, values = true, zero?: ZeroStruct): Map<string, string> =>
  flattenAt(value, schema, lookup, { at: keyPaths.root, nested: false, zero }, values);

/** Key of the child `pe` of the path with key `parent`. */
export const childKey = (parent: string, pe: string): string => keyPaths.child(parent, pe)!;
export const ROOT_KEY = keyPaths.root;

/** flatten of the subtree at `from` (its key, whether it is below the root, the zero object's struct there). */
export const flattenAt = (value: unknown, schema: Schema | undefined, lookup: SchemaLookup, from: Place, values = true): Map<string, string> => {
  const out = new Map<string, string>();
  visit(value, schema, lookup, true, keyPaths, (key, v) => {
    if (!out.has(key)) out.set(key, values ? v() : '');
  }, from);
  return out;
};

/** The paths a create of `value` writes as a FieldTrie, leaving out the `excluded` subtrees. */
const fieldTrieOf = (value: unknown, schema: Schema | undefined, lookup: SchemaLookup, excluded: FieldTrie, zero: ZeroStruct): FieldTrie => {
  const trie: PathBuilder<FieldTrie> = { root: excluded, child: (parent, pe) => parent.child(pe) };
  visit(value, schema, lookup, true, trie, (node) => { node.member = true; }, { at: excluded, nested: false, zero });
  return excluded;
};

/** Two items of one list with the same path element: their paths merge, which the trie does. */
class DuplicateItem extends Error {}

/**
 * FieldsV1 of the paths a create of `value` writes (those flatten gives against the kind's `zero` object) but the
 * `excluded` subtrees, undefined when there is none: what a create's writer owns. The same as walking the paths into
 * a FieldTrie and rendering it, in one walk that writes the FieldsV1 objects directly (a create's managed fields were
 * a tenth of its cost); a list with two items of one path element falls back to the trie, which merges them.
 */
export const createdFieldsV1 = (value: unknown, schema: Schema | undefined, lookup: SchemaLookup, excluded: Path[], zero: ZeroStruct): Obj | undefined => {
  const ex = exclusionTrie(excluded);
  // `zero`: the zero object's struct where it holds one (the root always), which makes no member
  const render = (v: unknown, s: Schema | undefined, skip: FieldTrie | undefined, zero: ZeroStruct | undefined, member = false): Obj | undefined => {
    if (v === undefined) return member ? {} : undefined;
    if (typeof v !== 'object') return {}; // a scalar: most fields, so before anything is allocated
    const node = classify(v, s, lookup);
    if (node.kind === 'leaf') return {};
    // children go straight into the FieldsV1 object; elements come sorted mostly (sorted keys, one item per key),
    // and the object is rebuilt in order when they do not
    let out: Obj | undefined;
    let last = '';
    let sorted = true;
    switch (node.kind) {
      case 'struct':
      case 'map': {
        const keys = Object.keys(v as Obj);
        member ||= !zero;
        for (const k of keys) {
          const pe = fieldPE(k);
          const below = skip?.children?.get(pe);
          if (below?.excluded) continue;
          const value = (v as Obj)[k];
          const z = zero && zeroOfChild(zero, k, value);
          if (z === UNCHANGED) continue;
          // a scalar owns its field whatever its schema: no lookup for most fields
          const child = value !== undefined && typeof value !== 'object' ? {} : render(value, childOf(node, k, lookup), below, z);
          if (!child) continue;
          out ??= member ? { '.': {} } : {};
          if (pe < last) sorted = false;
          out[pe] = child;
          last = pe;
        }
        break;
      }
      case 'mapList':
      case 'set': {
        const items = v as unknown[];
        member ||= !zero;
        for (const item of items) {
          const pe = itemPE(item, node, lookup);
          const below = skip?.children?.get(pe);
          if (below?.excluded) continue;
          const child = node.kind === 'set' ? {} : render(item, node.item, below, undefined, true);
          if (!child) continue;
          out ??= member ? { '.': {} } : {};
          if (Object.hasOwn(out, pe)) throw new DuplicateItem();
          if (pe < last) sorted = false;
          out[pe] = child;
          last = pe;
        }
      }
    }
    if (!out) return member ? {} : undefined;
    if (sorted) return out;
    const inOrder: Obj = member ? { '.': {} } : {};
    for (const pe of Object.keys(out).filter((k) => k !== '.').sort()) inOrder[pe] = out[pe];
    return inOrder;
  };
  try {
    return render(value, schema, ex, zero);
  } catch (err) {
    if (!(err instanceof DuplicateItem)) throw err;
    return fieldTrieOf(value, schema, lookup, newExclusionTrie(excluded), zero).render();
  }
};

const newExclusionTrie = (excluded: Path[]): FieldTrie => {
  const ex = new FieldTrie();
  for (const p of excluded) ex.exclude(p);
  return ex;
};

/** Read-only tries of the excluded paths, by the list (a handful of constant lists: one per kind of write). */
const exclusionTries = new WeakMap<Path[], FieldTrie>();
const exclusionTrie = (excluded: Path[]): FieldTrie => {
  let ex = exclusionTries.get(excluded);
  if (!ex) exclusionTries.set(excluded, (ex = newExclusionTrie(excluded)));
  return ex;
};
