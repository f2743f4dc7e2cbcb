// The scale subresource: an autoscaling/v1 Scale view of spec.replicas and the selector, what
// `kubectl scale` and autoscalers read and write (upstream: registry/apps/deployment ScaleREST).
import { groupVersion as autoscalingV1 } from '../../../api/autoscaling/v1/index.js';
import { definitions as metaDefinitions } from '../../../api/meta/v1/index.js';
import type { KubeObject } from '../../../api/types.js';
import { decodeEntries, encodeEntries, entryHas, sameManager, type Entry } from '../../apimachinery/managedfields/entries.js';
import { difference, fieldPE, pathKey } from '../../apimachinery/managedfields/fieldpath.js';
import { badRequest, invalid, namespaceMismatch } from '../../apimachinery/errors.js';
import { labelSelectorAsSelector } from '../../apimachinery/labels.js';
import { appliedConfiguration } from '../../apimachinery/patch/decode.js';
import type { PatchType, RequestContext } from '../../registry/context.js';
import { decodeAs, decodeObject, type Decoder } from '../../registry/generic/decode.js';
import { SchemaIndex } from '../../registry/schema/index.js';
import { TypeChecker } from '../../registry/schema/typecheck.js';
import type { Registry } from '../../registry/generic/registry.js';
import { patchedJson, patchScale, refusePatched } from '../../registry/generic/patch.js';
import type { FloatLiteral } from '../../apimachinery/float-literals.js';
import { patchedLiterals } from '../../apimachinery/patch/patched-literals.js';
import type { UpdateRequest } from '../../registry/generic/update.js';
import type { FieldManager } from '../../registry/generic/field-manager.js';
import { createFieldManager } from '../../registry/generic/managed-fields.js';
import { cloneJson } from '../../apimachinery/json-clone.js';

export function getScale(reg: Registry, obj: KubeObject): KubeObject {
  if (reg.strategy.scale) return reg.strategy.scale.get(obj);
  const m = obj.metadata ?? {};
  const selector = obj.spec?.selector;
  // replicationcontrollers keep a plain map selector; the apps kinds a LabelSelector.
  const selectorString = reg.rt.group === '' ? Object.entries(selector ?? {}).map(([k, v]) => `${k}=${String(v)}`).join(',') : labelSelectorAsSelector(selector).toString();
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
    // ScaleSpec's replicas is omitempty: none when zero, as Go writes it
    spec: obj.spec?.replicas ? { replicas: obj.spec.replicas } : {},
    status: { replicas: obj.status?.replicas ?? 0, selector: selectorString },
  };
}

const SCALE = { group: 'autoscaling', version: 'v1', kind: 'Scale', definition: 'io.k8s.api.autoscaling.v1.Scale' };
let scaleDecoder: Decoder | undefined;
let scaleFieldManager: FieldManager | undefined;

const newScaleDecoder = (): Decoder => {
  const index = new SchemaIndex({ ...metaDefinitions, ...autoscalingV1.definitions });
  return { index, types: new TypeChecker(index) };
};

/**
 * A PUT's Scale as upstream's decoder reads it, whatever kind is scaled (a custom resource's too): JSON types
 * checked, unknown and repeated fields reported per fieldValidation ("Scale in version "v1" cannot be handled as a
 * Scale: strict decoding error: ...").
 */
export function decodeScale(body: unknown, ctx: RequestContext): KubeObject {
  scaleDecoder ??= newScaleDecoder();
  return decodeObject(scaleDecoder, body, SCALE, ctx);
}

/**
 * The Scale a JSON or merge patch made, read again by the decoder as upstream's jsonPatcher does (an integer field
 * refuses the patch's 2.0, as a string): what does not decode is the patch's 422.
 */
function decodePatchedScale(scale: KubeObject, floats: FloatLiteral[] | undefined): void {
  scaleDecoder ??= newScaleDecoder();
  const patched = patchedJson(scale);
  try {
    decodeAs(scaleDecoder, scale, SCALE.definition, SCALE.kind, SCALE.version, undefined, floats);
  } catch (e) {
    refusePatched(e, () => patched);
  }
}

/**
 * The Scale a PUT sent, or a patch or an apply made, names the object of the URL: upstream's update and patch handlers
 * check every object they are handed so (EnsureObjectNamespaceMatchesRequestNamespace, then checkName), a Scale too.
 */
function checkScaleNames(reg: Registry, ctx: RequestContext, name: string, scale: KubeObject): void {
  const meta = scale?.metadata ?? {};
  if (reg.rt.namespaced && meta.namespace && meta.namespace !== ctx.namespace) throw namespaceMismatch();
  if ((meta.name ?? '') !== name) throw badRequest(`the name of the object (${meta.name ?? ''}) does not match the name on the URL (${name})`);
}

/** The object with the replicas of a Scale (none is Go's zero), checked as upstream's ValidateScale does. */
function withReplicas(reg: Registry, name: string, obj: KubeObject, scale: KubeObject): KubeObject {
  const replicas: unknown = scale?.spec?.replicas ?? 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas)) throw badRequest('Scale.spec.replicas: must be an integer');
  // upstream's scale storages name the Scale, whichever kind it scales
  if (replicas < 0) throw invalid('autoscaling', 'Scale', name, [{ reason: 'FieldValueInvalid', field: 'spec.replicas', message: `Invalid value: ${replicas}: must be greater than or equal to 0` }]);
  if (reg.strategy.scale) return reg.strategy.scale.set(obj, replicas);
  const next = cloneJson(obj);
  next.spec = { ...next.spec, replicas };
  return next;
}

/**
 * PUT or PATCH of a Scale: its spec.replicas goes to the object; a resourceVersion in it is a precondition.
 * Admission sees what upstream's does: an UPDATE of <resource>/scale whose objects are the new and old Scale.
 */
export function scaleUpdate(reg: Registry, ctx: RequestContext, name: string, body: unknown, patchType: PatchType | undefined, force = false): UpdateRequest {
  return {
    name,
    subresource: 'scale',
    managedFieldsSet: patchType === 'apply',
    // upstream's Scale carries only the managers of the replicas (ScaleHandler.ToSubresource); with none, its field
    // manager's skipNonApplied leaves the write unrecorded, so a later apply of the replicas conflicts with nobody
    tracks: (current) => ownsReplicas(reg, current),
    build: (current) => {
      let next: KubeObject;
      let scale: KubeObject;
      if (patchType === 'apply') {
        ({ next, scale } = applyScale(reg, ctx, current!, body, force));
      } else {
        scale = patchType ? patchScale(reg, getScale(reg, current!), patchType, body) : (body as KubeObject);
        if (patchType === 'json' || patchType === 'merge') decodePatchedScale(scale, patchedLiterals(patchType, body, scale));
        checkScaleNames(reg, ctx, name, scale);
        next = withReplicas(reg, name, current!, scale);
      }
      // none in the Scale: the write is unconditional, as upstream's (a CR's keeps the live resourceVersion)
      next.metadata = { ...next.metadata, resourceVersion: scale.metadata?.resourceVersion || current!.metadata?.resourceVersion };
      return next;
    },
    admissionView: { to: (obj) => getScale(reg, obj), from: (scale, obj) => withReplicas(reg, name, obj, scale) },
  };
}

/** The replicas' field in a Scale's managed fields, and in the scaled object's (its replicasPath). */
const SCALE_REPLICAS = pathKey([fieldPE('spec'), fieldPE('replicas')]);
const replicasKey = (reg: Registry): string => pathKey((reg.strategy.scale?.replicasPath ?? ['spec', 'replicas']).map(fieldPE));

/** Whether some manager of the object owns its replicas: the Scale view has managed fields. */
const ownsReplicas = (reg: Registry, obj: KubeObject): boolean => {
  const key = replicasKey(reg);
  return decodeEntries(obj.metadata?.managedFields, true).some((e) => entryHas(e, key));
};

/**
 * Server-side apply of a Scale, as upstream's ScaleHandler: the object's managers of its replicas become the
 * Scale's managers of spec.replicas, the applied Scale is merged (conflicts and all) by the field manager, and its
 * managers of spec.replicas go back onto the object's replicas, taking them from whoever lost them.
 */
function applyScale(reg: Registry, ctx: RequestContext, current: KubeObject, body: unknown, force: boolean): { next: KubeObject; scale: KubeObject } {
  const applied = appliedConfiguration(body) as KubeObject;
  if (applied.apiVersion !== 'autoscaling/v1' || applied.kind !== 'Scale') {
    const [group, version] = String(applied.apiVersion ?? '').includes('/') ? String(applied.apiVersion).split('/') : ['', String(applied.apiVersion ?? '')];
    throw badRequest(`invalid object type: ${group}/${version}, Kind=${String(applied.kind ?? '')}`);
  }
  const key = replicasKey(reg);
  const parent = decodeEntries(current.metadata?.managedFields);
  const live = getScale(reg, current);
  const asScale = parent.filter((e) => e.set.has(key)).map((e): Entry => ({ ...e, apiVersion: 'autoscaling/v1', set: new Set([SCALE_REPLICAS]) }));
  live.metadata = { ...live.metadata, managedFields: encodeEntries(asScale) };
  scaleDecoder ??= newScaleDecoder();
  scaleFieldManager ??= createFieldManager(scaleDecoder.index);
  const scale = scaleFieldManager.apply(live, cloneJson(applied), ctx, force, false, 'scale');
  checkScaleNames(reg, ctx, current.metadata!.name!, scale);
  // a Scale's entry is the object's entry of that manager (same identity, in the object's apiVersion)
  const scaleEntries = decodeEntries(scale.metadata?.managedFields).filter((e) => e.set.has(SCALE_REPLICAS))
    .map((e): Entry => ({ ...e, apiVersion: current.apiVersion ?? '', set: new Set([key]) }));
  const entries = parent.map((e): Entry => (!e.set.has(key) || scaleEntries.some((s) => sameManager(s, e)) ? e : { ...e, set: difference(e.set, new Set([key])) }));
  for (const s of scaleEntries) {
    const at = entries.findIndex((e) => sameManager(e, s));
    if (at === -1) entries.push(s);
    else entries[at] = { ...s, time: s.manager === ctx.fieldManager ? s.time : entries[at]!.time };
  }
  const next = withReplicas(reg, current.metadata!.name!, current, scale);
  next.metadata = { ...next.metadata, managedFields: encodeEntries(entries) };
  return { next, scale };
}
