// Delete (upstream: Store.Delete): preconditions, graceful deletion and finalizers mark the object
// (deletionTimestamp) instead of removing it; otherwise one compare-and-swap delete.
import type { KubeObject } from '../../../api/types.js';
import { conflict, isStatusError } from '../../apimachinery/errors.js';
import { isStorageError, StorageError } from '../../storage/errors.js';
import type { DeleteOptions, RequestContext } from '../context.js';
import { rfc3339 } from '../meta.js';
import { toApiError } from '../storage-errors.js';
import type { Registry, Result } from './registry.js';

export interface DeleteResult extends Result {
  /** false: the object is only marked (graceful deletion or finalizers pending). */
  deleted: boolean;
}

const ORPHAN = 'orphan';
const FOREGROUND = 'foregroundDeletion';

export async function deleteObject(reg: Registry, ctx: RequestContext, name: string, opts: DeleteOptions): Promise<DeleteResult> {
  for (;;) {
    const current = await reg.get(ctx, name);
    const obj = current.object;
    checkPreconditions(reg, name, obj, opts);
    await reg.admission('validate', 'DELETE', ctx, undefined, obj, name);

    const marked = markForDeletion(reg, ctx, obj, opts);
    if (ctx.dryRun) return { object: marked ?? obj, deleted: !marked };
    try {
      if (marked) {
        const kv = await reg.deps.store.guaranteedUpdate(current.key, (cur) => {
          // Never undefined: the store answers a missing key with KeyNotFound before asking.
          const now = cur!;
          if (now.modRevision !== current.modRevision) throw new StorageError('Conflict', current.key, 'changed while deleting', now.modRevision);
          return marked === obj ? now.object : marked;
        });
        return { object: kv.object, bytes: kv.bytes, deleted: false };
      }
      const kv = await reg.deps.store.delete(current.key, { expectedRevision: current.modRevision });
      reg.strategy.afterDelete?.(kv.object);
      return { object: kv.object, bytes: kv.bytes, deleted: true };
    } catch (err) {
      // Someone wrote in between: look again (the preconditions and the decision may change).
      if (isStorageError(err, 'Conflict')) {
        await reg.catchUp(err);
        continue;
      }
      throw isStatusError(err) ? err : toApiError(err, reg.gr, name);
    }
  }
}

function checkPreconditions(reg: Registry, name: string, obj: KubeObject, opts: DeleteOptions): void {
  const p = opts.preconditions;
  if (p?.uid && p.uid !== obj.metadata?.uid) {
    throw conflict(reg.gr, name, `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${obj.metadata?.uid ?? ''}`);
  }
  if (p?.resourceVersion && p.resourceVersion !== obj.metadata?.resourceVersion) {
    throw conflict(reg.gr, name, `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${obj.metadata?.resourceVersion ?? ''}`);
  }
}

/**
 * The object as it should be stored instead of being removed, or undefined to remove it now.
 * Returns `obj` itself when it is already marked and nothing changes.
 */
function markForDeletion(reg: Registry, ctx: RequestContext, obj: KubeObject, opts: DeleteOptions): KubeObject | undefined {
  const meta = obj.metadata!;
  const custom = reg.strategy.beforeDelete?.(obj, ctx);
  if (custom) return custom;
  const finalizers = finalizersFor(reg, meta.finalizers ?? [], opts);
  const strategyGrace = reg.strategy.gracePeriod?.(obj, opts);
  const grace = strategyGrace === undefined ? 0 : Math.max(0, opts.gracePeriodSeconds ?? strategyGrace);
  if (finalizers.length === 0 && grace === 0) return undefined;
  if (meta.deletionTimestamp) {
    // Already marked: only a shorter grace period changes anything (upstream: BeforeDelete).
    const current = meta.deletionGracePeriodSeconds ?? 0;
    if (grace >= current && sameList(finalizers, meta.finalizers ?? [])) return obj;
    if (grace < current && finalizers.length === 0 && grace === 0) return undefined;
    return withDeletion(obj, ctx.now, Math.min(grace, current), finalizers);
  }
  return withDeletion(obj, ctx.now, grace, finalizers);
}

function withDeletion(obj: KubeObject, now: Date, grace: number, finalizers: string[]): KubeObject {
  const meta = { ...obj.metadata!, deletionTimestamp: rfc3339(new Date(now.getTime() + grace * 1000)), deletionGracePeriodSeconds: grace };
  if (finalizers.length) meta.finalizers = finalizers;
  else delete meta.finalizers;
  return { ...obj, metadata: meta };
}

/** The garbage collector's finalizers, per propagation policy (upstream: deletionFinalizersForGarbageCollection). */
function finalizersFor(reg: Registry, existing: string[], opts: DeleteOptions): string[] {
  const policy = opts.propagationPolicy
    ?? (opts.orphanDependents === true ? 'Orphan' : opts.orphanDependents === false ? 'Background' : undefined);
  const rest = existing.filter((f) => f !== ORPHAN && f !== FOREGROUND);
  const effective = policy ?? (existing.includes(ORPHAN) ? 'Orphan' : existing.includes(FOREGROUND) ? 'Foreground' : reg.strategy.defaultGarbageCollectionPolicy ?? 'Background');
  if (effective === 'Orphan') return [...rest, ORPHAN];
  if (effective === 'Foreground') return [...rest, FOREGROUND];
  return rest;
}

const sameList = (a: string[], b: string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
