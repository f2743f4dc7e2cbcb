// metadata.managedFields entries: decoding, identity, ordering and encoding as upstream's fieldmanager
// does, plus the conflict error and the manager name derived from a user agent.
//
//   defaultManager(userAgent: string): string        // "kubectl/v1.32.0 (linux/amd64)" -> "kubectl"
//   Entry, decodeEntries(list, stored?), encodeEntries(entries): ManagedFieldsEntry[] | undefined
//   decodeSentEntries(list): Entry[] | undefined  // a client's list; undefined when an entry does not decode
//   entryHas(entry, pathKey): boolean               // without decoding a stored entry
//   sameManager(a, b): boolean                       // manager + operation (+ apiVersion for Update) + subresource
//   conflictError(conflicts): StatusError            // 409 as upstream's NewApplyConflict words it
//   capUpdateManagers(entries, max = 10): Entry[]    // oldest Update entries folded into "ancient-changes"
//   IGNORED_PATHS, ignoredWith(extra)                // metadata fields nobody owns (plus a write's own)
import type { ManagedFieldsEntry } from '../../../api/types.js';
import { StatusError } from '../errors.js';
import { comparePaths, decodeFieldsV1, encodeFieldsV1, fieldPE, parseFieldsV1, firstElementJson, pathOf, pathString, subtreesMatcher, union, withoutSubtrees, type FieldSet, type Path } from './fieldpath.js';

export const defaultManager = (userAgent: string): string => userAgent.split('/')[0];

export interface Entry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time?: string;
  subresource?: string;
  set: FieldSet;
}

/** Fields the server owns: never recorded for anyone (upstream's stripMeta). */
const META_FIELDS = ['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'];
const IGNORED_PATHS: Path[] = [
  [fieldPE('apiVersion')], [fieldPE('kind')],
  ...META_FIELDS.map((f) => [fieldPE('metadata'), fieldPE(f)]),
];
const METADATA_NODE = JSON.stringify([fieldPE('metadata')]);

const NO_PATHS: Path[] = [];
/** IGNORED_PATHS plus a write's own (none, f:spec or f:status: the field manager's constants), one list each. */
const ignoredLists = new WeakMap<Path[], Path[]>();
export const ignoredWith = (extra: Path[] = NO_PATHS): Path[] => {
  let list = ignoredLists.get(extra);
  if (!list) ignoredLists.set(extra, (list = [...IGNORED_PATHS, ...extra]));
  return list;
};

/** Matchers of those lists, made once each. */
const ignoredMatchers = new WeakMap<Path[], (key: string) => boolean>();

export const stripIgnored = (set: FieldSet, extra?: Path[]): FieldSet => {
  const paths = ignoredWith(extra);
  let inside = ignoredMatchers.get(paths);
  if (!inside) ignoredMatchers.set(paths, (inside = subtreesMatcher(paths)));
  const out = withoutSubtrees(set, inside);
  out.delete(METADATA_NODE);
  return out;
};

type Obj = Record<string, unknown>;

/**
 * The FieldsV1 an entry was decoded from, while its set is unchanged: encoding gives it back as it is, and
 * its set is decoded only if someone reads it (most writes touch one manager's entry of several).
 */
const verbatim = new WeakMap<Entry, Obj>();

/** `stored`: the entries come from the stored object, written by encodeEntries, so they can be kept verbatim. */
export const decodeEntries = (list: ManagedFieldsEntry[] | undefined, stored = false): Entry[] =>
  (list ?? []).filter((e) => e.manager !== undefined || e.operation !== undefined).map((e) => {
    const base = {
      manager: e.manager ?? '',
      operation: e.operation === 'Apply' ? 'Apply' as const : 'Update' as const,
      apiVersion: e.apiVersion ?? '',
      time: e.time,
      subresource: e.subresource || undefined,
    };
    if (!stored || !isFields(e.fieldsV1)) return { ...base, set: decodeFieldsV1(e.fieldsV1) };
    const fields = e.fieldsV1;
    let set: FieldSet | undefined;
    const entry: Entry = {
      ...base,
      get set() { return (set ??= decodeFieldsV1(fields)); },
      set set(v) { set = v; verbatim.delete(entry); },
    };
    verbatim.set(entry, fields);
    return entry;
  });

/**
 * The managed fields a client sent, read as upstream's DecodeManagedFields: undefined when any entry does not decode (an
 * operation other than Apply or Update, no apiVersion, a fieldsType other than FieldsV1, fields that are no field set),
 * so the live ones stand; of entries of the same manager the last counts.
 */
export const decodeSentEntries = (list: ManagedFieldsEntry[]): Entry[] | undefined => {
  const out: Entry[] = [];
  for (const e of list) {
    if (typeof e !== 'object' || e === null || (e.operation !== 'Apply' && e.operation !== 'Update') || !e.apiVersion || e.fieldsType !== 'FieldsV1') return undefined;
    const set = parseFieldsV1(e.fieldsV1);
    if (!set) return undefined;
    const entry: Entry = { manager: e.manager ?? '', operation: e.operation, apiVersion: e.apiVersion, time: e.time, subresource: e.subresource || undefined, set };
    const at = out.findIndex((x) => sameManager(x, entry));
    if (at === -1) out.push(entry);
    else out[at] = entry;
  }
  return out;
};

/** The FieldsV1 a stored entry still holds as it was read (undefined once its set changed): walked without decoding. */
export const entryFields = (e: Entry): Obj | undefined => verbatim.get(e);

const isFields = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether `e` owns the path with key `key`, read from its FieldsV1 while it is verbatim (no decoding). */
export const entryHas = (e: Entry, key: string): boolean => {
  const fields = verbatim.get(e);
  if (!fields) return e.set.has(key);
  // most keys asked about lie under a first element the entry does not have (a status write against a create's
  // entry): answered from the key's text, without parsing the path
  const first = firstElementJson(key);
  if (first !== '' && !first.includes('\\') && !(first.slice(1, -1) in fields)) return false;
  const path = pathOf(key);
  if (path.length === 0) return '.' in fields;
  let node: unknown = fields;
  for (const pe of path) {
    if (!isFields(node)) return false;
    node = node[pe];
    if (node === undefined) return false;
  }
  // decodeFieldsV1: an empty or non-object node is a member; a node with children is one when it has "."
  return !isFields(node) || Object.keys(node).length === 0 || '.' in node;
};

/** Upstream's manager identifier: appliers are one manager whatever apiVersion they apply with. */
export const sameManager = (a: Pick<Entry, 'manager' | 'operation' | 'apiVersion' | 'subresource'>, b: typeof a): boolean =>
  a.manager === b.manager && a.operation === b.operation && (a.subresource ?? '') === (b.subresource ?? '') &&
  (a.operation === 'Apply' || a.apiVersion === b.apiVersion);

const seconds = (t?: string): number => (t ? Math.floor(Date.parse(t) / 1000) : 0);
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Apply before Update, then oldest first, then by manager, apiVersion and subresource. */
const order = (p: Entry, q: Entry): number =>
  cmp(p.operation, q.operation) || seconds(p.time) - seconds(q.time) || cmp(p.manager, q.manager) ||
  cmp(p.apiVersion, q.apiVersion) || cmp(p.subresource ?? '', q.subresource ?? '');

export const encodeEntries = (entries: Entry[]): ManagedFieldsEntry[] | undefined => {
  const live = entries.filter((e) => {
    const fields = verbatim.get(e);
    return fields ? Object.keys(fields).length > 0 : e.set.size > 0;
  }).sort(order);
  if (live.length === 0) return undefined;
  return live.map((e) => {
    const out: ManagedFieldsEntry = { manager: e.manager, operation: e.operation, apiVersion: e.apiVersion };
    if (e.time) out.time = e.time;
    out.fieldsType = 'FieldsV1';
    out.fieldsV1 = verbatim.get(e) ?? encodeFieldsV1(e.set);
    if (e.subresource) out.subresource = e.subresource;
    return out;
  });
};

export const MAX_UPDATE_MANAGERS = 10;
export const ANCIENT_CHANGES = 'ancient-changes';

/**
 * Keeps at most `max` Update entries: from the oldest on, each entry whose apiVersion an older one already
 * had is folded, with that older one, into one "ancient-changes" entry per apiVersion (upstream's capManagers).
 */
export const capUpdateManagers = (entries: Entry[], max = MAX_UPDATE_MANAGERS): Entry[] => {
  // oldest first; of one second, by upstream's manager identifier (its JSON: manager, operation, apiVersion, ...)
  const identifier = (e: Entry): string => JSON.stringify({ manager: e.manager, operation: e.operation, apiVersion: e.apiVersion, subresource: e.subresource || undefined });
  const updaters = entries.filter((e) => e.operation === 'Update')
    .sort((a, b) => seconds(a.time) - seconds(b.time) || cmp(identifier(a), identifier(b)));
  let count = updaters.length;
  if (count <= max) return entries;
  const result = [...entries];
  const firstOfVersion = new Map<string, Entry>();
  for (const e of updaters) {
    if (count <= max) break;
    const first = firstOfVersion.get(e.apiVersion);
    if (!first) { firstOfVersion.set(e.apiVersion, e); continue; }
    let bucket = result.find((x) => x.manager === ANCIENT_CHANGES && x.operation === 'Update' && x.apiVersion === e.apiVersion && !x.subresource);
    if (!bucket) {
      bucket = { manager: ANCIENT_CHANGES, operation: 'Update', apiVersion: e.apiVersion, set: first.set };
      result.splice(result.indexOf(first), 1, bucket);
    }
    bucket.set = union(bucket.set, e.set);
    bucket.time = e.time;
    result.splice(result.indexOf(e), 1);
    count--;
  }
  return result;
};

export interface Conflict {
  entry: Entry;
  path: Path;
}

const describeManager = (e: Entry): string => {
  let s = JSON.stringify(e.manager);
  if (e.subresource) s += ` with subresource ${JSON.stringify(e.subresource)}`;
  return e.operation === 'Update' ? `${s} using ${e.apiVersion}` : s;
};

export const conflictError = (conflicts: Conflict[]): StatusError => {
  // by manager, then as the library's field set iterates (members of a level before what is below it)
  const sorted = [...conflicts].sort((a, b) => cmp(describeManager(a.entry), describeManager(b.entry)) || comparePaths(a.path, b.path));
  const causes = sorted.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${describeManager(c.entry)}`, field: pathString(c.path) }));
  let message: string;
  if (sorted.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${describeManager(sorted[0].entry)}: ${pathString(sorted[0].path)}`;
  } else {
    const lines: string[] = [];
    let last = '';
    for (const c of sorted) {
      const m = describeManager(c.entry);
      if (m !== last) { lines.push(`conflicts with ${m}:`); last = m; }
      lines.push(`- ${pathString(c.path)}`);
    }
    message = `Apply failed with ${sorted.length} conflicts: ${lines.join('\n')}`;
  }
  return new StatusError(409, 'Conflict', message, { causes });
};
