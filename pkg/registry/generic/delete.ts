// Delete (upstream: Store.Delete): preconditions, graceful deletion and finalizers mark the object
// (deletionTimestamp) instead of removing it; otherwise one compare-and-swap delete. A pod is always marked first, with
// a period of 0 too (watchers see MODIFIED, then DELETED).
import type { KubeObject } from '../../../api/types.js';
import { conflict, fieldCause, invalid, isStatusError, type StatusCause } from '../../apimachinery/errors.js';
import { isStorageError, StorageError } from '../../storage/errors.js';
import type { KeyValue } from '../../storage/interface.js';
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

    const { marked, thenRemove } = planDeletion(reg, ctx, obj, opts);
    // a dry run answers what the write would have stored (upstream: the dry-run update's object)
    if (ctx.dryRun) return { object: marked ?? obj, deleted: !marked || thenRemove === true };
    ctx.deadline?.check();
    try {
      if (!marked) {
        const kv = await reg.deps.store.delete(current.key, { expectedRevision: current.modRevision });
        reg.strategy.afterDelete?.(kv.object);
        return { object: kv.object, bytes: kv.bytes, deleted: true };
      }
      const kv = marked === obj ? current : await reg.deps.store.guaranteedUpdate(current.key, (cur) => {
        // Never undefined: the store answers a missing key with KeyNotFound before asking.
        if (cur!.modRevision !== current.modRevision) throw new StorageError('Conflict', current.key, 'changed while deleting', cur!.modRevision);
        return marked;
      });
      if (!thenRemove) return { object: kv.object, bytes: kv.bytes, deleted: false };
      return await removeMarked(reg, name, kv, opts);
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

/**
 * The second step of a graceful deletion with nothing left to wait for (upstream's Store.Delete after
 * updateForGracefulDeletionAndFinalizers): the object just marked is removed, whatever changed since, unless the client
 * gave a resourceVersion precondition (which the mark carried over to its own). Gone meanwhile (or replaced by another
 * of its name) it counts as deleted, answered as marked.
 */
async function removeMarked(reg: Registry, name: string, marked: KeyValue, opts: DeleteOptions): Promise<DeleteResult> {
  const uid = marked.object.metadata?.uid;
  const rv = marked.object.metadata?.resourceVersion ?? '';
  try {
    const kv = await reg.deps.store.delete(marked.key, {
      precondition: (now) => {
        if (now.object.metadata?.uid !== uid) throw new StorageError('KeyNotFound', marked.key, 'replaced while deleting');
        const nowRv = now.object.metadata?.resourceVersion ?? '';
        if (opts.preconditions?.resourceVersion && nowRv !== rv) {
          throw conflict(reg.gr, name, `Precondition failed: ResourceVersion in precondition: ${rv}, ResourceVersion in object meta: ${nowRv}`);
        }
      },
    });
    reg.strategy.afterDelete?.(kv.object);
    return { object: kv.object, bytes: kv.bytes, deleted: true };
  } catch (err) {
    if (isStorageError(err, 'KeyNotFound')) return { object: marked.object, bytes: marked.bytes, deleted: true };
    throw err;
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
 * What a delete does: store `marked` instead of removing the object (nothing to write when it is the object itself),
 * then remove it too when `thenRemove`; no `marked`: remove the object now. Upstream: rest.BeforeDelete, then
 * Store.Delete and updateForGracefulDeletionAndFinalizers.
 */
interface Plan {
  marked?: KubeObject;
  thenRemove?: boolean;
}

function planDeletion(reg: Registry, ctx: RequestContext, obj: KubeObject, opts: DeleteOptions): Plan {
  const custom = reg.strategy.beforeDelete?.(obj, ctx);
  if (custom) return { marked: custom };
  const graceful = reg.strategy.gracePeriod ? gracefulMark(reg, ctx, obj, opts) : undefined;
  // a graceful deletion under way: finalizers are not changed by the options any more
  if (graceful === obj) return { marked: obj };
  const existing = obj.metadata!.finalizers ?? [];
  const wanted = finalizersFor(reg, existing, opts);
  const finalizers = sameSet(wanted, existing) ? existing : wanted;
  if (graceful) {
    const marked = withFinalizers(graceful, finalizers);
    // a period of 0 is marked all the same (watchers see it), then removed at once unless finalizers hold it
    return { marked, thenRemove: finalizers.length === 0 && marked.metadata!.deletionGracePeriodSeconds === 0 };
  }
  return finalizers.length ? { marked: markAsDeleting(obj, ctx.now, finalizers) } : {};
}

/**
 * A graceful strategy's mark (upstream: the graceful part of rest.BeforeDelete): `obj` itself while a graceful deletion
 * is pending (no period given, or one no shorter than the object's), the object with a shorter period (its deadline
 * moved back by the difference), or with its first mark; undefined when it is not deleted gracefully (marked with a
 * period of 0 already, or the strategy declines).
 */
function gracefulMark(reg: Registry, ctx: RequestContext, obj: KubeObject, opts: DeleteOptions): KubeObject | undefined {
  const meta = obj.metadata!;
  // negative periods count as 1, asked for or stored
  const atLeastOne = (n: number | undefined): number | undefined => (n !== undefined && n < 0 ? 1 : n);
  const requested = atLeastOne(opts.gracePeriodSeconds);
  if (meta.deletionTimestamp) {
    const current = atLeastOne(meta.deletionGracePeriodSeconds);
    if (!current) return undefined;
    if (requested === undefined || requested >= current) return obj;
    const deadline = Date.parse(meta.deletionTimestamp) - (current - requested) * 1000;
    return { ...obj, metadata: { ...meta, deletionTimestamp: deletionTime(deadline), deletionGracePeriodSeconds: requested } };
  }
  const period = reg.strategy.gracePeriod!(obj, { ...opts, gracePeriodSeconds: requested });
  if (period === undefined) return undefined;
  const marked = { ...meta, deletionTimestamp: deletionTime(ctx.now.getTime() + period * 1000), deletionGracePeriodSeconds: period };
  // the first mark changes what the object's controller must do: its generation moves on, so that a reconciler
  // comparing it with status.observedGeneration sees the deletion
  if ((meta.generation ?? 0) > 0) marked.generation = meta.generation! + 1;
  return { ...obj, metadata: marked };
}

/** RFC 3339's last second: a grace period of an int64's seconds ends past any date (upstream's Go time wraps around). */
const LAST_TIME_MS = Date.parse('9999-12-31T23:59:59Z');

/** The deletionTimestamp of a deadline (ms), however far: within what RFC 3339 can write. */
const deletionTime = (ms: number): string => rfc3339(new Date(Number.isNaN(ms) ? LAST_TIME_MS : Math.min(Math.max(ms, 0), LAST_TIME_MS)));

/**
 * An object that is not deleted gracefully but kept by finalizers (upstream's markAsDeleting): a period of 0, deleted
 * from now unless it was from earlier; `obj` itself when nothing changes.
 */
function markAsDeleting(obj: KubeObject, now: Date, finalizers: string[]): KubeObject {
  const meta = obj.metadata!;
  const since = meta.deletionTimestamp && Date.parse(meta.deletionTimestamp) <= now.getTime() ? meta.deletionTimestamp : rfc3339(now);
  if (since === meta.deletionTimestamp && meta.deletionGracePeriodSeconds === 0 && sameSet(finalizers, meta.finalizers ?? [])) return obj;
  const marked = withFinalizers({ ...obj, metadata: { ...meta, deletionTimestamp: since, deletionGracePeriodSeconds: 0 } }, finalizers);
  if (!meta.deletionTimestamp && (meta.generation ?? 0) > 0) marked.metadata!.generation = meta.generation! + 1;
  return marked;
}

function withFinalizers(obj: KubeObject, finalizers: string[]): KubeObject {
  const meta = { ...obj.metadata! };
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

const sameSet = (a: string[], b: string[]): boolean => new Set(a).size === new Set(b).size && a.every((x) => b.includes(x));
