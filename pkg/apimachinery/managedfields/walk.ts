// How server-side apply sees an object: every node classified by its schema (structured-merge-diff's
// list-type / map-type rules), and the field paths an object holds.
//
//   classify(value, schema, lookup): Node
//   itemPE(item, node): string                               // k:{...} for map-lists, v:... for sets
//   fieldSetOf(obj, schema, lookup): FieldSet                // what an applier owns: leaves and list items
//   flatten(obj, schema, lookup, values?): Map<pathKey, valueJson>  // every leaf and member, for comparing two objects
//   fieldTrieOf(obj, schema, lookup, excluded): FieldTrie   // the same paths as a tree: what a create's writer owns
import type { Schema } from '../../../api/schema.js';
import { childSchema, itemSchema, resolveSchema, type SchemaLookup } from '../schema-lookup.js';
import { FieldTrie, fieldPE, keyPE, valuePE, type FieldSet, type Path } from './fieldpath.js';

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export type Node =
  | { kind: 'leaf' }
  /** A struct (named properties) or a map (additionalProperties or untyped): merged field by field. */
  | { kind: 'struct' | 'map'; schema: Schema | undefined }
  | { kind: 'mapList'; keys: string[]; item: Schema | undefined }
  | { kind: 'set' };

export const classify = (value: unknown, schema: Schema | undefined, lookup: SchemaLookup): Node => {
  const s = resolveSchema(schema, lookup);
  if (Array.isArray(value)) {
    const type = s?.['x-kubernetes-list-type'];
    const keys = s?.['x-kubernetes-list-map-keys'] ?? [];
    if (type === 'map' && keys.length > 0) return { kind: 'mapList', keys, item: itemSchema(s, lookup) };
    if (type === 'set') return { kind: 'set' };
    return { kind: 'leaf' };
  }
  if (isObj(value)) {
    if (s?.['x-kubernetes-map-type'] === 'atomic') return { kind: 'leaf' };
    return { kind: s?.properties ? 'struct' : 'map', schema: s };
  }
  return { kind: 'leaf' };
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

const MEMBER = '{}';
const memberValue = (): string => MEMBER;

/**
 * How a walk names the paths it visits: `child` gives a child's name from its parent's and the path
 * element, or undefined to leave that subtree out.
 */
/** Where a subtree stands: its path's name, whether it is below the root, whether its field is required. */
export interface Place<C = string> {
  at: C;
  nested: boolean;
  required: boolean;
}

interface PathBuilder<C> {
  root: C;
  child(parent: C, pe: string): C | undefined;
}

/** Paths as FieldSet keys, each built from its parent's key (equal to pathKey of the whole path). */
const keyPaths: PathBuilder<string> = {
  root: '[]',
  child: (parent, pe) => (parent.length === 2 ? `[${JSON.stringify(pe)}]` : `${parent.slice(0, -1)},${JSON.stringify(pe)}]`),
};

const requiredOf = new WeakMap<Schema, Set<string>>();
export const requiredFields = (s: Schema | undefined): Set<string> | undefined => {
  if (!s?.required) return undefined;
  let set = requiredOf.get(s);
  if (!set) requiredOf.set(s, (set = new Set(s.required)));
  return set;
};

/**
 * Visits every path of `value`. `containers`: whether maps and granular lists count as members themselves
 * (a writer that creates a labels map owns it; an applier owns only what it wrote). Required fields are
 * never members: upstream's typed objects always carry them, so no write ever adds them.
 */
const visit = <C>(
  value: unknown, schema: Schema | undefined, lookup: SchemaLookup, containers: boolean,
  paths: PathBuilder<C>, emit: (at: C, v: () => string) => void,
  from: Place<C> = { at: paths.root, nested: false, required: false },
): void => {
  const walk = (v: unknown, s: Schema | undefined, at: C, nested: boolean, isRequired: boolean): void => {
    if (v === undefined || (v === null && containers)) return;
    const node = classify(v, s, lookup);
    switch (node.kind) {
      case 'leaf':
        emit(at, () => JSON.stringify(v));
        return;
      case 'struct':
      case 'map': {
        const keys = Object.keys(v as Obj);
        if (ownsContainer(node, keys.length, containers, nested, isRequired)) emit(at, memberValue);
        const req = requiredFields(node.schema);
        for (const k of keys) {
          const child = paths.child(at, fieldPE(k));
          if (child !== undefined) walk((v as Obj)[k], childOf(node, k, lookup), child, true, req?.has(k) ?? false);
        }
        return;
      }
      case 'mapList':
      case 'set': {
        const items = v as unknown[];
        if (ownsContainer(node, items.length, containers, nested, isRequired)) emit(at, memberValue);
        for (const item of items) {
          const child = paths.child(at, itemPE(item, node, lookup));
          if (child === undefined) continue;
          emit(child, node.kind === 'set' ? () => JSON.stringify(item) : memberValue);
          if (node.kind === 'mapList') walk(item, node.item, child, true, true);
        }
      }
    }
  };
  walk(value, schema, from.at, from.nested, from.required);
};

/** Whether a map, struct or granular list is a member itself (empty ones always; with `containers`, maps and lists that are not required). */
export const ownsContainer = (node: Node, size: number, containers: boolean, nested: boolean, isRequired: boolean): boolean =>
  nested && (size === 0 || (containers && !isRequired && node.kind !== 'struct'));

/** What an applier of `value` owns: its leaves, list items and empty objects (never the maps above them). */
export const fieldSetOf = (value: unknown, schema: Schema | undefined, lookup: SchemaLookup): FieldSet => {
  const out: FieldSet = new Set();
  visit(value, schema, lookup, false, keyPaths, (key) => out.add(key));
  return out;
};

/** Every path of `value` with its value's JSON; without `values`, the paths alone. */
export const flatten = (value: unknown, schema: Schema | undefined, lookup: SchemaLookup, values = true): Map<string, string> =>
  flattenAt(value, schema, lookup, { at: keyPaths.root, nested: false, required: false }, values);

/** Key of the child `pe` of the path with key `parent`. */
export const childKey = (parent: string, pe: string): string => keyPaths.child(parent, pe)!;
export const ROOT_KEY = keyPaths.root;

/** flatten of the subtree at key `at` (its place in the object: nested below the root, a required field). */
export const flattenAt = (value: unknown, schema: Schema | undefined, lookup: SchemaLookup, from: Place, values = true): Map<string, string> => {
  const out = new Map<string, string>();
  visit(value, schema, lookup, true, keyPaths, (key, v) => {
    if (!out.has(key)) out.set(key, values ? v() : '');
  }, from);
  return out;
};

/** Every path of `value` as a FieldTrie, leaving out the `excluded` subtrees: what a create's writer owns. */
export const fieldTrieOf = (value: unknown, schema: Schema | undefined, lookup: SchemaLookup, excluded: Path[]): FieldTrie => {
  const root = new FieldTrie();
  for (const p of excluded) root.exclude(p);
  const trie: PathBuilder<FieldTrie> = { root, child: (parent, pe) => parent.child(pe) };
  visit(value, schema, lookup, true, trie, (node) => { node.member = true; });
  return root;
};
