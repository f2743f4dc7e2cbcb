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

export interface ApplyOptions extends UpdateOptions {
  force: boolean;
}

/** The owner of an object's fields before anyone applied, as upstream names it. */
export const BEFORE_FIRST_APPLY = 'before-first-apply';

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

  if (live && changed.size === 0 && removed.size === 0 && entriesKey(result) === entriesKey(entries)) return live;
  const metadata = { ...merged.metadata };
  const encoded = encodeEntries(result);
  if (encoded) metadata.managedFields = encoded;
  else delete metadata.managedFields;
  return { ...merged, metadata };
};
