// PATCH: the four patch types become an UpdateRequest whose builder applies the patch to the
// current object (upstream: handlers/patch.go). The patched result is decoded like a body, so
// unknown fields, wrong types and defaults are handled exactly as for PUT; what does not decode is refused as
// upstream's patchers refuse it (a 422 on the field "patch", an apply's 500).
import type { KubeObject } from '../../../api/types.js';
import { refuseAppliedManagedFields } from '../../apimachinery/managedfields/apply.js';
import { badRequest, conflict, invalid, namespaceMismatch, notFound, StatusError } from '../../apimachinery/errors.js';
import { invalidValue } from '../../apimachinery/field.js';
import { appliedConfiguration } from '../../apimachinery/patch/decode.js';
import { applyJsonPatch } from '../../apimachinery/patch/json-patch.js';
import { applyMergePatch } from '../../apimachinery/patch/merge-patch.js';
import { applyStrategicMergePatch } from '../../apimachinery/patch/strategic-merge-patch.js';
import type { PatchType, RequestContext } from '../context.js';
import { decodeObject, targetOf } from './decode.js';
import type { Registry } from './registry.js';
import type { UpdateRequest } from './update.js';
import { cloneJson } from '../../apimachinery/json-clone.js';
import { reportApplyDuplicates } from './strict-errors.js';
import { appliedObjectName, checkTypedPatch } from './typed-patch.js';
import { goValue } from '../../apimachinery/go-format.js';
import { DecodeError } from '../schema/typecheck.js';
import type { FloatLiteral } from '../../apimachinery/float-literals.js';
import { patchedLiterals } from '../../apimachinery/patch/patched-literals.js';

export function patchBuilder(reg: Registry, ctx: RequestContext, name: string, type: PatchType, patch: unknown, force: boolean, subresource?: string): UpdateRequest {
  if (type === 'apply') return applyBuilder(reg, ctx, name, patch, force, subresource);
  return {
    name,
    subresource,
    build: (current) => {
      if (!current) throw notFound(reg.gr, name);
      // a strategic patch's errors quote the patch as Go prints its map, once applied (which took its directives)
      if (type === 'strategic') ctx.patchedValue = () => goValue(patch);
      if (type === 'merge' || (type === 'strategic' && onlyFields(patch))) return decodeNamed(reg, ctx, current, type, patch);
      if (type === 'json') {
        // a JSON patch's errors quote the object it made (upstream's patchedObjJS), made again from a copy of the
        // operations: the patched object holds their values, which decoding prunes
        const ops = cloneJson(patch);
        ctx.patchedValue = () => patchedJson(patchObject(reg, current, type, ops));
      }
      const patched = patchObject(reg, current, type, patch);
      return decodePatched(reg, ctx, type, patched, patchedLiterals(type, patch, patched));
    },
  };
}

/**
 * The patched object decoded (`floats`: the numbers the patch wrote with a fraction or an exponent, where they are in
 * it). One that does not decode is upstream's patchers' 422 on the field "patch" quoting what the patch made, with the
 * decoder's own words (jsonPatcher's DecodeInto, smpPatcher's FromUnstructured).
 */
function decodePatched(reg: Registry, ctx: RequestContext, type: PatchType, patched: KubeObject, floats: FloatLiteral[] | undefined): KubeObject {
  try {
    return decodeObject(reg.deps.decoder, patched, targetOf(reg.rt), ctx, floats);
  } catch (e) {
    refusePatched(e, () => ctx.patchedValue?.() ?? '', type === 'strategic');
  }
}

/**
 * Rethrows `e`, a DecodeError of what a patch made as upstream's patchers answer it: 422 on "patch", quoting that;
 * `converted`: the strategic patcher's object comes from the unstructured converter, which words some errors its way.
 */
export function refusePatched(e: unknown, patched: () => string, converted = false): never {
  if (e instanceof DecodeError) throw invalid('', '', '', [invalidValue('patch', patched(), converted ? e.converterError : e.decoderError)]);
  throw e;
}

/** The JSON json-patch writes of a patched document: its top level a Go map, so its keys sorted. */
export const patchedJson = (o: Record<string, unknown>): string => JSON.stringify(Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]])));

/** A strategic merge patch without a directive at its root changes only the top-level fields it names. */
const onlyFields = (patch: unknown): boolean =>
  typeof patch === 'object' && patch !== null && !Array.isArray(patch) && !Object.keys(patch).some((k) => k.startsWith('$'));

/**
 * A merge patch, and a strategic one without root directives, changes only the top-level fields it names: they
 * alone are patched (a copy of them) and decoded (pruned, type-checked, defaulted); the others are the stored
 * object's own, decoded when stored (a kubelet's status patch neither copies nor walks the pod's spec).
 */
function decodeNamed(reg: Registry, ctx: RequestContext, current: KubeObject, type: 'merge' | 'strategic', patch: unknown): KubeObject {
  const named = new Set(typeof patch === 'object' && patch !== null ? Object.keys(patch) : []);
  const takes = (k: string): boolean => named.has(k) || k === 'apiVersion' || k === 'kind';
  const base: Record<string, unknown> = {};
  for (const k of Object.keys(current)) if (takes(k)) base[k] = current[k];
  const part = patchObject(reg, base as KubeObject, type, patch) as Record<string, unknown>;
  // the whole patched object, made again (decoding prunes `part`; a merge patch leaves `patch` as it was)
  if (type === 'merge') ctx.patchedValue = () => patchedJson({ ...current, ...patchObject(reg, base as KubeObject, type, patch) });
  const decoded = decodePatched(reg, ctx, type, part as KubeObject, patchedLiterals(type, patch, part)) as Record<string, unknown>;
  // the stored key order, then whatever the patch or decoding added (a new or defaulted top-level field)
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(current)) {
    if (!takes(k)) out[k] = current[k];
    else if (k in decoded) out[k] = decoded[k];
  }
  for (const k of Object.keys(decoded)) if (!(k in out)) out[k] = decoded[k];
  return out as KubeObject;
}

export function patchObject(reg: Registry, current: KubeObject, type: Exclude<PatchType, 'apply'>, patch: unknown, definition = reg.rt.definition): KubeObject {
  switch (type) {
    case 'json':
      return applyJsonPatch(current, patch);
    case 'merge':
      return applyMergePatch(current, patch);
    case 'strategic':
      return applyStrategicMergePatch(current, patch, reg.deps.decoder.index.lookup, definition) as KubeObject;
  }
}

/** A patch of the autoscaling/v1 Scale view (kubectl scale sends a merge patch of spec.replicas). */
export function patchScale(reg: Registry, scale: KubeObject, type: Exclude<PatchType, 'apply'>, patch: unknown): KubeObject {
  return patchObject(reg, scale, type, patch, 'io.k8s.api.autoscaling.v1.Scale');
}

/** Server-side apply: the applied configuration is merged by the field manager, which owns conflicts. */
function applyBuilder(reg: Registry, ctx: RequestContext, name: string, patch: unknown, force: boolean, subresource: string | undefined): UpdateRequest {
  const applied = appliedConfiguration(patch) as KubeObject;
  // as upstream's versionCheckManager, the first step of an apply
  const gvk = groupVersionKindOf(applied);
  if (gvk !== `${reg.rt.group}/${reg.rt.version}, Kind=${reg.rt.kind}`) throw badRequest(`invalid object type: ${gvk}`);
  return {
    name,
    subresource,
    createIfMissing: true,
    managedFieldsSet: true,
    build: (current) => {
      // the field manager refuses managedFields before typing the configuration, which drops an empty list
      refuseAppliedManagedFields(applied);
      const config = cloneJson(applied);
      config.apiVersion = reg.apiVersion;
      checkTypedPatch(reg, applied, config);
      const keeps = reg.strategy.statusKeepsMetadata;
      const merged = reg.deps.fieldManager.apply(current, config, ctx, force, reg.hasStatus, subresource, keeps === 'all' ? undefined : keeps);
      reportApplyDuplicates(ctx);
      checkApplied(reg, ctx, name, applied, current);
      if (merged === current) return current; // a no-op apply: the stored object, already decoded
      try {
        // decoding prunes and defaults in place, and what the merge left untouched is the stored object's own
        const next = decodeObject(reg.deps.decoder, cloneJson(merged), targetOf(reg.rt), ctx);
        // an apply that creates is upstream's Store.Update, whose storage drops a resourceVersion (only Store.Create,
        // a POST's, refuses one)
        if (!current) delete next.metadata?.resourceVersion;
        return next;
      } catch (e) {
        // the field manager's conversion of what it merged to the typed object: a plain error upstream (a 500), here a
        // 400 with its words, the applied configuration being what does not convert
        if (!(e instanceof DecodeError)) throw e;
        const gvk = `${reg.rt.group}/${reg.rt.version}, Kind=${reg.rt.kind}`;
        throw badRequest(`failed to convert new object (${appliedObjectName(applied, reg.rt.group, reg.rt.kind)}) to proper version: unable to convert unstructured object to ${gvk}: ${e.converterError}`);
      }
    },
  };
}

/** An unstructured object's group, version and kind as Go prints them: all empty when its apiVersion does not parse. */
function groupVersionKindOf(obj: KubeObject): string {
  const apiVersion = typeof obj.apiVersion === 'string' && obj.apiVersion !== '/' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const parts = apiVersion.split('/');
  if (parts.length > 2) return '/, Kind=';
  const [group, version] = parts.length === 2 ? parts : ['', apiVersion];
  return `${group}/${version}, Kind=${kind}`;
}

/**
 * What upstream's patch handler checks of the object an apply made, in its order: a uid when there was nothing to
 * apply to, the namespace (on every apply, also one that changes nothing), then the name (the live object's when the
 * configuration has none).
 */
function checkApplied(reg: Registry, ctx: RequestContext, name: string, applied: KubeObject, current: KubeObject | undefined): void {
  const sent = applied.metadata ?? {};
  if (!current && sent.uid) {
    throw conflict(reg.gr, name, `uid mismatch: the provided object specified uid ${sent.uid}, and no existing object was found`);
  }
  if (reg.rt.namespaced && sent.namespace && sent.namespace !== ctx.namespace) throw namespaceMismatch();
  const objName = sent.name ?? current?.metadata?.name;
  if (!objName) throw badRequest(`the name of the object (${name} based on URL) was undeterminable: name must be provided`);
  if (objName !== name) throw badRequest(`the name of the object (${objName}) does not match the name on the URL (${name})`);
}
