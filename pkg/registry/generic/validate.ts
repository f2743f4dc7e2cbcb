// Validation shared by every resource: object metadata (upstream's ValidateObjectMeta),
// the schema's required fields, then the strategy's own rules.
import { refTo } from '../../../api/schema.js';
import type { KubeObject } from '../../../api/types.js';
import { fieldCause, type StatusCause } from '../../apimachinery/errors.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../apimachinery/objectmeta.js';
import type { RequestContext } from '../context.js';
import { missingRequired } from '../schema/required.js';
import type { Registry } from './registry.js';

export function validateMeta(reg: Registry, obj: KubeObject): StatusCause[] {
  return validateObjectMeta(obj.metadata, { namespaced: reg.rt.namespaced, nameFn: reg.strategy.nameFn });
}

function validateSchemaRequired(reg: Registry, obj: KubeObject, old?: KubeObject): StatusCause[] {
  return missingRequired(reg.deps.decoder.index, obj, refTo(reg.rt.definition), old).map((f) => fieldCause('FieldValueRequired', f, 'Required value'));
}

export function validateForCreate(reg: Registry, obj: KubeObject, ctx: RequestContext): StatusCause[] {
  return [...validateMeta(reg, obj), ...validateSchemaRequired(reg, obj), ...(reg.strategy.validate?.(obj, ctx) ?? [])];
}

/**
 * The strategy's rules guard the main resource; a subresource changes only what its own handler
 * allows (status, or spec.nodeName through pods/binding), so they do not apply there. Scale is the
 * exception: upstream writes it through the main resource's store, whose validation then runs whole
 * (a custom resource's schema maximum refuses `kubectl scale` past it).
 */
export function validateForUpdate(reg: Registry, obj: KubeObject, old: KubeObject, ctx: RequestContext, subresource?: string): StatusCause[] {
  const causes = [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...validateSchemaRequired(reg, obj, old)];
  if (!subresource || subresource === 'scale') {
    if (!reg.strategy.updateValidationIsComplete) causes.push(...(reg.strategy.validate?.(obj, ctx) ?? []));
    causes.push(...(reg.strategy.validateUpdate?.(obj, old, ctx) ?? []));
  }
  else causes.push(...(reg.strategy.validateSubresource?.(obj, old, ctx, subresource) ?? []));
  return causes;
}
