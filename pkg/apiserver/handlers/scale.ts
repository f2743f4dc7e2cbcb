// The scale subresource: an autoscaling/v1 Scale view of spec.replicas and the selector, what
// `kubectl scale` and autoscalers read and write (upstream: registry/apps/deployment ScaleREST).
import { groupVersion as autoscalingV1 } from '../../../api/autoscaling/v1/index.js';
import { definitions as metaDefinitions } from '../../../api/meta/v1/index.js';
import type { KubeObject } from '../../../api/types.js';
import { badRequest, invalid } from '../../apimachinery/errors.js';
import { labelSelectorAsSelector } from '../../apimachinery/labels.js';
import type { PatchType, RequestContext } from '../../registry/context.js';
import { decodeObject, type Decoder } from '../../registry/generic/decode.js';
import { SchemaIndex } from '../../registry/schema/index.js';
import { TypeChecker } from '../../registry/schema/typecheck.js';
import type { Registry } from '../../registry/generic/registry.js';
import { patchScale } from '../../registry/generic/patch.js';
import type { UpdateRequest } from '../../registry/generic/update.js';
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

/**
 * A PUT's Scale as upstream's decoder reads it, whatever kind is scaled (a custom resource's too): JSON types
 * checked, unknown and repeated fields reported per fieldValidation ("Scale in version "v1" cannot be handled as a
 * Scale: strict decoding error: ...").
 */
export function decodeScale(body: unknown, ctx: RequestContext): KubeObject {
  if (!scaleDecoder) {
    const index = new SchemaIndex({ ...metaDefinitions, ...autoscalingV1.definitions });
    scaleDecoder = { index, types: new TypeChecker(index) };
  }
  return decodeObject(scaleDecoder, body, SCALE, ctx);
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
export function scaleUpdate(reg: Registry, name: string, body: unknown, patchType: PatchType | undefined): UpdateRequest {
  return {
    name,
    subresource: 'scale',
    build: (current) => {
      const scale = patchType ? patchScale(reg, getScale(reg, current!), patchType, body) : (body as KubeObject);
      const next = withReplicas(reg, name, current!, scale);
      // none in the Scale: the write is unconditional, as upstream's (a CR's keeps the live resourceVersion)
      next.metadata = { ...next.metadata, resourceVersion: scale.metadata?.resourceVersion || current!.metadata?.resourceVersion };
      return next;
    },
    admissionView: { to: (obj) => getScale(reg, obj), from: (scale, obj) => withReplicas(reg, name, obj, scale) },
  };
}
