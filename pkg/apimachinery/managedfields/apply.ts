// Server-side apply (structured-merge-diff's Updater.Apply under upstream's fieldmanager): merge the
// applied configuration into the live object, drop what this manager applied before and no longer does
// (unless another manager owns it), refuse to change fields other managers own unless forced.
//
//   apply(live: KubeObject | undefined, applied: KubeObject, manager: string, opts: ApplyOptions): KubeObject
//     -> the merged object with metadata.managedFields updated; `live` itself (===) when nothing changed.
//     Throws 409 Conflict (causes with reason FieldManagerConflict) and 400 when the patch carries managedFields.
//   refuseAppliedManagedFields(applied): void    // that 400, for callers that check the configuration before
//     kubectl's own applies may take fields its client-side apply annotation lists without a conflict (last-applied.ts).
import type { KubeObject } from '../../../api/types.js';
import { badRequest } from '../errors.js';
import { resolveSchema } from '../schema-lookup.js';
import { compareObjects, createdPaths, withoutManagedFields } from './compare.js';
import { conflictError, decodeEntries, encodeEntries, sameManager, stripIgnored, type Entry } from './entries.js';
import { difference, intersect, pathOf, union } from './fieldpath.js';
import { KUBECTL_MANAGER, LAST_APPLIED_ANNOTATION, syncLastApplied, takeoverAllowed } from './last-applied.js';
import { mergeApplied, removeFields } from './merge.js';
import { reconcileEntries } from './reconcile.js';
import { ofKnownVersions, type UpdateOptions } from './update.js';
import { fieldSetOf } from './walk.js';
import { zeroObjectOf } from './zero-object.js';

export interface ApplyOptions extends UpdateOptions {
  force: boolean;
}

/** The owner of an object's fields before anyone applied, as upstream names it. */
export const BEFORE_FIRST_APPLY = 'before-first-apply';

const entriesKey = (entries: Entry[]): string => JSON.stringify((encodeEntries(entries) ?? []).map(({ time: _t, ...e }) => e));

/** An applied configuration may not carry managedFields, an empty list either (only absent or null is Go's nil). */
export const refuseAppliedManagedFields = (applied: KubeObject): void => {
  if (Array.isArray(applied.metadata?.managedFields)) throw badRequest('metadata.managedFields must be nil');
};

export const apply = (live: KubeObject | undefined, applied: KubeObject, manager: string, opts: ApplyOptions): KubeObject => {
  refuseAppliedManagedFields(applied);
  const { lookup } = opts;
  const schema = resolveSchema(lookup(opts.rootDefinition), lookup);
  const current = withoutManagedFields(live);

  // ownership recorded under an earlier schema first follows the one in force (structured-merge-diff's reconcile)
  const stored = decodeEntries(live?.metadata?.managedFields);
  let entries = reconcileEntries(ofKnownVersions(stored, opts), schema, lookup);
  // upstream's skipNonApplied records an untracked object as an update of the kind's zero object, made through the
  // endpoint applied to (its subresource too)
  if (current && entries.length === 0) {
    entries = [{
      manager: BEFORE_FIRST_APPLY, operation: 'Update', apiVersion: opts.apiVersion, time: opts.now, subresource: opts.subresource,
      set: createdPaths(current, schema, lookup, zeroObjectOf(opts.rootDefinition, lookup), opts.ignore),
    }];
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

  // a create has nobody else to take fields from or conflict with
  const { changed, removed } = current ? compareObjects(current, merged, schema, lookup, opts.ignore) : { changed: appliedSet, removed: new Set<string>() };
  let conflicts = others.flatMap((entry) => [...intersect(entry.set, changed)].map((key) => ({ entry, key })));
  if (conflicts.length > 0 && !opts.force && manager === KUBECTL_MANAGER) {
    const allowed = takeoverAllowed(current, schema, lookup, opts.apiVersion);
    conflicts = conflicts.filter((c) => !allowed.has(c.key));
  }
  if (conflicts.length > 0 && !opts.force) throw conflictError(conflicts.map(({ entry, key }) => ({ entry, path: pathOf(key) })));

  const result: Entry[] = others.map((e) => ({ ...e, set: difference(difference(e.set, changed), removed) }));
  // the applier's time moves only when the object changed (upstream's managedFieldsUpdater: a no-op apply keeps the
  // time it had, and a manager new to an unchanged object gets none)
  const objectChanged = !current || changed.size > 0 || removed.size > 0;
  result.push({ ...me, time: objectChanged ? opts.now : previous?.time, set: appliedSet });

  // the annotation follows the apply without being part of it: it neither conflicts nor changes owners
  const synced = syncLastApplied(merged, applied, manager);
  const lastAppliedKept = synced.metadata?.annotations?.[LAST_APPLIED_ANNOTATION] === live?.metadata?.annotations?.[LAST_APPLIED_ANNOTATION];
  if (live && changed.size === 0 && removed.size === 0 && lastAppliedKept && entriesKey(result) === entriesKey(stored)) return live;
  const metadata = { ...synced.metadata };
  const encoded = encodeEntries(result);
  if (encoded) metadata.managedFields = encoded;
  else delete metadata.managedFields;
  return { ...synced, metadata };
};
