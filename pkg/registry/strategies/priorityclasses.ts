// PriorityClasses (upstream: pkg/apis/scheduling/validation): a name with the system- prefix must be one of the
// built-in system classes with its value and globalDefault; any other class's value is at most 1000000000; the
// preemption policy is PreemptLowerPriority or Never; value and preemption policy never change; the system classes
// cannot be deleted one by one (a DeleteCollection takes them, as upstream's).
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden as forbiddenError } from '../../apimachinery/errors.js';
import { forbidden, invalidValue, notSupported, required } from '../../apimachinery/field.js';
import type { Strategy } from '../strategy.js';

const SYSTEM_PREFIX = 'system-';
const HIGHEST_USER_DEFINABLE_PRIORITY = 1000000000;
/** schedulingapiv1.SystemPriorityClasses(): name -> value (neither is the global default). */
const SYSTEM_CLASSES: ReadonlyMap<string, number> = new Map([['system-node-critical', 2000001000], ['system-cluster-critical', 2000000000]]);
const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];

/** IsKnownSystemPriorityClass's error, or undefined when the class is one of them. */
function systemClassError(name: string, value: unknown, globalDefault: unknown): string | undefined {
  const want = SYSTEM_CLASSES.get(name);
  if (want === undefined) return `${name} is not a known system priority class`;
  if ((value ?? 0) !== want) return `value of ${name} PriorityClass must be ${want}`;
  if ((globalDefault ?? false) !== false) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}

export const priorityClassStrategy: Strategy = {
  validate(pc) {
    const causes: StatusCause[] = [];
    const name = String(pc.metadata?.name ?? '');
    if (name.startsWith(SYSTEM_PREFIX)) {
      const err = systemClassError(name, pc.value, pc.globalDefault);
      if (err) causes.push(forbidden('metadata.name', `priority class names with '${SYSTEM_PREFIX}' prefix are reserved for system use only. error: ${err}`));
    } else if (typeof pc.value === 'number' && pc.value > HIGHEST_USER_DEFINABLE_PRIORITY) {
      causes.push(forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
    }
    const policy = pc.preemptionPolicy;
    if (policy !== undefined && policy !== null) {
      if (policy === '') causes.push(required('preemptionPolicy'));
      else if (!PREEMPTION_POLICIES.includes(policy)) causes.push(notSupported('preemptionPolicy', policy, PREEMPTION_POLICIES));
    }
    return causes;
  },
  refuseDelete(name) {
    if (SYSTEM_CLASSES.has(name)) {
      throw forbiddenError(`priorityclasses.scheduling.k8s.io "${name}" is forbidden: this is a system priority class and cannot be deleted`,
        { name, group: 'scheduling.k8s.io', kind: 'priorityclasses' });
    }
  },
  // upstream's ValidatePriorityClassUpdate checks only what may not change
  updateValidationIsComplete: true,
  validateUpdate(pc, old) {
    const causes: StatusCause[] = [];
    if ((pc.value ?? 0) !== (old.value ?? 0)) causes.push(forbidden('value', 'may not be changed in an update.'));
    if ((pc.preemptionPolicy ?? null) !== (old.preemptionPolicy ?? null)) causes.push(invalidValue('preemptionPolicy', pc.preemptionPolicy ?? null, 'field is immutable'));
    return causes;
  },
};
