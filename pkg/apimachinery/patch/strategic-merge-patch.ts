// Strategic merge patch (application/strategic-merge-patch+json) as upstream's
// k8s.io/apimachinery/pkg/util/strategicpatch applies it on the server (MergeParallelList and
// IgnoreUnmatchedNulls both on). List semantics come from the schema: `x-kubernetes-patch-strategy`
// containing "merge" merges by `x-kubernetes-patch-merge-key` (scalars: union), anything else replaces.
// Directives: `$patch: replace|delete` (maps and list items), `$retainKeys`, `$setElementOrder/<field>`,
// `$deleteFromPrimitiveList/<field>`; null deletes.
//
//   applyStrategicMergePatch<T>(original: T, patch: unknown, lookup: SchemaLookup, rootDefinition: string): T
//
// Errors: lists of lists are 422, every other malformed patch 400 (BadRequest), upstream's messages. Upstream
// leaves some untyped (missing merge key, unknown $patch value), so that they end as 500s: they are the client's
// input, and a 4xx here.
// Deliberate difference: values copied verbatim from the patch are cleaned of directives here, which
// upstream leaves to the typed decoder; a `$deleteFromPrimitiveList` for an absent list deletes nothing.
import type { Schema } from '../../../api/schema.js';
import { badRequest, StatusError } from '../errors.js';
import { childSchema, itemSchema, resolveSchema, type SchemaLookup } from '../schema-lookup.js';
import { cloneJson } from '../json-clone.js';
import { getOwn, setOwn } from '../own-keys.js';

type Obj = Record<string, unknown>;
type Kind = 'object' | 'array' | 'null' | 'scalar';

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const SET_ORDER = '$setElementOrder/';
const DELETE_PRIMITIVE = '$deleteFromPrimitiveList/';

const ERR_PRIMITIVE_LIST = 'invalid patch format of primitive list';
const ERR_RETAIN_KEYS = 'invalid patch format of retainKeys';
const ERR_SET_ORDER = 'invalid patch format of setElementOrder list';

const kindOf = (v: unknown): Kind => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'object' ? 'object' : 'scalar');
const isObj = (v: unknown): v is Obj => kindOf(v) === 'object';

/** Go's %v rendering of decoded JSON, for messages that embed values. */
const goFmt = (v: unknown): string => {
  if (Array.isArray(v)) return `[${v.map(goFmt).join(' ')}]`;
  if (isObj(v)) return `map[${Object.keys(v).sort().map((k) => `${k}:${goFmt(v[k])}`).join(' ')}]`;
  return v === null || v === undefined ? '<nil>' : String(v);
};

const noMergeKey = (m: Obj, key: string): StatusError => badRequest(`map: ${goFmt(m)} does not contain declared merge key: ${key}`);

const isDirectiveKey = (k: string): boolean =>
  k === DIRECTIVE || k === RETAIN_KEYS || k.startsWith(SET_ORDER) || k.startsWith(DELETE_PRIMITIVE);

/** A patch value that lands where nothing was: drop what the typed decoder would never keep. */
const clean = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.filter((x) => !(isObj(x) && x[DIRECTIVE] === 'delete')).map(clean);
  if (!isObj(v)) return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) if (!isDirectiveKey(k)) setOwn(out, k, clean(x));
  return out;
};

interface FieldMeta {
  schema: Schema | undefined;
  strategy: string;
  mergeKey: string;
}

const fieldMeta = (parent: Schema | undefined, key: string, lookup: SchemaLookup): FieldMeta => {
  const schema = childSchema(parent, key, lookup);
  const strategies = (schema?.['x-kubernetes-patch-strategy'] ?? '').split(',').filter((s) => s && s !== 'retainKeys');
  return { schema, strategy: strategies[0] ?? '', mergeKey: schema?.['x-kubernetes-patch-merge-key'] ?? '' };
};

const extractKey = (k: string, prefix: string, err: string): string => {
  const rest = k.slice(prefix.length);
  if (!k.startsWith(prefix) || rest === '') throw badRequest(err);
  return rest;
};

/** The one kind every element of the lists shares (never a list: lists of lists cannot merge). */
const elementKind = (...lists: unknown[][]): Kind | undefined => {
  let kind: Kind | undefined;
  for (const v of lists.flat()) {
    const k = kindOf(v);
    if (kind === undefined) {
      if (k === 'array') throw new StatusError(422, 'Invalid', 'the server rejected our request due to an error in our request', { causes: [{ message: 'lists of lists are not supported' }] });
      kind = k;
    } else if (kind !== k) {
      throw badRequest(`list element types are not identical: ${lists.map(goFmt).join(' ')}`);
    }
  }
  return kind;
};

class Merger {
  constructor(private readonly lookup: SchemaLookup) {}

  mergeMap(original: Obj | undefined, patch: Obj, schema: Schema | undefined): Obj {
    if (DIRECTIVE in patch) {
      const d = patch[DIRECTIVE];
      if (d === 'replace') return clean(patch) as Obj;
      if (d === 'delete') return {};
      throw badRequest(`Unknown patch type: ${goFmt(d)} in ${goFmt(patch)}`);
    }
    const orig = original ?? {};
    this.retainKeys(orig, patch);
    this.setElementOrders(orig, patch, schema);
    for (const [k, pv] of Object.entries(patch)) {
      const isDeleteList = k.startsWith(DELETE_PRIMITIVE);
      const key = isDeleteList ? extractKey(k, DELETE_PRIMITIVE, ERR_PRIMITIVE_LIST) : k;
      if (pv === null) {
        delete orig[key];
        continue;
      }
      const ov = getOwn(orig, key);
      if (!Object.hasOwn(orig, key) || kindOf(ov) !== kindOf(pv)) {
        if (isDeleteList) {
          if (!Array.isArray(pv)) throw badRequest(ERR_PRIMITIVE_LIST);
        } else {
          setOwn(orig, key, clean(pv));
        }
        continue;
      }
      const meta = fieldMeta(schema, key, this.lookup);
      if (isObj(ov)) {
        setOwn(orig, key, meta.strategy === 'replace' ? clean(pv) : this.mergeMap(ov, pv as Obj, meta.schema));
      } else if (Array.isArray(ov)) {
        setOwn(orig, key, meta.strategy === 'merge' || isDeleteList
          ? this.mergeSlice(ov, pv as unknown[], itemSchema(meta.schema, this.lookup), meta.mergeKey, isDeleteList)
          : clean(pv));
      } else {
        setOwn(orig, key, pv);
      }
    }
    return orig;
  }

  /** `$retainKeys`: drop from the original every field the list does not name. */
  private retainKeys(original: Obj, patch: Obj): void {
    if (!(RETAIN_KEYS in patch)) return;
    const keep = patch[RETAIN_KEYS];
    delete patch[RETAIN_KEYS];
    if (!Array.isArray(keep)) throw badRequest(ERR_RETAIN_KEYS);
    for (const [k, v] of Object.entries(patch)) {
      if (v === null || k.startsWith(DELETE_PRIMITIVE) || k.startsWith(SET_ORDER)) continue;
      if (!keep.includes(k)) throw badRequest(ERR_RETAIN_KEYS);
    }
    for (const k of Object.keys(original)) if (!keep.includes(k)) delete original[k];
  }

  /** `$setElementOrder/<field>`: merge the field's list now and order it as the directive says. */
  private setElementOrders(original: Obj, patch: Obj, schema: Schema | undefined): void {
    for (const k of Object.keys(patch)) {
      if (!k.startsWith(SET_ORDER)) continue;
      const order = patch[k];
      delete patch[k];
      const key = extractKey(k, SET_ORDER, ERR_SET_ORDER);
      if (!Array.isArray(order)) throw badRequest(ERR_SET_ORDER);
      const orig = getOwn(original, key);
      const pl = getOwn(patch, key);
      if ((orig !== undefined && !Array.isArray(orig)) || (pl !== undefined && pl !== null && !Array.isArray(pl))) throw badRequest(ERR_SET_ORDER);
      if (orig === undefined && (pl === undefined || pl === null)) continue;
      const meta = fieldMeta(schema, key, this.lookup);
      const origList = (orig ?? []) as unknown[];
      const patchList = (pl ?? []) as unknown[];
      this.validateOrder(patchList, order, meta.mergeKey);
      let merged: unknown[];
      if (orig === undefined) merged = patchList;
      else if (pl === undefined || pl === null) merged = origList;
      else merged = meta.strategy === 'merge'
        ? this.mergeSlice(origList, patchList, itemSchema(meta.schema, this.lookup), meta.mergeKey, false)
        : patchList;
      const kind = elementKind(origList, patchList);
      if (kind !== undefined) {
        const [inOrder, serverOnly] = partition(merged, order, meta.mergeKey, kind);
        merged = normalizeOrder(inOrder, serverOnly, order, origList, meta.mergeKey, kind);
      }
      setOwn(original, key, clean(merged));
      delete patch[key];
    }
  }

  /** The patch list must follow the relative order of the directive (deletions aside). */
  private validateOrder(patchList: unknown[], order: unknown[], mergeKey: string): void {
    if (order.length === 0 || patchList.length === 0) return;
    const items = mergeKey ? patchList.filter((x) => !(isObj(x) && x[DIRECTIVE] === 'delete')) : patchList;
    let p = 0;
    let o = 0;
    while (p < items.length && o < order.length) {
      if (isObj(items[p]) && DIRECTIVE in (items[p] as Obj)) { p++; continue; }
      if (keyOf(items[p], mergeKey) === keyOf(order[o], mergeKey)) p++;
      o++;
    }
    if (p < items.length) {
      throw badRequest(`The order in patch list:\n${goFmt(patchList)}\n doesn't match ${SET_ORDER} list:\n${goFmt(order)}\n`);
    }
  }

  mergeSlice(original: unknown[], patch: unknown[], schema: Schema | undefined, mergeKey: string, isDeleteList: boolean): unknown[] {
    if (original.length === 0 && patch.length === 0) return original;
    const kind = elementKind(original, patch)!;
    let orig = original;
    let items = patch;
    let merged: unknown[];
    if (kind !== 'object') {
      if (isDeleteList) return original.filter((v) => !patch.includes(v));
      merged = [...new Set([...original, ...patch])];
    } else {
      if (!mergeKey) throw badRequest('cannot merge lists without merge key for type map');
      [orig, items] = this.specialElements(original, patch as Obj[], mergeKey);
      merged = [...orig];
      for (const item of items as Obj[]) {
        if (!(mergeKey in item)) throw noMergeKey(item, mergeKey);
        const i = merged.findIndex((m) => isObj(m) && m[mergeKey] === item[mergeKey]);
        if (i >= 0) merged[i] = this.mergeMap(merged[i] as Obj, item, schema);
        else merged.push(clean(item));
      }
    }
    const [inPatch, serverOnly] = partition(merged, items, mergeKey, kind);
    return normalizeOrder(inPatch, serverOnly, items, orig, mergeKey, kind);
  }

  /** Items carrying `$patch`: delete drops matching originals, replace makes the rest of the patch the list. */
  private specialElements(original: unknown[], patch: Obj[], mergeKey: string): [unknown[], Obj[]] {
    const plain: Obj[] = [];
    let orig = original;
    let replace = false;
    for (const item of patch) {
      if (!(DIRECTIVE in item)) { plain.push(item); continue; }
      const d = item[DIRECTIVE];
      if (d === 'delete') {
        if (!(mergeKey in item)) throw noMergeKey(item, mergeKey);
        orig = orig.filter((o) => !(isObj(o) && o[mergeKey] === item[mergeKey]));
      } else if (d === 'replace') {
        replace = true;
      } else if (d === 'merge') {
        throw badRequest('merging lists cannot yet be specified in the patch');
      } else {
        throw badRequest(`Unknown patch type: ${goFmt(d)} in ${goFmt(item)}`);
      }
    }
    return replace ? [plain.map((p) => clean(p)), []] : [orig, plain];
  }
}

const keyOf = (item: unknown, mergeKey: string): unknown => (mergeKey && isObj(item) ? item[mergeKey] : item);

const indexIn = (list: unknown[], item: unknown, mergeKey: string, kind: Kind): number => {
  const k = kind === 'object' ? keyOf(item, mergeKey) : item;
  return list.findIndex((x) => (kind === 'object' ? keyOf(x, mergeKey) : x) === k);
};

/** Splits `list` into the items present in `by` and the others, keeping their order. */
const partition = (list: unknown[], by: unknown[], mergeKey: string, kind: Kind): [unknown[], unknown[]] => {
  const inBy: unknown[] = [];
  const rest: unknown[] = [];
  for (const v of list) {
    if (kind === 'object' && !(isObj(v) && mergeKey in v)) throw noMergeKey(v as Obj, mergeKey);
    (indexIn(by, v, mergeKey, kind) >= 0 ? inBy : rest).push(v);
  }
  return [inBy, rest];
};

const sortByOrder = (items: unknown[], order: unknown[], mergeKey: string, kind: Kind): unknown[] => {
  const keep = kind === 'object' ? items.filter((x) => !(isObj(x) && x[DIRECTIVE] === 'delete')) : items;
  const dropped = kind === 'object' ? items.filter((x) => isObj(x) && x[DIRECTIVE] === 'delete') : [];
  const pos = (x: unknown): number => indexIn(order, x, mergeKey, kind);
  return [...[...keep].sort((a, b) => (pos(a) >= 0 && pos(b) >= 0 ? pos(a) - pos(b) : 0)), ...dropped];
};

/**
 * Patch items in patch order, server-only items in live order, then interleaved: a server-only item goes
 * before the next patch item only when the live list had it first; items new to the live list lead.
 */
const normalizeOrder = (inPatch: unknown[], serverOnly: unknown[], patchOrder: unknown[], serverOrder: unknown[], mergeKey: string, kind: Kind): unknown[] => {
  const right = sortByOrder(inPatch, patchOrder, mergeKey, kind);
  const left = sortByOrder(serverOnly, serverOrder, mergeKey, kind);
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexIn(serverOrder, left[i], mergeKey, kind);
      const ri = indexIn(serverOrder, right[j], mergeKey, kind);
      out.push(li >= 0 && ri >= 0 && li < ri ? left[i++] : right[j++]);
    }
  }
  return out;
};

export const applyStrategicMergePatch = <T>(original: T, patch: unknown, lookup: SchemaLookup, rootDefinition: string): T => {
  if (!isObj(patch)) throw badRequest('invalid JSON document');
  const root = resolveSchema(lookup(rootDefinition), lookup);
  const base = isObj(original) ? cloneJson(original) : {};
  return new Merger(lookup).mergeMap(base, cloneJson(patch), root) as T;
};
