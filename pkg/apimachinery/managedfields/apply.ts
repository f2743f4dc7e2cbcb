// Server-side apply (structured-merge-diff's Updater.Apply under upstream's fieldmanager): merge the
// applied configuration into the live object, drop what this manager applied before and no longer does
// (unless another manager owns it), refuse to change fields other managers own unless forced.
//
//   apply(live: KubeObject | undefined, applied: KubeObject, manager: string, opts: ApplyOptions): KubeObject
//     -> the merged object with metadata.managedFields updated; `live` itself (===) when nothing changed.
//     Throws 409 Conflict (causes with reason FieldManagerConflict) and 400 when the patch carries managedFields.
import type { KubeObject } from '../../../api/types.js';
import { badRequest } from '../errors.js';
import { resolveSchema } from '../schema-lookup.js';
import { compareObjects, withoutManagedFields } from './compare.js';
import { conflictError, decodeEntries, encodeEntries, sameManager, stripIgnored, type Conflict, type Entry } from './entries.js';
import { difference, intersect, pathOf, union } from './fieldpath.js';
import { mergeApplied, removeFields } from './merge.js';
import type { UpdateOptions } from './update.js';
import { fieldSetOf } from './walk.js';
import { cloneJson } from '../json-clone.js';

export interface ApplyOptions extends UpdateOptions {
  force: boolean;
}

/** The owner of an object's fields before anyone applied, as upstream names it. */
export const BEFORE_FIRST_APPLY = 'before-first-apply';
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** Go's json.Marshal of a map: keys sorted; the encoder ends with a newline. */
const sortedJson = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) =>
  x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, (x as Record<string, unknown>)[k]])) : x);

/**
 * kubectl's server-side apply keeps a client-side apply annotation, if the object has one, in step with
 * what it applied (upstream's lastAppliedUpdater), so that a later client-side apply diffs correctly.
 */
const syncLastApplied = (merged: KubeObject, applied: KubeObject, manager: string): KubeObject => {
  if (manager !== 'kubectl' || merged.metadata?.annotations?.[LAST_APPLIED_ANNOTATION] === undefined) return merged;
  const copy = cloneJson(applied);
  if (copy.metadata?.annotations) delete copy.metadata.annotations[LAST_APPLIED_ANNOTATION];
  const annotations = { ...merged.metadata.annotations, [LAST_APPLIED_ANNOTATION]: `${sortedJson(copy)}\n` };
  return { ...merged, metadata: { ...merged.metadata, annotations } };
};

const entriesKey = (entries: Entry[]): string => JSON.stringify((encodeEntries(entries) ?? []).map(({ time: _t, ...e }) => e));

export const apply = (live: KubeObject | undefined, applied: KubeObject, manager: string, opts: ApplyOptions): KubeObject => {
  if ((applied.metadata?.managedFields ?? []).length > 0) throw badRequest('metadata.managedFields must be nil');
  const { lookup } = opts;
  const schema = resolveSchema(lookup(opts.rootDefinition), lookup);
  const current = withoutManagedFields(live);

  let entries = decodeEntries(live?.metadata?.managedFields);
  if (current && entries.length === 0) {
    entries = [{ manager: BEFORE_FIRST_APPLY, operation: 'Update', apiVersion: opts.apiVersion, time: opts.now, set: compareObjects(undefined, current, schema, lookup, opts.ignore).changed }];
  }
  const me = { manager, operation: 'Apply' as const, apiVersion: opts.apiVersion, subresource: opts.subresource };
  const previous = entries.find((e) => sameManager(e, me));
  const others = entries.filter((e) => !sameManager(e, me));
  const appliedSet = stripIgnored(fieldSetOf(applied, schema, lookup), opts.ignore);

  let merged = mergeApplied(current ?? {}, applied, schema, lookup) as KubeObject;
  if (previous) {
    const keep = union(appliedSet, ...others.map((e) => e.set));
    merged = removeFields(merged, schema, lookup, difference(previous.set, keep), keep) as KubeObject;
  }

  const { changed, removed } = compareObjects(current, merged, schema, lookup, opts.ignore);
  const conflicts: Conflict[] = others.flatMap((entry) => [...intersect(entry.set, changed)].map((k) => ({ entry, path: pathOf(k) })));
  if (conflicts.length > 0 && !opts.force) throw conflictError(conflicts);

  const result: Entry[] = others.map((e) => ({ ...e, set: difference(difference(e.set, changed), removed) }));
  result.push({ ...me, time: opts.now, set: appliedSet });

  // the annotation follows the apply without being part of it: it neither conflicts nor changes owners
  const synced = syncLastApplied(merged, applied, manager);
  const lastAppliedKept = synced.metadata?.annotations?.[LAST_APPLIED_ANNOTATION] === live?.metadata?.annotations?.[LAST_APPLIED_ANNOTATION];
  if (live && changed.size === 0 && removed.size === 0 && lastAppliedKept && entriesKey(result) === entriesKey(entries)) return live;
  const metadata = { ...synced.metadata };
  const encoded = encodeEntries(result);
  if (encoded) metadata.managedFields = encoded;
  else delete metadata.managedFields;
  return { ...synced, metadata };
};
