// Delete (upstream: Store.Delete): preconditions, graceful deletion and finalizers mark the object
// (deletionTimestamp) instead of removing it; otherwise one compare-and-swap delete.
import type { KubeObject } from '../../../api/types.js';
import { conflict, fieldCause, invalid, isStatusError, type StatusCause } from '../../apimachinery/errors.js';
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

/**
 * `admit: false` for a deletion the apiserver makes on behalf of another request, whose admission already ran (an
 * eviction: upstream's store.Delete with ValidateAllObjectFunc).
 */
export async function deleteObject(reg: Registry, ctx: RequestContext, name: string, opts: DeleteOptions, o: { admit?: boolean } = {}): Promise<DeleteResult> {
  for (;;) {
    const current = await reg.get(ctx, name);
    const obj = current.object;
    // as upstream's rest.BeforeDelete
    validateDeleteOptions(opts);
    checkPreconditions(reg, name, obj, opts);
    // both phases, as upstream's AdmissionToValidateObjectDeleteFunc (NamespaceLifecycle and mutating webhooks decide in the first)
    if (o.admit !== false) {
      await reg.admission('mutate', 'DELETE', ctx, undefined, obj, name, undefined, opts);
      await reg.admission('validate', 'DELETE', ctx, undefined, obj, name, undefined, opts);
    }

    const marked = markForDeletion(reg, ctx, obj, opts);
    if (ctx.dryRun) return { object: marked ?? obj, deleted: !marked };
    ctx.deadline?.check();
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

const POLICIES = ['Foreground', 'Background', 'Orphan'];

/** Upstream's ValidateDeleteOptions: a 422 on DeleteOptions.meta.k8s.io (a dry run of anything but All is no dry run). */
export function validateDeleteOptions(opts: DeleteOptions): void {
  const causes: StatusCause[] = [];
  const policy = opts.propagationPolicy;
  if (opts.orphanDependents !== undefined && policy !== undefined) {
    causes.push(fieldCause('FieldValueInvalid', 'propagationPolicy', `Invalid value: ${JSON.stringify(policy)}: orphanDependents and deletionPropagation cannot be both set`));
  }
  if (policy !== undefined && !POLICIES.includes(policy)) {
    causes.push(fieldCause('FieldValueNotSupported', 'propagationPolicy', `Unsupported value: ${JSON.stringify(policy)}: supported values: "Foreground", "Background", "Orphan", "nil"`));
  }
  if (opts.dryRun?.some((d) => d !== 'All')) {
    causes.push(fieldCause('FieldValueNotSupported', 'dryRun', `Unsupported value: []string{${opts.dryRun.map((d) => JSON.stringify(d)).join(', ')}}: supported values: "All"`));
  }
  if (causes.length) throw invalid('meta.k8s.io', 'DeleteOptions', '', causes);
}

/** As upstream's rest.BeforeDelete words them: the object named by its kind ('Pod "p"'). */
export function checkPreconditions(reg: Registry, name: string, obj: KubeObject, opts: DeleteOptions): void {
  const p = opts.preconditions;
  const kind = { group: reg.rt.group, resource: reg.rt.kind };
  if (p?.uid && p.uid !== obj.metadata?.uid) {
    throw conflict(kind, name, `the UID in the precondition (${p.uid}) does not match the UID in record (${obj.metadata?.uid ?? ''}). The object might have been deleted and then recreated`);
  }
  if (p?.resourceVersion && p.resourceVersion !== obj.metadata?.resourceVersion) {
    throw conflict(kind, name, `the ResourceVersion in the precondition (${p.resourceVersion}) does not match the ResourceVersion in record (${obj.metadata?.resourceVersion ?? ''}). The object might have been modified`);
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
  // the first mark changes what the object's controller must do: its generation moves on (upstream's BeforeDelete and
  // markAsDeleting), so that a reconciler comparing it with status.observedGeneration sees the deletion
  const marked = withDeletion(obj, ctx.now, grace, finalizers);
  if ((meta.generation ?? 0) > 0) marked.metadata!.generation = meta.generation! + 1;
  return marked;
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
