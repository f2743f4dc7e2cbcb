// Update, patch and apply share one path (upstream: Store.Update with an UpdatedObjectInfo): the
// caller builds the desired object from the current one; this runs admission, the strategy and
// validation on it inside the store's compare-and-swap, so a concurrent write re-runs the build.
import type { KubeObject, ObjectMeta } from '../../../api/types.js';
import { badRequest, conflict, fieldCause, invalid, isStatusError, namespaceMismatch, notFound } from '../../apimachinery/errors.js';
import { cloneJson } from '../../apimachinery/json-clone.js';
import { floatLiteralsOf } from '../../apimachinery/float-literals.js';
import { andThen } from '../../apimachinery/maybe-async.js';
import type { KeyValue } from '../../storage/interface.js';
import { isStorageError, type StorageError } from '../../storage/errors.js';
import type { RequestContext } from '../context.js';
import { specChanged, unchangedByUpdate } from '../meta.js';
import { jsonEqual } from '../../apimachinery/json-equal.js';
import { storageCause, toApiError } from '../storage-errors.js';
import { create } from './create.js';
import { decodeObject, targetOf, writeZeroValues } from './decode.js';
import type { Registry, Result } from './registry.js';
import type { Strategy, UpdateSideEffects } from '../strategy.js';
import { validateForUpdate } from './validate.js';
import { deleteIfInitializationFailed } from '../initializers/failed.js';

export interface UpdateRequest {
  name: string;
  subresource?: string;
  /** The desired object given the current one (a fresh object each call: it is changed in place). */
  build(current: KubeObject | undefined): KubeObject | Promise<KubeObject>;
  /** When the object is missing: create it from build(undefined) (PUT with allowCreateOnUpdate, apply). */
  createIfMissing?: boolean;
  /** Managed fields were already set by the builder (server-side apply). */
  managedFieldsSet?: boolean;
  /**
   * Whether the field manager records this write, given the stored object (when left out, it does). A Scale's write
   * is not recorded when nobody owns the replicas: upstream's Scale then has no managed fields to start from.
   */
  tracks?(current: KubeObject): boolean;
  /**
   * What admission sees instead of the object, for subresources of another kind (scale: an autoscaling/v1 Scale);
   * `from` carries the view, as mutating admission left it, back into the object.
   */
  admissionView?: { to(obj: KubeObject): KubeObject; from(view: KubeObject, obj: KubeObject): KubeObject };
  /** The uid a PUT's body names: the stored object must have it (upstream's UID precondition, a 409). */
  uidPrecondition?: string;
  /**
   * The apiserver's own change inside another request whose admission already ran (an eviction's DisruptionTarget
   * condition): no admission and no managed-fields entry, as upstream's REST code calling its store's Update.
   */
  internal?: boolean;
}

/** A PUT: the body, decoded, is the new object; a uid it names is a precondition on the stored one. */
export function putRequest(reg: Registry, ctx: RequestContext, name: string, body: unknown, o: { subresource?: string; createIfMissing?: boolean } = {}): UpdateRequest {
  const uid = (body as KubeObject | null)?.metadata?.uid;
  const floats = floatLiteralsOf(body);
  return {
    name, ...o,
    uidPrecondition: typeof uid === 'string' && uid !== '' ? uid : undefined,
    build: () => decodeObject(reg.deps.decoder, cloneJson(body), targetOf(reg.rt), ctx, floats),
  };
}

export interface UpdateResult extends Result {
  created: boolean;
}

export async function update(reg: Registry, ctx: RequestContext, req: UpdateRequest): Promise<UpdateResult> {
  const key = reg.key(ctx.namespace, req.name);
  for (;;) {
    const current = (await reg.get(ctx, req.name).catch((e: unknown) => (isStatusError(e) && e.code === 404 ? undefined : Promise.reject(e)))) as KeyValue | undefined;
    if (!current) {
      if (!req.createIfMissing || req.subresource) throw notFound(reg.gr, req.name);
      try {
        const r = await create(reg, ctx, await req.build(undefined), { managedFieldsSet: req.managedFieldsSet });
        return { object: r.object, bytes: r.bytes, created: true };
      } catch (err) {
        if (isStatusError(err) && err.reason === 'AlreadyExists') {
          // raced with another create: update it, once the cache has it (looking again before would find nothing
          // again, in a loop of resolved promises that starves the very write it waits for)
          const cause = storageCause(err);
          if (cause) await reg.catchUp(cause);
          continue;
        }
        throw err;
      }
    }
    if (ctx.dryRun) {
      // Nothing is written, so the answer keeps the stored revision (upstream: DryRunnableStorage.GuaranteedUpdate).
      const next = await computeNext(reg, ctx, req, current.object);
      if (next === current.object) return { object: current.object, bytes: current.bytes, created: false };
      // as upstream's BeginUpdate with dryRun: a Service allocates what the update needs from allocators that keep
      // nothing (a node port taken elsewhere is refused), and nothing is written to settle
      reg.strategy.beforeUpdate?.(next, current.object, ctx)?.abort();
      next.metadata = { ...next.metadata, resourceVersion: current.object.metadata?.resourceVersion };
      return { object: next, created: false };
    }
    // the side effects of the attempt being written; a retried attempt's are given back
    let effects: UpdateSideEffects | undefined;
    const settle = (written: boolean): void => {
      const e = effects;
      effects = undefined;
      if (written) e?.commit(); else e?.abort();
    };
    let emptied: { next: KubeObject; revision: number } | undefined;
    try {
      const kv = await reg.deps.store.guaranteedUpdate(key, (cur) => {
        settle(false);
        if (!cur) throw notFound(reg.gr, req.name);
        return andThen(computeNext(reg, ctx, req, cur.object), (next) => {
          if (next === cur.object) return cur.object;
          if (finalized(reg, next, cur.object)) {
            emptied = { next, revision: cur.modRevision };
            throw EMPTIED_FINALIZERS;
          }
          effects = reg.strategy.beforeUpdate?.(next, cur.object, ctx) ?? undefined;
          ctx.deadline?.check();
          return next;
        });
      });
      settle(true);
      const gone = reg.deps.initializers ? await deleteIfInitializationFailed(reg, kv) : undefined;
      return gone ? { ...gone, created: false } : { object: kv.object, bytes: kv.bytes, created: false };
    } catch (err) {
      settle(false);
      if (err === EMPTIED_FINALIZERS && emptied) {
        const refused = await deleteFinalized(reg, key, emptied.revision);
        if (!refused) return { object: emptied.next, created: false };
        await reg.catchUp(refused);
        continue; // changed or gone meanwhile: read it again once the cache shows it
      }
      if (isStorageError(err, 'KeyNotFound')) {
        await reg.catchUp(err);
        continue;
      }
      throw isStatusError(err) ? err : toApiError(err, reg.gr, req.name);
    }
  }
}

/**
 * The object to write, or `current` itself when nothing would change (no write, no new revision); a promise only
 * when the builder or an admission plugin waits.
 */
function computeNext(reg: Registry, ctx: RequestContext, req: UpdateRequest, current: KubeObject): KubeObject | Promise<KubeObject> {
  // builders share what they keep with the stored object (frozen under test): the fields set below go into copies
  return andThen(req.build(current), (built) => fromBuilt(reg, ctx, req, current, built));
}

function fromBuilt(reg: Registry, ctx: RequestContext, req: UpdateRequest, current: KubeObject, built: KubeObject): KubeObject | Promise<KubeObject> {
  const sent: ObjectMeta = built.metadata ?? {};
  const curMeta = current.metadata!;
  if (req.uidPrecondition && req.uidPrecondition !== curMeta.uid) {
    throw conflict(reg.gr, req.name, `Precondition failed: UID in precondition: ${req.uidPrecondition}, UID in object meta: ${curMeta.uid ?? ''}`);
  }
  // as upstream's checkName: a body without a name does not take the URL's (an update is never a rename either)
  if (sent.name !== req.name) {
    throw badRequest(`the name of the object (${sent.name ?? ''}) does not match the name on the URL (${req.name})`);
  }
  if (reg.rt.namespaced && sent.namespace !== undefined && sent.namespace !== ctx.namespace) {
    throw namespaceMismatch();
  }
  if (sent.resourceVersion && sent.resourceVersion !== curMeta.resourceVersion) {
    throw conflict(reg.gr, req.name, 'the object has been modified; please apply your changes to the latest version and try again');
  }
  if (!sent.resourceVersion && reg.strategy.allowUnconditionalUpdate === false) {
    // upstream names the resource here, not the kind
    throw invalid(reg.rt.group, reg.rt.plural, req.name, [fieldCause('FieldValueInvalid', 'metadata.resourceVersion', 'Invalid value: 0x0: must be specified for an update')]);
  }
  let next: KubeObject = { ...built, metadata: { ...sent } };
  // As upstream's handlers: the writer owns what it sent, not what the strategy and admission change after. A
  // subresource's write is tracked at the end, once it has been cut down to what the subresource may change.
  const tracked = !req.managedFieldsSet && !req.subresource && !req.internal;
  if (tracked) reg.deps.fieldManager.update(current, next, ctx, undefined, reg.hasStatus);
  const meta = next.metadata!;
  meta.name = req.name;
  meta.resourceVersion = curMeta.resourceVersion;
  if (reg.rt.namespaced) meta.namespace = ctx.namespace;
  else delete meta.namespace;
  restoreServerFields(meta, curMeta);

  if (req.subresource === 'status') {
    // As upstream's status strategies: the spec stays as stored, the writer's metadata goes through but for what
    // the strategy keeps (a PUT without labels drops them, as there).
    next = { ...current, metadata: statusMetadata(reg.strategy.statusKeepsMetadata, meta, curMeta), status: next.status };
    reg.strategy.prepareForStatusUpdate?.(next, current, ctx);
  } else if (!req.subresource) {
    if (reg.hasStatus) {
      if (current.status === undefined) delete next.status;
      else next.status = current.status;
    }
    reg.strategy.prepareForUpdate?.(next, current, ctx);
  }
  // Other subresources (binding, scale, namespaces/finalize) shape the whole object in their builder.
  // What the server set since decoding (a binding's PodScheduled condition) gets Go's zero values too; a status
  // update's status was decoded and the rest is stored.
  if (req.subresource !== 'status') writeZeroValues(reg.deps.decoder, next, reg.rt.definition);
  // without a status subresource (a custom resource's), status is the spec's to write and counts as a change of it
  // (a status write keeps its annotations without raising it, as upstream's deployment status strategy)
  const metaChanged = (raises: boolean | undefined, field: 'annotations' | 'labels'): boolean => raises === true && req.subresource === undefined
    && !jsonEqual(curMeta[field] ?? {}, next.metadata![field] ?? {});
  if (reg.strategy.generation && (specChanged(current, next, !reg.hasStatus) || metaChanged(reg.strategy.annotationsRaiseGeneration, 'annotations')
    || metaChanged(reg.strategy.labelsRaiseGeneration, 'labels'))) next.metadata!.generation = (curMeta.generation ?? 1) + 1;

  const view = req.admissionView;
  const admit = !req.internal;
  const scale = view?.to(next);
  const mutating = view ? reg.admission('mutate', 'UPDATE', ctx, scale, view.to(current), req.name, req.subresource)
    : admit ? reg.admission('mutate', 'UPDATE', ctx, next, current, req.name, req.subresource) : undefined;
  return andThen(mutating, () => {
    if (view) next = view.from(scale!, next);
    const causes = validateForUpdate(reg, next, current, ctx, req.subresource);
    if (causes.length) throw reg.invalid(req.name, causes);
    // as upstream's BeforeUpdate, again on a retried attempt (the response says each text once)
    const warnings = !req.subresource || req.subresource === 'scale' ? reg.strategy.warningsOnUpdate?.(next, current, ctx) : undefined;
    if (warnings) ctx.warnings.push(...warnings);
    const validating = view ? reg.admission('validate', 'UPDATE', ctx, view.to(next), view.to(current), req.name, req.subresource)
      : admit ? reg.admission('validate', 'UPDATE', ctx, next, current, req.name, req.subresource) : undefined;
    return andThen(validating, () => {
      if (!req.managedFieldsSet && !tracked && !req.internal && (req.tracks?.(current) ?? true)) {
        reg.deps.fieldManager.update(current, next, ctx, req.subresource, reg.hasStatus);
      }
      delete next.metadata!.resourceVersion;
      return unchangedByUpdate(current, next) ? current : next;
    });
  });
}

/**
 * As upstream's BeforeUpdate: generation, creationTimestamp and selfLink are the stored object's; a uid, deletion
 * timestamp or grace period the writer leaves out is too, but one it names is kept for validation, which refuses a
 * change (a patch naming another uid is 422, as the kubelet's status writes rely on).
 */
function restoreServerFields(meta: ObjectMeta, stored: ObjectMeta): void {
  for (const f of ['generation', 'creationTimestamp', 'selfLink'] as const) copyField(meta, stored, f);
  if (!meta.uid) copyField(meta, stored, 'uid');
  if (stored.deletionTimestamp !== undefined || !meta.deletionTimestamp) copyField(meta, stored, 'deletionTimestamp');
  if (meta.deletionGracePeriodSeconds === undefined) copyField(meta, stored, 'deletionGracePeriodSeconds');
}

/** The metadata of a status update: the writer's (server-owned fields already restored), less what `keeps` names. */
function statusMetadata(keeps: Strategy['statusKeepsMetadata'], sent: ObjectMeta, stored: ObjectMeta): ObjectMeta {
  if (keeps === 'all') return { ...stored, managedFields: sent.managedFields ?? stored.managedFields };
  const out: ObjectMeta = { ...sent };
  for (const f of keeps ?? []) copyField(out, stored, f);
  return out;
}

/** `to[f]` becomes `from[f]`, absent when it is. */
function copyField(to: ObjectMeta, from: ObjectMeta, f: keyof ObjectMeta): void {
  if (from[f] === undefined) delete to[f];
  else (to as Record<string, unknown>)[f] = from[f];
}

/** Thrown out of an update whose object is to be deleted instead of written. */
const EMPTIED_FINALIZERS = new Error('emptied finalizers');

/**
 * An update that takes the last finalizer off an object being deleted (without a grace period left) deletes it instead
 * of writing it, as upstream's Store.Update: watchers see one DELETED (of the object as last stored), no MODIFIED.
 */
function finalized(reg: Registry, next: KubeObject, existing: KubeObject): boolean {
  const old = existing.metadata!;
  if (!old.deletionTimestamp || (old.deletionGracePeriodSeconds ?? 0) > 0) return false;
  return !(reg.strategy.hasPendingFinalizers ? reg.strategy.hasPendingFinalizers(next) : (next.metadata?.finalizers?.length ?? 0) > 0);
}

/** Deletes the finalized object if it is still at `revision`; the refusal when it changed or went meanwhile. */
async function deleteFinalized(reg: Registry, key: string, revision: number): Promise<StorageError | undefined> {
  try {
    const gone = await reg.deps.store.delete(key, { expectedRevision: revision });
    reg.strategy.afterDelete?.(gone.object);
    return undefined;
  } catch (err) {
    if (isStorageError(err, 'KeyNotFound') || isStorageError(err, 'Conflict')) return err;
    throw err;
  }
}
