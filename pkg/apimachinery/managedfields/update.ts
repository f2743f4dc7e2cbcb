// Ownership for ordinary writes (create, update, patch): the writer owns what it changed, other managers
// lose it, removed fields leave every set (upstream's Updater.Update under the managedFieldsUpdater).
// Creates are always tracked; an existing object without managedFields stays without; past ten Update
// entries the oldest are folded into "ancient-changes".
//
//   updateManagedFields(old: KubeObject | undefined, next: KubeObject, manager: string, opts: UpdateOptions): KubeObject
//     returns `next` (a shallow copy) with metadata.managedFields recomputed
import { isDeepStrictEqual } from 'node:util';
import type { Schema } from '../../../api/schema.js';
import type { KubeObject, ManagedFieldsEntry } from '../../../api/types.js';
import { resolveSchema, type SchemaLookup } from '../schema-lookup.js';
import { compareObjects, createdPaths, withoutManagedFields, type Comparison } from './compare.js';
import { capUpdateManagers, decodeEntries, decodeSentEntries, encodeEntries, entryHas, ignoredWith, sameManager, type Entry } from './entries.js';
import { difference, fieldPE, union, type Path } from './fieldpath.js';
import { reconcileEntries } from './reconcile.js';
import { createdFieldsV1, isObj } from './walk.js';
import { zeroObjectOf, type ZeroStruct } from './zero-object.js';

export interface UpdateOptions {
  lookup: SchemaLookup;
  /** The kind's definition name: "io.k8s.api.apps.v1.Deployment". */
  rootDefinition: string;
  /** The version the request spoke: "apps/v1". */
  apiVersion: string;
  /** RFC 3339 seconds, as meta.now() gives. */
  now: string;
  subresource?: string;
  /** Paths this endpoint resets and nobody may own through it ([['f:status']] on the main resource). */
  ignore?: Path[];
  /** Whether the kind has a schema in an apiVersion; entries of others are dropped (all kept when left out). */
  knownVersion?: (apiVersion: string) => boolean;
}

/**
 * The entries of versions the server still has a schema of: structured-merge-diff's reconcile cannot convert the
 * others (a missing version) and leaves them out, so obsolete ownership goes at the next write.
 */
export const ofKnownVersions = (entries: Entry[], opts: UpdateOptions): Entry[] =>
  (opts.knownVersion ? entries.filter((e) => opts.knownVersion!(e.apiVersion)) : entries);

/** An entry Go decodes to its zero value: every field empty or null. */
const isZeroEntry = (e: ManagedFieldsEntry): boolean => Object.values(e).every((v) => v === '' || v === null || v === undefined);

/** `managedFields: []` or `[{}]` in a request clears them (upstream's isResetManagedFields); null or none does not. */
const isReset = (list: ManagedFieldsEntry[] | null | undefined): boolean =>
  Array.isArray(list) && (list.length === 0 || (list.length === 1 && isObj(list[0]) && isZeroEntry(list[0])));

/**
 * Which entries an update starts from: the request's own (clients may edit managedFields), unless it
 * sent none or ones that do not decode, or writes a subresource; then the live object's (upstream's decodeLiveOrNew).
 */
const startingEntries = (old: KubeObject | undefined, next: KubeObject, subresource?: string): Entry[] => {
  const stored = old?.metadata?.managedFields;
  const live = decodeEntries(stored, true);
  if (subresource) return live;
  const sent = next.metadata?.managedFields;
  if (isReset(sent)) return [];
  // clients mostly send back the entries they read
  if (!Array.isArray(sent) || isDeepStrictEqual(sent, stored)) return live;
  const decoded = decodeSentEntries(sent);
  return decoded?.length ? decoded : live;
};

/** A create nobody tracked before: the writer owns every path it wrote, written straight into FieldsV1. */
const created = (next: KubeObject, manager: string, schema: Schema | undefined, zero: ZeroStruct, opts: UpdateOptions): KubeObject => {
  let fieldsV1 = createdFieldsV1(next, schema, opts.lookup, ignoredWith(opts.ignore), zero);
  // metadata is never a member itself (upstream's stripMeta; a custom resource's zero object lacks it)
  const meta = fieldsV1?.[fieldPE('metadata')] as Record<string, unknown> | undefined;
  if (meta) {
    const { '.': _member, ...rest } = meta;
    if (Object.keys(rest).length > 0) fieldsV1![fieldPE('metadata')] = rest;
    else {
      const { [fieldPE('metadata')]: _meta, ...others } = fieldsV1!;
      fieldsV1 = Object.keys(others).length > 0 ? others : undefined;
    }
  }
  const metadata = { ...next.metadata };
  if (fieldsV1) {
    const entry: ManagedFieldsEntry = { manager, operation: 'Update', apiVersion: opts.apiVersion, time: opts.now, fieldsType: 'FieldsV1', fieldsV1 };
    if (opts.subresource) entry.subresource = opts.subresource;
    metadata.managedFields = [entry];
  } else {
    delete metadata.managedFields;
  }
  return { ...next, metadata };
};

/** The entries after a write that changed and removed what `comparison` says. */
const tracked = (entries: Entry[], { changed, removed }: Comparison, next: KubeObject, manager: string, opts: UpdateOptions): KubeObject => {
  const me = { manager, operation: 'Update' as const, apiVersion: opts.apiVersion, subresource: opts.subresource };
  const touched = [...changed, ...removed];
  const others = entries.filter((e) => !sameManager(e, me))
    .map((e) => (touched.some((k) => entryHas(e, k)) ? { ...e, set: difference(difference(e.set, changed), removed) } : e));
  const previous = entries.find((e) => sameManager(e, me));
  const result: Entry[] = [...others];
  if (changed.size > 0) {
    result.push({ ...me, time: opts.now, set: union(difference(previous?.set ?? new Set(), removed), changed) });
  } else if (previous) {
    result.push([...removed].some((k) => entryHas(previous, k)) ? { ...previous, set: difference(previous.set, removed) } : previous);
  }
  const metadata = { ...next.metadata };
  const encoded = encodeEntries(capUpdateManagers(result));
  if (encoded) metadata.managedFields = encoded;
  else delete metadata.managedFields;
  return { ...next, metadata };
};

export const updateManagedFields = (old: KubeObject | undefined, next: KubeObject, manager: string, opts: UpdateOptions): KubeObject => {
  const started = startingEntries(old, next, opts.subresource);
  // An existing object nobody tracks stays untracked until someone applies (upstream's skipNonApplied).
  if (old && started.length === 0) return withoutManagedFields(next)!;
  const schema = resolveSchema(opts.lookup(opts.rootDefinition), opts.lookup);
  const entries = reconcileEntries(ofKnownVersions(started, opts), schema, opts.lookup);
  if (old) return tracked(entries, compareObjects(old, next, schema, opts.lookup, opts.ignore), next, manager, opts);
  // a create: compared with the kind's zero object, as upstream's create handler has the field manager do
  const zero = zeroObjectOf(opts.rootDefinition, opts.lookup);
  if (entries.length === 0) return created(next, manager, schema, zero, opts);
  return tracked(entries, { changed: createdPaths(next, schema, opts.lookup, zero, opts.ignore), removed: new Set() }, next, manager, opts);
};
