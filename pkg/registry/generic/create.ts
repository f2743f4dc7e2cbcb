// Create (upstream: Store.Create + rest.BeforeCreate): decode, mutating admission, metadata the
// server owns, validation, validating admission, then one durable write.
import type { KubeObject } from '../../../api/types.js';
import { alreadyExists, badRequest, isStatusError, namespaceMismatch } from '../../apimachinery/errors.js';
import { isStorageError } from '../../storage/errors.js';
import type { RequestContext } from '../context.js';
import { newUid } from '../../apimachinery/meta.js';
import { rfc3339 } from '../meta.js';
import { toApiError } from '../storage-errors.js';
import { decodeObject, targetOf, writeZeroValues } from './decode.js';
import type { Registry, Result } from './registry.js';
import { validateForCreate } from './validate.js';
import { generateName } from '../../apimachinery/names.js';

/** How many times a generateName collision is retried with a fresh suffix before giving up. */
const GENERATE_NAME_ATTEMPTS = 8;

export async function create(reg: Registry, ctx: RequestContext, body: unknown, opts: { managedFieldsSet?: boolean } = {}): Promise<Result> {
  const obj = decodeObject(reg.deps.decoder, body, targetOf(reg.rt), ctx);
  checkNamespace(reg, ctx, obj);
  if (obj.metadata!.resourceVersion) throw badRequest('resourceVersion should not be set on objects to be created');
  // The writer owns what it sent, defaults included; not what admission and the server add after (upstream's
  // handler updates managed fields before mutating admission: a pod's service-account volume is nobody's).
  if (!opts.managedFieldsSet) reg.deps.fieldManager.update(undefined, obj, ctx, undefined, reg.hasStatus);
  // Mutating admission sees the object as sent, before the name is generated (upstream's handler admits, then
  // rest.BeforeCreate generates it), so a webhook may still name it; validating admission sees the generated name.
  const mutating = reg.admission('mutate', 'CREATE', ctx, obj, undefined, obj.metadata!.name ?? '');
  if (mutating) await mutating;
  // admission may have replaced the metadata object
  const meta = obj.metadata!;
  const named = Boolean(meta.name);
  if (!named && meta.generateName) meta.name = generateName(meta.generateName);
  prepareForCreate(reg, ctx, obj);
  const causes = validateForCreate(reg, obj, ctx);
  if (causes.length) throw reg.invalid(meta.name ?? '', causes);
  // as upstream's BeforeCreate: once valid, before validating admission (whose warnings come after)
  const warnings = reg.strategy.warningsOnCreate?.(obj, ctx);
  if (warnings) ctx.warnings.push(...warnings);
  const validating = reg.admission('validate', 'CREATE', ctx, obj, undefined, meta.name ?? '');
  if (validating) await validating;
  // awaited only when it waits: a strategy's hook is mostly absent or synchronous. A dry run runs it too (upstream's
  // BeginCreate): a Service allocates from allocators that keep nothing, and answers what a real create would.
  const preparing = reg.strategy.beforeCreate?.(obj, ctx);
  if (preparing) await preparing;
  if (ctx.dryRun) {
    // Nothing is stored, but the answer is the one the write would give (upstream: DryRunnableStorage.Create).
    const existing = await reg.get(ctx, meta.name!).catch((e: unknown) => (isStatusError(e) && e.code === 404 ? undefined : Promise.reject(e)));
    if (existing) throw alreadyExists(reg.gr, meta.name!);
    return { object: obj };
  }
  ctx.deadline?.check();
  for (let attempt = 1; ; attempt++) {
    // obj.metadata, not `meta`: admission and the field manager may have replaced the metadata object since
    // (a retry that renamed the old one stored the object under a key that was not its name)
    const m = obj.metadata!;
    try {
      // the stored KeyValue itself: its object is parsed again only if a response needs more than its bytes
      return await reg.deps.store.create(reg.key(ctx.namespace, m.name!), obj);
    } catch (err) {
      if (!named && m.generateName && isStorageError(err, 'KeyExists') && attempt < GENERATE_NAME_ATTEMPTS) {
        m.name = generateName(m.generateName);
        continue;
      }
      reg.strategy.afterDelete?.(obj);
      throw isStatusError(err) ? err : toApiError(err, reg.gr, m.name!);
    }
  }
}

/** The namespace in the body must match the URL's; an absent one is taken from the URL. */
export function checkNamespace(reg: Registry, ctx: RequestContext, obj: KubeObject): void {
  const meta = (obj.metadata ??= {});
  if (!reg.rt.namespaced) {
    delete meta.namespace;
    return;
  }
  if (meta.namespace && meta.namespace !== ctx.namespace) throw namespaceMismatch();
  meta.namespace = ctx.namespace;
}

function prepareForCreate(reg: Registry, ctx: RequestContext, obj: KubeObject): void {
  const meta = obj.metadata!;
  meta.uid = newUid();
  meta.creationTimestamp = rfc3339(ctx.now);
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  if (reg.strategy.generation) meta.generation = 1;
  else delete meta.generation;
  const resetStatus = reg.hasStatus && !reg.strategy.keepStatusOnCreate;
  if (resetStatus) delete obj.status;
  reg.strategy.prepareForCreate?.(obj, ctx);
  // the status just reset is Go's zero status again (`status: {}`, a ReplicaSet's `{replicas: 0}`), and what the
  // strategy cleared is Go's zero value too; decoding wrote them for the rest
  if (resetStatus || reg.strategy.prepareForCreate) writeZeroValues(reg.deps.decoder, obj, reg.rt.definition);
}
