// Validation shared by every resource: object metadata (upstream's ValidateObjectMeta),
// the schema's required fields, then the strategy's own rules.
import { refTo } from '../../../api/schema.js';
import type { KubeObject, ResourceType } from '../../../api/types.js';
import { fieldCause, type StatusCause } from '../../apimachinery/errors.js';
import { validateKubeFinalizerNames, validateObjectMeta, validateObjectMetaUpdate } from '../../apimachinery/objectmeta.js';
import type { RequestContext } from '../context.js';
import { missingRequired } from '../schema/required.js';
import type { Registry } from './registry.js';

/**
 * Whether upstream validates the kind's metadata with core's ValidateObjectMeta(Update), which adds the finalizer-name
 * rule, rather than apimachinery's generic one: every kind of k8s.io/api but admission registration's (custom
 * resources, CRDs and APIServices are outside it).
 */
const coreObjectMeta = (rt: ResourceType): boolean => rt.definition.startsWith('io.k8s.api.') && rt.group !== 'admissionregistration.k8s.io';

const kubeFinalizerNames = (reg: Registry, obj: KubeObject): StatusCause[] =>
  (coreObjectMeta(reg.rt) ? validateKubeFinalizerNames(obj.metadata?.finalizers, 'metadata.finalizers') : []);

export function validateMeta(reg: Registry, obj: KubeObject): StatusCause[] {
  return [...validateObjectMeta(obj.metadata, { namespaced: reg.rt.namespaced, nameFn: reg.strategy.nameFn }), ...kubeFinalizerNames(reg, obj)];
}

function validateSchemaRequired(reg: Registry, obj: KubeObject, old?: KubeObject): StatusCause[] {
  return missingRequired(reg.deps.decoder.index, obj, refTo(reg.rt.definition), old).map((f) => fieldCause('FieldValueRequired', f, 'Required value'));
}

/** The field a cause's field is in: `a.b[0].c` → `a.b[0]`, `a.b[0]` → `a.b`. */
const parentField = (field: string): string => field.replace(/(\.[^.[]+|\[[^\]]*\])$/, '');
/**
 * Where upstream's rules report a schema-required field under another name: a GCE disk's pdName at
 * `persistentDisk.pdName` (a pod volume's and a PersistentVolume's alike).
 */
const reportedAs = (field: string): string => field.replace(/\.gcePersistentDisk\.pdName$/, '.persistentDisk.pdName');

/**
 * The schema's required fields, less those the strategy's own rules already report at that field or at the one
 * that holds it, or at upstream's other name for it (reportedAs): those rules say it as upstream does ("type is
 * required when seccompProfile is set", `spec.schedulingGates[0]` for a gate without a name), and the bare "Required
 * value" would say it twice.
 */
function unlessReported(required: StatusCause[], own: StatusCause[]): StatusCause[] {
  if (!required.length || !own.length) return required;
  const reported = new Set(own.map((c) => c.field));
  return required.filter((c) => !reported.has(c.field) && !reported.has(parentField(c.field ?? '')) && !reported.has(reportedAs(c.field ?? '')));
}

export function validateForCreate(reg: Registry, obj: KubeObject, ctx: RequestContext): StatusCause[] {
  const own = reg.strategy.validate?.(obj, ctx) ?? [];
  return [...validateMeta(reg, obj), ...unlessReported(validateSchemaRequired(reg, obj), own), ...own];
}

/**
 * The strategy's rules guard the main resource; a subresource changes only what its own handler
 * allows (status, or spec.nodeName through pods/binding), so they do not apply there. Scale is the
 * exception: upstream writes it through the main resource's store, whose validation then runs whole
 * (a custom resource's schema maximum refuses `kubectl scale` past it).
 */
export function validateForUpdate(reg: Registry, obj: KubeObject, old: KubeObject, ctx: RequestContext, subresource?: string): StatusCause[] {
  const own: StatusCause[] = [];
  if (!subresource || subresource === 'scale') {
    if (!reg.strategy.updateValidationIsComplete) own.push(...(reg.strategy.validate?.(obj, ctx) ?? []));
    own.push(...(reg.strategy.validateUpdate?.(obj, old, ctx) ?? []));
  }
  else own.push(...(reg.strategy.validateSubresource?.(obj, old, ctx, subresource) ?? []));
  return [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...kubeFinalizerNames(reg, obj), ...unlessReported(validateSchemaRequired(reg, obj, old), own), ...own];
}
