// The annotations upstream 1.32 validates on every write of a pod or a pod template (ValidatePodSpecificAnnotations),
// in its order: a mirror pod's must come with spec.nodeName, the deprecated tolerations annotation must hold valid
// tolerations as JSON, the pod-deletion-cost must be an int32 (unless an update keeps one that already was not),
// then the seccomp and AppArmor annotations (pod-seccomp-annotations.ts, pod-apparmor-annotations.ts).
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue } from '../../apimachinery/field.js';
import { goSyntaxError } from '../../apimachinery/go-json-syntax.js';
import { validateAppArmorPodAnnotations } from './pod-apparmor-annotations.js';
import { validateSeccompPodAnnotations } from './pod-seccomp-annotations.js';
import { validateTolerations } from './tolerations.js';

const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
const TOLERATIONS_ANNOTATION = 'scheduler.alpha.kubernetes.io/tolerations';
const POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

/** GetDeletionCostFromPodAnnotations succeeds: absent, or a decimal int32 without '+' or leading zeros. */
export function isValidPodDeletionCost(annotations: Record<string, unknown>): boolean {
  if (!Object.hasOwn(annotations, POD_DELETION_COST)) return true;
  const value = String(annotations[POD_DELETION_COST]);
  if (!/^(-\d+|0|[1-9]\d*)$/.test(value)) return false;
  const n = Number(value);
  return n >= -(2 ** 31) && n < 2 ** 31;
}

/** The Go types of core.Toleration's fields, by JSON name (encoding/json matches names case-insensitively). */
const TOLERATION_FIELDS: Record<string, string> = {
  key: 'string', operator: 'core.TolerationOperator', value: 'string', effect: 'core.TaintEffect', tolerationSeconds: 'int64',
};

const jsonType = (v: unknown): string => (Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v === 'boolean' ? 'bool' : typeof v);

/** encoding/json's first error decoding `v` into a core.Toleration's field `name`, if any. */
function fieldError(name: string, v: unknown): string | undefined {
  const type = TOLERATION_FIELDS[name]!;
  const at = `Go struct field Toleration.${name} of type ${type}`;
  if (v === null) return undefined;
  if (type !== 'int64') return typeof v === 'string' ? undefined : `json: cannot unmarshal ${jsonType(v)} into ${at}`;
  if (typeof v !== 'number') return `json: cannot unmarshal ${jsonType(v)} into ${at}`;
  return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? undefined : `json: cannot unmarshal number ${String(v)} into ${at}`;
}

/** GetTolerationsFromPodAnnotations: json.Unmarshal into []core.Toleration, with the error Go reports first. */
function decodeTolerations(text: string): { tolerations?: unknown[]; error?: string } {
  const syntax = goSyntaxError(text);
  if (syntax) return { error: syntax };
  const parsed: unknown = JSON.parse(text);
  if (parsed === null) return { tolerations: [] };
  if (!Array.isArray(parsed)) return { error: `json: cannot unmarshal ${jsonType(parsed)} into Go value of type []core.Toleration` };
  const names = Object.keys(TOLERATION_FIELDS);
  for (const item of parsed) {
    if (item === null) continue;
    if (typeof item !== 'object' || Array.isArray(item)) return { error: `json: cannot unmarshal ${jsonType(item)} into Go value of type core.Toleration` };
    for (const [k, v] of Object.entries(item as Record<string, unknown>)) {
      const name = names.find((n) => n === k) ?? names.find((n) => n.toLowerCase() === k.toLowerCase());
      const error = name && fieldError(name, v);
      if (error) return { error };
    }
  }
  // encoding/json folds a key's case into the field it fills
  const tolerations = parsed.map((item) => Object.fromEntries(Object.entries((item ?? {}) as Record<string, unknown>)
    .map(([k, v]) => [names.find((n) => n.toLowerCase() === k.toLowerCase()) ?? k, v])));
  return { tolerations };
}

/** ValidatePodSpecificAnnotations: `annotations` are at `path`, the containers in `spec`. */
export function validatePodSpecificAnnotations(
  annotations: Record<string, unknown>, spec: KubeObject, path: string, allowInvalidDeletionCost: boolean,
): StatusCause[] {
  const causes: StatusCause[] = [];
  if (Object.hasOwn(annotations, MIRROR_POD_ANNOTATION) && !spec.nodeName) {
    causes.push(invalidValue(`${path}[${MIRROR_POD_ANNOTATION}]`, annotations[MIRROR_POD_ANNOTATION], 'must set spec.nodeName if mirror pod annotation is set'));
  }
  const tolerations = annotations[TOLERATIONS_ANNOTATION];
  if (tolerations !== undefined && tolerations !== '') {
    // ValidateTolerationsInPodAnnotations: the annotation's key is the value of a decoding error
    const decoded = decodeTolerations(String(tolerations));
    if (decoded.error) causes.push(invalidValue(path, TOLERATIONS_ANNOTATION, decoded.error));
    else validateTolerations(decoded.tolerations, `${path}.${TOLERATIONS_ANNOTATION}`, causes);
  }
  if (!allowInvalidDeletionCost && !isValidPodDeletionCost(annotations)) {
    causes.push(invalidValue(`${path}[${POD_DELETION_COST}]`, annotations[POD_DELETION_COST], 'must be a 32bit integer'));
  }
  causes.push(...validateSeccompPodAnnotations(annotations, path), ...validateAppArmorPodAnnotations(annotations, spec, path));
  return causes;
}

/**
 * ValidatePodSpecificAnnotations on an update, with the leniency GetValidationOptionsFromPodSpecAndMeta gives it:
 * a pod-deletion-cost that was already invalid in `old` may stay so.
 */
export function validatePodAnnotationsOnUpdate(annotations: Record<string, unknown>, old: Record<string, unknown>, spec: KubeObject, path: string): StatusCause[] {
  return validatePodSpecificAnnotations(annotations, spec, path, !isValidPodDeletionCost(old));
}
