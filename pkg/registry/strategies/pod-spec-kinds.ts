// Every built-in kind that carries a pod spec (a pod, the pod template of a workload) has the fields of gates off in
// 1.32 dropped from it, its pod-specific annotations checked (ValidatePodSpecificAnnotations: mirror, tolerations,
// deletion cost, seccomp, AppArmor), and it validated as upstream's ValidatePodSpec does, and, under
// --allow-privileged=false, refused privileged containers.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import type { Strategy } from '../strategy.js';
import { validateAppArmorAnnotationsMatchFields } from '../validation/pod-apparmor-annotations.js';
import { validateSeccompAnnotationsMatchFields } from '../validation/pod-seccomp-annotations.js';
import { validatePodAnnotationsOnUpdate, validatePodSpecificAnnotations } from '../validation/pod-specific-annotations.js';
import { validatePodSpec } from '../validation/pod-spec.js';
import { dropDisabledPodFields } from './pod-disabled-fields.js';
import { privilegedCauses } from './privileged.js';

/** Where each built-in kind keeps its pod spec (group/plural → path). */
const POD_SPEC_PATHS: Record<string, readonly string[]> = {
  '/pods': ['spec'],
  '/podtemplates': ['template', 'spec'],
  '/replicationcontrollers': ['spec', 'template', 'spec'],
  'apps/deployments': ['spec', 'template', 'spec'],
  'apps/replicasets': ['spec', 'template', 'spec'],
  'apps/daemonsets': ['spec', 'template', 'spec'],
  'apps/statefulsets': ['spec', 'template', 'spec'],
  'batch/jobs': ['spec', 'template', 'spec'],
  'batch/cronjobs': ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};

/**
 * Kinds whose pod spec upstream does not validate: a StatefulSet's template (its volumeMounts may name
 * volumeClaimTemplates) is checked only as statefulsets.ts does, and for its annotations.
 */
const UNCHECKED = new Set(['apps/statefulsets']);

const at = (obj: KubeObject, path: readonly string[]): KubeObject | undefined =>
  path.reduce<KubeObject | undefined>((o, k) => (o && typeof o === 'object' ? o[k] : undefined), obj);

/**
 * `base` with the pod spec's gated-off fields dropped and the spec checked on creates, updates and
 * pods/ephemeralcontainers; `base` itself for kinds without one.
 */
export function withPodSpecChecks(key: string, base: Strategy, allowPrivileged: boolean): Strategy {
  const path = POD_SPEC_PATHS[key];
  if (!path) return base;
  const field = path.join('.');
  const drop = (obj: KubeObject, old?: KubeObject): void => {
    const spec = at(obj, path);
    if (spec && typeof spec === 'object') dropDisabledPodFields(spec, old && at(old, path));
  };
  const prepared: Strategy = {
    ...base,
    prepareForCreate: (obj, ctx) => { base.prepareForCreate?.(obj, ctx); drop(obj); },
    prepareForUpdate: (obj, old, ctx) => { base.prepareForUpdate?.(obj, old, ctx); drop(obj, old); },
  };
  // the annotations of the object that holds the spec: a pod's own, a template's
  const annotationsPath = [...path.slice(0, -1), 'metadata', 'annotations'];
  const annotationsOf = (obj: KubeObject): KubeObject => {
    const annotations = at(obj, annotationsPath);
    return annotations && typeof annotations === 'object' ? annotations : {};
  };
  // an update may keep a pod-deletion-cost that was already invalid (GetValidationOptionsFromPodSpecAndMeta)
  const check = (obj: KubeObject, old?: KubeObject): StatusCause[] => {
    const spec = at(obj, path);
    if (!spec || typeof spec !== 'object') return [];
    const annotations = annotationsOf(obj);
    const causes = old
      ? validatePodAnnotationsOnUpdate(annotations, annotationsOf(old), spec, annotationsPath.join('.'))
      : validatePodSpecificAnnotations(annotations, spec, annotationsPath.join('.'), false);
    if (UNCHECKED.has(key)) return causes;
    causes.push(...validatePodSpec(spec, field));
    return allowPrivileged ? causes : [...causes, ...privilegedCauses(spec, field)];
  };
  // A new pod's seccomp, then AppArmor, annotations must say what its fields say, checked last as ValidatePodCreate
  // does (after PrepareForCreate has copied each AppArmor one to its field or back where one was missing).
  const onCreate = (obj: KubeObject): StatusCause[] => {
    const spec = at(obj, path);
    if (key !== '/pods' || !spec || typeof spec !== 'object') return [];
    const annotations = annotationsOf(obj);
    return [...validateSeccompAnnotationsMatchFields(annotations, spec, field), ...validateAppArmorAnnotationsMatchFields(annotations, spec, field)];
  };
  // An update's checks need the old object, so they stand alone here: where the kind's `validate` guarded updates
  // too, it runs first as it did.
  const strategy: Strategy = {
    ...prepared,
    validate: (obj, ctx) => [...(base.validate?.(obj, ctx) ?? []), ...check(obj), ...onCreate(obj)],
    updateValidationIsComplete: true,
    validateUpdate: (obj, old, ctx) => (base.updateValidationIsComplete
      ? [...(base.validateUpdate?.(obj, old, ctx) ?? []), ...check(obj, old)]
      : [...(base.validate?.(obj, ctx) ?? []), ...check(obj, old), ...(base.validateUpdate?.(obj, old, ctx) ?? [])]),
  };
  if (key === '/pods') {
    strategy.validateSubresource = (obj, old, ctx, subresource) => [
      ...(base.validateSubresource?.(obj, old, ctx, subresource) ?? []),
      ...(subresource === 'ephemeralcontainers' ? check(obj, old) : []),
    ];
  }
  return strategy;
}
