// Field paths and field sets as sigs.k8s.io/structured-merge-diff writes them in managedFields (FieldsV1).
// A path is a list of path elements: "f:<field>", "k:<json of key fields>" (an item of a map-list),
// "v:<json value>" (an item of a set), "i:<index>". A set is a set of paths; in FieldsV1 a node that is
// itself in the set and has children carries ".": {}.
//
//   fieldPE(name), keyPE(keys), valuePE(v), indexPE(i): string
//   FieldSet (a Set of encoded paths): pathKey(path), pathOf(key), union, difference, intersect, hasDescendant
//   decodeFieldsV1(fields): FieldSet     encodeFieldsV1(set): Record<string, unknown>
//   parseFieldsV1(fields): FieldSet | undefined   // a client's FieldsV1, undefined when it is no field set
//   pathString(path): string            // ".spec.containers[name=\"c\"].image", as conflict messages print it

import { stringEnd } from '../json-text.js';

export type Path = string[];
export type FieldSet = Set<string>;

/** Field path elements by name: the same few hundred names recur in every object, so each string is made once. */
const fieldPEs = new Map<string, string>();
export const fieldPE = (name: string): string => {
  let pe = fieldPEs.get(name);
  if (pe === undefined) {
    if (fieldPEs.size >= 50_000) fieldPEs.clear(); // names of maps' keys (labels, data) are unbounded
    fieldPEs.set(name, (pe = `f:${name}`));
  }
  return pe;
};
export const valuePE = (v: unknown): string => `v:${JSON.stringify(v)}`;
export const indexPE = (i: number): string => `i:${i}`;
/** Key fields are written sorted by name, as structured-merge-diff sorts them. */
export const keyPE = (keys: Record<string, unknown>): string => {
  const names = Object.keys(keys);
  // one key (a container's or an env var's name) is most items: no sorted copy to make
  if (names.length === 1) return `k:{${JSON.stringify(names[0])}:${JSON.stringify(keys[names[0]!])}}`;
  return `k:${JSON.stringify(Object.fromEntries(names.sort().map((k) => [k, keys[k]])))}`;
};

export const pathKey = (path: Path): string => JSON.stringify(path);
/** The path of a key; the same keys recur on every write of a kind (status fields, conditions), so parses are kept. */
export const pathOf = (key: string): Path => {
  let path = parsedPaths.get(key);
  if (!path) {
    if (parsedPaths.size >= MAX_PARSED_PATHS) parsedPaths.clear();
    parsedPaths.set(key, path = Object.freeze(JSON.parse(key) as Path) as Path);
  }
  return path;
};
const parsedPaths = new Map<string, Path>();
const MAX_PARSED_PATHS = 50_000;

export const union = (...sets: FieldSet[]): FieldSet => {
  const out: FieldSet = new Set(sets[0]);
  for (let i = 1; i < sets.length; i++) for (const k of sets[i]!) out.add(k);
  return out;
};
export const difference = (a: FieldSet, b: FieldSet): FieldSet => {
  if (b.size === 0) return new Set(a);
  const out: FieldSet = new Set();
  for (const k of a) if (!b.has(k)) out.add(k);
  return out;
};
export const intersect = (a: FieldSet, b: FieldSet): FieldSet => {
  const out: FieldSet = new Set();
  for (const k of a) if (b.has(k)) out.add(k);
  return out;
};

const isPrefix = (prefix: Path, path: Path): boolean => prefix.length <= path.length && prefix.every((pe, i) => path[i] === pe);

/** Whether `set` holds a path strictly below `path`. */
export const hasDescendant = (set: FieldSet, path: Path): boolean =>
  [...set].some((k) => {
    const p = pathOf(k);
    return p.length > path.length && isPrefix(path, p);
  });

/** The first path element of a key as its JSON text (`"f:status"`), read without parsing the key; "" for the root. */
export const firstElementJson = (key: string): string => (key.length > 2 ? key.slice(1, stringEnd(key, 1) + 1) : '');

/**
 * Whether a key lies in one of `paths` or below: keys are JSON arrays, so one does exactly when it starts with the
 * path's key less its "]". Paths are grouped by their first element, so most keys are compared with none.
 */
export const subtreesMatcher = (paths: Path[]): ((key: string) => boolean) => {
  if (paths.some((p) => p.length === 0)) return () => true;
  const byFirst = new Map<string, string[]>();
  for (const p of paths) {
    const first = JSON.stringify(p[0]);
    byFirst.set(first, [...(byFirst.get(first) ?? []), pathKey(p).slice(0, -1)]);
  }
  const under = (k: string, stem: string): boolean => k.startsWith(stem) && (k.length === stem.length + 1 || k[stem.length] === ',');
  return (k) => byFirst.get(firstElementJson(k))?.some((stem) => under(k, stem)) ?? false;
};

/** Drops what `inside` (a subtreesMatcher) matches from `set`. */
export const withoutSubtrees = (set: FieldSet, inside: (key: string) => boolean): FieldSet => {
  const out: FieldSet = new Set();
  for (const k of set) if (!inside(k)) out.add(k);
  return out;
};

type Obj = Record<string, unknown>;

export const decodeFieldsV1 = (fields: Obj | undefined): FieldSet => {
  const out: FieldSet = new Set();
  const walk = (node: Obj, path: Path): void => {
    for (const [k, v] of Object.entries(node)) {
      if (k === '.') { out.add(pathKey(path)); continue; }
      const child = [...path, k];
      if (v && typeof v === 'object' && Object.keys(v).length > 0) walk(v as Obj, child);
      else out.add(pathKey(child));
    }
  };
  walk(fields ?? {}, []);
  return out;
};

/** A JSON text's value, or undefined when it is not JSON. */
const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/**
 * A path element as structured-merge-diff reads one from FieldsV1: null when it is malformed (shorter than two
 * characters, no colon, a value or key that is no JSON, an index no integer), '' when its type is unknown (skipped with
 * its subtree, as a later version's); key fields come back sorted.
 */
const readPE = (k: string): string | null => {
  if (k.length < 2 || k[1] !== ':') return null;
  const body = k.slice(2);
  switch (k[0]) {
    case 'f': return k;
    case 'i': return /^[+-]?\d+$/.test(body) ? k : null;
    case 'v': return parseJson(body) === undefined ? null : k;
    case 'k': {
      const keys = parseJson(body);
      return keys && typeof keys === 'object' && !Array.isArray(keys) ? keyPE(keys as Obj) : null;
    }
    default: return '';
  }
};

/**
 * FieldsV1 a client sent, checked as upstream's FieldsToSet reads it: undefined when it is no field set (a node that is
 * neither an object nor null, a malformed path element); elements of unknown types are dropped.
 */
export const parseFieldsV1 = (fields: unknown): FieldSet | undefined => {
  const out: FieldSet = new Set();
  const walk = (node: unknown, path: Path): boolean => {
    if (node === null) { out.add(pathKey(path)); return true; }
    if (typeof node !== 'object' || Array.isArray(node)) return false;
    let children = false;
    for (const [k, v] of Object.entries(node as Obj)) {
      if (k === '.') { out.add(pathKey(path)); continue; }
      const pe = readPE(k);
      if (pe === null) return false;
      if (pe === '') continue;
      children = true;
      if (!walk(v, [...path, pe])) return false;
    }
    // a node without (known) children is a member itself
    if (!children) out.add(pathKey(path));
    return true;
  };
  if (!walk(fields ?? {}, [])) return undefined;
  out.delete(pathKey([]));
  return out;
};

/**
 * A field set as a tree of path elements: what FieldsV1 is. Paths added with `mark` are members; subtrees
 * made with `exclude` are never entered (`child` answers undefined), so a walk can skip them.
 */
export class FieldTrie {
  member = false;
  excluded = false;
  /** Made on the first child: most nodes are leaves. */
  children: Map<string, FieldTrie> | undefined;

  child(pe: string): FieldTrie | undefined {
    const next = this.at(pe);
    return next.excluded ? undefined : next;
  }

  private at(pe: string): FieldTrie {
    this.children ??= new Map();
    let next = this.children.get(pe);
    if (!next) { next = new FieldTrie(); this.children.set(pe, next); }
    return next;
  }

  /** Marks `path` as a member; false when it lies in an excluded subtree. */
  mark(path: Path): boolean {
    let node: FieldTrie | undefined = this;
    for (const pe of path) if (!(node = node.child(pe))) return false;
    node.member = true;
    return true;
  }

  exclude(path: Path): void {
    let node: FieldTrie = this;
    for (const pe of path) node = node.at(pe);
    node.excluded = true;
  }

  /** FieldsV1: "." first, then children by element ("f:" < "i:" < "k:" < "v:"), as structured-merge-diff orders them; undefined when empty. */
  render(): Obj | undefined {
    const children = this.children;
    if (!children) return this.member ? {} : undefined;
    let out: Obj | undefined;
    for (const pe of sortedKeys(children)) {
      const child = children.get(pe)!.render();
      if (!child) continue;
      out ??= this.member ? { '.': {} } : {};
      out[pe] = child;
    }
    return out ?? (this.member ? {} : undefined);
  }
}

/** The map's keys in order; objects' keys mostly come sorted already (kubectl and generated clients sort them). */
const sortedKeys = (m: Map<string, unknown>): Iterable<string> => {
  let prev: string | undefined;
  for (const k of m.keys()) {
    if (prev !== undefined && k < prev) return [...m.keys()].sort();
    prev = k;
  }
  return m.keys();
};

export const encodeFieldsV1 = (set: FieldSet): Obj => {
  const root = new FieldTrie();
  for (const k of set) root.mark(pathOf(k));
  return root.render() ?? {};
};

const valueString = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? 'null');

const peString = (pe: string): string => {
  const body = pe.slice(2);
  switch (pe.slice(0, 2)) {
    case 'f:': return `.${body}`;
    case 'k:': return `[${Object.entries(JSON.parse(body) as Obj).map(([k, v]) => `${k}=${valueString(v)}`).join(',')}]`;
    case 'v:': return `[=${valueString(JSON.parse(body))}]`;
    case 'i:': return `[${body}]`;
    default: return '{{invalid path element}}';
  }
};

export const pathString = (path: Path): string => path.map(peString).join('');

/** structured-merge-diff's value ordering: numbers (as numbers), then strings, then booleans, then the rest. */
const compareValues = (a: unknown, b: unknown): number => {
  const rank = (v: unknown): number => (typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : typeof v === 'boolean' ? 2 : 3);
  const d = rank(a) - rank(b);
  if (d !== 0) return d;
  if (typeof a === 'number') return a - (b as number);
  const [x, y] = typeof a === 'string' ? [a, b as string] : [JSON.stringify(a) ?? '', JSON.stringify(b) ?? ''];
  return x < y ? -1 : x > y ? 1 : 0;
};

/** PathElement.Compare: field names, then keys (field by field), then values, then indexes. */
const comparePEs = (a: string, b: string): number => {
  const kinds = 'fkvi';
  const d = kinds.indexOf(a[0]!) - kinds.indexOf(b[0]!);
  if (d !== 0) return d;
  const [x, y] = [a.slice(2), b.slice(2)];
  switch (a[0]) {
    case 'f': return x < y ? -1 : x > y ? 1 : 0;
    case 'i': return Number(x) - Number(y);
    case 'v': return compareValues(JSON.parse(x), JSON.parse(y));
    default: {
      const [p, q] = [Object.entries(JSON.parse(x) as Obj), Object.entries(JSON.parse(y) as Obj)];
      for (let i = 0; i < Math.max(p.length, q.length); i++) {
        if (i >= p.length) return -1;
        if (i >= q.length) return 1;
        const c = (p[i]![0] < q[i]![0] ? -1 : p[i]![0] > q[i]![0] ? 1 : 0) || compareValues(p[i]![1], q[i]![1]);
        if (c !== 0) return c;
      }
      return 0;
    }
  }
};

/**
 * The order Set.Iterate visits paths in (a conflict message lists them so): at each level the members first, then
 * the children, each in path-element order.
 */
export const comparePaths = (a: Path, b: Path): number => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (i === a.length || i === b.length) return a.length - b.length;
  const [aLeaf, bLeaf] = [i === a.length - 1, i === b.length - 1];
  if (aLeaf !== bLeaf) return aLeaf ? -1 : 1;
  return comparePEs(a[i]!, b[i]!);
};
