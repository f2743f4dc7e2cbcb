// The object side of server-side apply: merging an applied configuration into the live object, and
// removing what an applier dropped from its configuration.
//
//   mergeApplied(live, config, schema, lookup): unknown     // config wins; maps and keyed lists merge
//   removeFields(value, schema, lookup, remove: FieldSet, keep: FieldSet): unknown
import type { Schema } from '../../../api/schema.js';
import type { SchemaLookup } from '../schema-lookup.js';
import { fieldPE, hasDescendant, pathKey, type FieldSet, type Path } from './fieldpath.js';
import { childOf, classify, isObj, itemPE, type Node } from './walk.js';
import { cloneJson } from '../json-clone.js';
import { getOwn, setOwn } from '../own-keys.js';

type Obj = Record<string, unknown>;

/**
 * Merges two lists by item identity, as structured-merge-diff orders them: live-only items keep their
 * place, shared items follow the config's order (merged into the live item), config-only items go where
 * the config puts them.
 */
const mergeLists = (live: unknown[], config: unknown[], node: Node, lookup: SchemaLookup): unknown[] => {
  const id = (x: unknown): string => itemPE(x, node, lookup);
  const lIds = live.map(id);
  const rIds = config.map(id);
  const liveById = new Map(live.map((x, i) => [lIds[i], x]));
  const inConfig = new Set(rIds);
  const shared = rIds.filter((k) => liveById.has(k));
  let nextShared = shared.shift();
  const done = new Set<string>();
  const out: unknown[] = [];
  const take = (k: string, c: unknown): void => {
    done.add(k);
    const l = liveById.get(k);
    out.push(node.kind === 'mapList' && l !== undefined ? mergeApplied(l, c, node.item, lookup) : cloneJson(c));
    if (k === nextShared) nextShared = shared.shift();
  };
  let l = 0;
  let r = 0;
  while (l < live.length || r < config.length) {
    if (l < live.length && r < config.length) {
      if (lIds[l] === rIds[r]) { take(rIds[r], config[r]); l++; r++; continue; }
      // a shared item, but not the one due now: it comes when the config reaches it
      if (inConfig.has(lIds[l]) && nextShared !== undefined && nextShared !== lIds[l]) { l++; continue; }
    }
    if (l < live.length) {
      if (!inConfig.has(lIds[l])) { out.push(live[l++]); continue; }
      if (done.has(lIds[l])) { l++; continue; }
    }
    if (r < config.length) { take(rIds[r], config[r]); r++; }
  }
  return out;
};

export const mergeApplied = (live: unknown, config: unknown, schema: Schema | undefined, lookup: SchemaLookup): unknown => {
  if (config === undefined) return live;
  if (config === null) return undefined;
  const node = classify(config, schema, lookup);
  switch (node.kind) {
    case 'leaf':
      return cloneJson(config);
    case 'struct':
    case 'map': {
      const out: Obj = isObj(live) ? { ...live } : {};
      for (const [k, c] of Object.entries(config as Obj)) {
        const v = mergeApplied(getOwn(out, k), c, childOf(node, k, lookup), lookup);
        if (v === undefined) delete out[k];
        else setOwn(out, k, v);
      }
      return out;
    }
    case 'mapList':
    case 'set':
      return Array.isArray(live) ? mergeLists(live, config as unknown[], node, lookup) : cloneJson(config);
  }
};

/**
 * Removes every path in `remove` with all below it, but for a struct's field that `keep` still holds something
 * below: it stays with what is kept (upstream's EnsureNamedFieldsAreMembers makes such a field owned). A list item
 * is never kept that way: dropped by its applier, it goes though another manager owns fields inside it. Maps
 * emptied by the removal go too.
 */
export const removeFields = (value: unknown, schema: Schema | undefined, lookup: SchemaLookup, remove: FieldSet, keep: FieldSet): unknown => {
  const walk = (v: unknown, s: Schema | undefined, path: Path, named = false): unknown => {
    if (path.length > 0 && remove.has(pathKey(path)) && !(named && hasDescendant(keep, path))) return undefined;
    const node = classify(v, s, lookup);
    if (node.kind === 'struct' || node.kind === 'map') {
      const src = v as Obj;
      const out: Obj = {};
      const fields = node.kind === 'struct' ? node.schema?.properties : undefined;
      for (const [k, x] of Object.entries(src)) {
        const r = walk(x, childOf(node, k, lookup), [...path, fieldPE(k)], fields !== undefined && Object.hasOwn(fields, k));
        if (r !== undefined) setOwn(out, k, r);
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
