// PATCH: the four patch types become an UpdateRequest whose builder applies the patch to the
// current object (upstream: handlers/patch.go). The patched result is decoded like a body, so
// unknown fields, wrong types and defaults are handled exactly as for PUT.
import type { KubeObject } from '../../../api/types.js';
import { badRequest, notFound, StatusError } from '../../apimachinery/errors.js';
import { applyJsonPatch } from '../../apimachinery/patch/json-patch.js';
import { applyMergePatch } from '../../apimachinery/patch/merge-patch.js';
import { applyStrategicMergePatch } from '../../apimachinery/patch/strategic-merge-patch.js';
import type { PatchType, RequestContext } from '../context.js';
import { decodeObject, reportUnknown, targetOf } from './decode.js';
import type { Registry } from './registry.js';
import type { UpdateRequest } from './update.js';
import { ref } from '../../../api/schema.js';
import { pruneUnknown } from '../schema/prune.js';

export function patchBuilder(reg: Registry, ctx: RequestContext, name: string, type: PatchType, patch: unknown, force: boolean, subresource?: string): UpdateRequest {
  if (type === 'apply') return applyBuilder(reg, ctx, name, patch, force, subresource);
  if (force) throw badRequest('force: Forbidden: may not be specified for non-apply patch');
  if (type === 'strategic' && reg.strategy.strategicMergePatch === false) {
    throw new StatusError(415, 'UnsupportedMediaType', 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml');
  }
  return {
    name,
    subresource,
    build: (current) => {
      if (!current) throw notFound(reg.gr, name);
      // json and strategic patches copy the object; a merge patch copies only the objects on the paths it names and
      // shares the rest with the stored object. Decoding (which defaults and prunes in place) leaves shared parts
      // as they are, since they were decoded when stored; metadata is copied because the update writes into it.
      const patched = patchObject(reg, type === 'merge' ? { ...current, metadata: { ...current.metadata } } : current, type, patch);
      return decodeObject(reg.deps.decoder, patched, targetOf(reg.rt), ctx);
    },
  };
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
export function patchScale(reg: Registry, scale: KubeObject, type: PatchType, patch: unknown): KubeObject {
  if (type === 'apply') throw badRequest('server-side apply of the scale subresource is not supported; use a merge patch');
  return patchObject(reg, scale, type, patch, 'io.k8s.api.autoscaling.v1.Scale');
}

/** Server-side apply: the applied configuration is merged by the field manager, which owns conflicts. */
function applyBuilder(reg: Registry, ctx: RequestContext, name: string, patch: unknown, force: boolean, subresource: string | undefined): UpdateRequest {
  if (!ctx.fieldManager || ctx.fieldManager === 'unknown') throw badRequest('PATCH, application/apply-patch+yaml requires fieldManager to be set');
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) throw badRequest('error decoding YAML: the applied configuration must be an object');
  const applied = patch as KubeObject;
  if (!applied.apiVersion) throw badRequest('apiVersion must be set in the applied configuration');
  if (!applied.kind) throw badRequest('kind must be set in the applied configuration');
  if (applied.apiVersion !== reg.apiVersion || applied.kind !== reg.rt.kind) {
    throw badRequest(`the applied configuration is a ${String(applied.kind)} of ${String(applied.apiVersion)}, not a ${reg.rt.kind} of ${reg.apiVersion}`);
  }
  if (applied.metadata?.name !== undefined && applied.metadata.name !== name) {
    throw badRequest(`the name of the object (${applied.metadata.name}) does not match the name on the URL (${name})`);
  }
  return {
    name,
    subresource,
    createIfMissing: true,
    managedFieldsSet: true,
    build: (current) => {
      const config = structuredClone(applied);
      reportUnknown(pruneUnknown(reg.deps.decoder.index, config, ref(reg.rt.definition)), ctx);
      const merged = reg.deps.fieldManager.apply(current, config, ctx, force, reg.hasStatus, subresource);
      if (merged === current) return current; // a no-op apply: the stored object, already decoded
      const out = decodeObject(reg.deps.decoder, merged, targetOf(reg.rt), ctx);
      if (!current) out.metadata = { ...out.metadata, name };
      return out;
    },
  };
}
