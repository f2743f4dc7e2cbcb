// How server-side apply sees an object: every node classified by its schema (structured-merge-diff's
// list-type / map-type rules), and the field paths an object holds.
//
//   classify(value, schema, lookup): Node
//   itemPE(item, node): string                               // k:{...} for map-lists, v:... for sets
//   fieldSetOf(obj, schema, lookup): FieldSet                // what an applier owns: leaves and list items
//   flatten(obj, schema, lookup, values?): Map<pathKey, valueJson>  // every leaf and member, for comparing two objects
import type { Schema } from '../../../api/schema.js';
import { childSchema, itemSchema, resolveSchema, type SchemaLookup } from '../schema-lookup.js';
import { fieldPE, keyPE, pathKey, valuePE, type FieldSet, type Path } from './fieldpath.js';

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
 * Visits every path of `value`. `containers`: whether maps and granular lists count as members themselves
 * (a writer that creates a labels map owns it; an applier owns only what it wrote). Required fields are
 * never members: upstream's typed objects always carry them, so no write ever adds them.
 */
const visit = (value: unknown, schema: Schema | undefined, lookup: SchemaLookup, containers: boolean, emit: (p: Path, v: () => string) => void): void => {
  const walk = (v: unknown, s: Schema | undefined, path: Path, required: boolean): void => {
    if (v === undefined || (v === null && containers)) return;
    const node = classify(v, s, lookup);
    const member = path.length > 0 && containers && !required;
    switch (node.kind) {
      case 'leaf':
        emit(path, () => JSON.stringify(v));
        return;
      case 'struct':
      case 'map': {
        const entries = Object.entries(v as Obj);
        if (path.length > 0 && (entries.length === 0 || (member && node.kind === 'map'))) emit(path, memberValue);
        const req = new Set(node.schema?.required ?? []);
        for (const [k, x] of entries) walk(x, childOf(node, k, lookup), [...path, fieldPE(k)], req.has(k));
        return;
      }
      case 'mapList':
      case 'set': {
        const items = v as unknown[];
        if (path.length > 0 && (items.length === 0 || member)) emit(path, memberValue);
        for (const item of items) {
          const p = [...path, itemPE(item, node, lookup)];
          emit(p, node.kind === 'set' ? () => JSON.stringify(item) : memberValue);
          if (node.kind === 'mapList') walk(item, node.item, p, true);
        }
      }
    }
  };
  walk(value, schema, [], false);
};

/** What an applier of `value` owns: its leaves, list items and empty objects (never the maps above them). */
export const fieldSetOf = (value: unknown, schema: Schema | undefined, lookup: SchemaLookup): FieldSet => {
  const out: FieldSet = new Set();
  visit(value, schema, lookup, false, (p) => out.add(pathKey(p)));
  return out;
};

/** Every path of `value` with its value's JSON; without `values`, the paths alone (all a create needs). */
export const flatten = (value: unknown, schema: Schema | undefined, lookup: SchemaLookup, values = true): Map<string, string> => {
  const out = new Map<string, string>();
  visit(value, schema, lookup, true, (p, v) => {
    const key = pathKey(p);
    if (!out.has(key)) out.set(key, values ? v() : '');
  });
  return out;
};
