// PodDisruptionBudgets: upstream's ValidatePodDisruptionBudgetSpec (pkg/apis/policy/validation): minAvailable and
// maxUnavailable exclude each other, each a non-negative count or a percentage of at most 100%, the selector valid,
// unhealthyPodEvictionPolicy one of its values. An update may keep the invalid label values its stored selector has
// (upstream's AllowInvalidLabelValueInSelector); status writes are not checked here.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { notSupported } from '../../apimachinery/field.js';
import { type LabelSelector, validateLabelSelector } from '../../apimachinery/labels.js';
import type { Strategy } from '../strategy.js';
import { goPointer, goStruct, invalidRendered } from '../validation/go-values.js';
import { notMoreThan100Percent, validatePositiveIntOrPercent } from '../validation/int-or-percent.js';
import { asObj } from '../validation/field-checks.js';

type Obj = Record<string, any>;

const present = (v: unknown): boolean => v !== undefined && v !== null;

const UNHEALTHY_POD_EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];

/** A label value error inside a selector's matchExpressions (what AllowInvalidLabelValueInSelector lets through). */
const SELECTOR_VALUE_FIELD = /\.matchExpressions\[\d+\]\.values\[\d+\]$/;

/** Causes less the selectors' label value errors, when `allow` (the stored object's selector was already invalid). */
export const allowingInvalidSelectorValues = (causes: StatusCause[], allow: boolean): StatusCause[] =>
  (allow ? causes.filter((c) => !SELECTOR_VALUE_FIELD.test(c.field ?? '')) : causes);

/** %#v of the internal policy.PodDisruptionBudgetSpec: its pointers as nil or an address. */
const goSpec = (spec: Obj): string => goStruct('policy.PodDisruptionBudgetSpec', [
  ['MinAvailable', goPointer('intstr.IntOrString', present(spec.minAvailable))],
  ['Selector', goPointer('v1.LabelSelector', present(spec.selector))],
  ['MaxUnavailable', goPointer('intstr.IntOrString', present(spec.maxUnavailable))],
  ['UnhealthyPodEvictionPolicy', goPointer('policy.UnhealthyPodEvictionPolicyType', present(spec.unhealthyPodEvictionPolicy))],
]);

export function validatePodDisruptionBudgetSpec(obj: KubeObject, allowInvalidLabelValueInSelector = false): StatusCause[] {
  const spec = asObj(obj.spec) ?? {};
  const causes: StatusCause[] = [];
  if (present(spec.minAvailable) && present(spec.maxUnavailable)) {
    causes.push(invalidRendered('spec', goSpec(spec), 'minAvailable and maxUnavailable cannot be both set'));
  }
  for (const name of ['minAvailable', 'maxUnavailable']) {
    if (!present(spec[name])) continue;
    causes.push(...validatePositiveIntOrPercent(spec[name], `spec.${name}`), ...notMoreThan100Percent(spec[name], `spec.${name}`));
  }
  causes.push(...allowingInvalidSelectorValues(validateLabelSelector(asObj(spec.selector) as LabelSelector | undefined, 'spec.selector'), allowInvalidLabelValueInSelector));
  if (present(spec.unhealthyPodEvictionPolicy) && !UNHEALTHY_POD_EVICTION_POLICIES.includes(spec.unhealthyPodEvictionPolicy)) {
    causes.push(notSupported('spec.unhealthyPodEvictionPolicy', spec.unhealthyPodEvictionPolicy, UNHEALTHY_POD_EVICTION_POLICIES));
  }
  return causes;
}

/** Upstream's hasInvalidLabelValueInLabelSelector: the stored selector fails validation at all. */
const storedSelectorInvalid = (old: KubeObject): boolean =>
  validateLabelSelector(asObj(old.spec?.selector) as LabelSelector | undefined, 'spec.selector').length > 0;

export const podDisruptionBudgetStrategy: Strategy = {
  validate: (obj) => validatePodDisruptionBudgetSpec(obj),
  validateUpdate: (obj, old) => validatePodDisruptionBudgetSpec(obj, storedSelectorInvalid(old)),
  updateValidationIsComplete: true,
};
