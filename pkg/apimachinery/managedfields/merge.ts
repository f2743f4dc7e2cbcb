// The object side of server-side apply: merging an applied configuration into the live object, and
// removing what an applier dropped from its configuration.
//
//   mergeApplied(live, config, schema, lookup): unknown     // config wins; maps and keyed lists merge
//   removeFields(value, schema, lookup, remove: FieldSet, keep: FieldSet): unknown
import type { Schema } from '../../../api/schema.js';
import type { SchemaLookup } from '../schema-lookup.js';
import { fieldPE, hasDescendant, pathKey, type FieldSet, type Path } from './fieldpath.js';
import { childOf, classify, isObj, itemPE, type Node } from './walk.js';

type Obj = Record<string, unknown>;

/**
 * Merges two lists by item identity: shared items take the config's order and content (merged into the
 * live item), config-only items go where the config puts them, live-only items stay where they were.
 */
const mergeLists = (live: unknown[], config: unknown[], node: Node, lookup: SchemaLookup): unknown[] => {
  const id = (x: unknown): string => itemPE(x, node, lookup);
  const liveById = new Map(live.map((x) => [id(x), x]));
  const configIds = new Set(config.map(id));
  const mergeItem = (c: unknown): unknown => {
    const l = liveById.get(id(c));
    return node.kind === 'mapList' && l !== undefined ? mergeApplied(l, c, node.item, lookup) : structuredClone(c);
  };
  const out: unknown[] = [];
  let j = 0;
  for (const l of live) {
    if (!configIds.has(id(l))) { out.push(l); continue; }
    while (j < config.length) {
      const c = config[j++];
      out.push(mergeItem(c));
      if (liveById.has(id(c))) break;
    }
  }
  while (j < config.length) out.push(mergeItem(config[j++]));
  return out;
};

export const mergeApplied = (live: unknown, config: unknown, schema: Schema | undefined, lookup: SchemaLookup): unknown => {
  if (config === undefined) return live;
  if (config === null) return undefined;
  const node = classify(config, schema, lookup);
  switch (node.kind) {
    case 'leaf':
      return structuredClone(config);
    case 'struct':
    case 'map': {
      const out: Obj = isObj(live) ? { ...live } : {};
      for (const [k, c] of Object.entries(config as Obj)) {
        const v = mergeApplied(out[k], c, childOf(node, k, lookup), lookup);
        if (v === undefined) delete out[k];
        else out[k] = v;
      }
      return out;
    }
    case 'mapList':
    case 'set':
      return Array.isArray(live) ? mergeLists(live, config as unknown[], node, lookup) : structuredClone(config);
  }
};

/**
 * Removes every path in `remove` unless `keep` still holds something below it (then the node stays with
 * what is kept, and a list item keeps its key fields). Maps emptied by the removal go too.
 */
export const removeFields = (value: unknown, schema: Schema | undefined, lookup: SchemaLookup, remove: FieldSet, keep: FieldSet): unknown => {
  const walk = (v: unknown, s: Schema | undefined, path: Path): unknown => {
    if (path.length > 0 && remove.has(pathKey(path)) && !hasDescendant(keep, path)) return undefined;
    const node = classify(v, s, lookup);
    if (node.kind === 'struct' || node.kind === 'map') {
      const src = v as Obj;
      const out: Obj = {};
      for (const [k, x] of Object.entries(src)) {
        const r = walk(x, childOf(node, k, lookup), [...path, fieldPE(k)]);
        if (r !== undefined) out[k] = r;
      }
      return Object.keys(src).length > 0 && Object.keys(out).length === 0 && path.length > 0 ? undefined : out;
    }
    if (node.kind === 'mapList' || node.kind === 'set') {
      const src = v as unknown[];
      const out: unknown[] = [];
      for (const item of src) {
        const p = [...path, itemPE(item, node, lookup)];
        if (node.kind === 'set') {
          if (!remove.has(pathKey(p))) out.push(item);
          continue;
        }
        const r = walk(item, node.item, p);
        if (r === undefined) continue;
        const keys = Object.fromEntries(node.keys.filter((k) => isObj(item) && k in item).map((k) => [k, (item as Obj)[k]]));
        out.push({ ...keys, ...(r as Obj) });
      }
      return src.length > 0 && out.length === 0 ? undefined : out;
    }
    return v;
  };
  return walk(value, schema, []);
};
