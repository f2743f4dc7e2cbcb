// Toleration sets as the scheduling admission plugins compare, merge and validate them (upstream:
// pkg/util/tolerations, core helper.AddOrUpdateTolerationInPod and validation.ValidateTolerations).
import type { StatusCause } from '../apimachinery/errors.js';
import { invalidValue, notSupported } from '../apimachinery/field.js';
import { isValidLabelValue } from '../apimachinery/names.js';
import { validateLabelName } from '../apimachinery/objectmeta.js';
import type { Toleration } from '../scheduler/types.js';

export type { Toleration };

/** Go's zero values for the absent fields: upstream compares the internal structs. */
const same = (a: Toleration, b: Toleration): boolean =>
  (a.key ?? '') === (b.key ?? '') && (a.operator ?? '') === (b.operator ?? '') && (a.value ?? '') === (b.value ?? '') &&
  (a.effect ?? '') === (b.effect ?? '') && (a.tolerationSeconds ?? null) === (b.tolerationSeconds ?? null);

/** Whether `ss` tolerates every taint `t` tolerates (for NoExecute, for at least as long). */
function isSuperset(ss: Toleration, t: Toleration): boolean {
  if (same(ss, t)) return true;
  // An empty key with Exists matches every key.
  if ((t.key ?? '') !== (ss.key ?? '') && (ss.key || ss.operator !== 'Exists')) return false;
  // An empty effect matches every effect.
  if ((t.effect ?? '') !== (ss.effect ?? '') && ss.effect) return false;
  if (ss.effect === 'NoExecute' && ss.tolerationSeconds != null && (t.tolerationSeconds == null || t.tolerationSeconds > ss.tolerationSeconds)) return false;
  switch (ss.operator ?? '') {
    case 'Equal': case '': return t.operator === 'Equal' && (t.value ?? '') === (ss.value ?? '');
    case 'Exists': return true;
    default: return false;
  }
}

/** Both lists, first then second, without those another one covers (of equal ones the first stays); copies. */
export function mergeTolerations(first: Toleration[], second: Toleration[]): Toleration[] {
  const all = [...first, ...second];
  const merged: Toleration[] = [];
  all.forEach((t, i) => {
    if (merged.some((m) => isSuperset(m, t))) return;
    if (all.slice(i + 1).some((later) => !same(t, later) && isSuperset(later, t))) return;
    merged.push({ ...t });
  });
  return merged;
}

/** Every toleration is covered by one of the whitelist's (an empty whitelist allows everything). */
export const verifyAgainstWhitelist = (tolerations: Toleration[], whitelist: Toleration[]): boolean =>
  whitelist.length === 0 || tolerations.every((t) => whitelist.some((w) => isSuperset(w, t)));

/** Adds `t` to the pod spec, replacing one of the same key, operator, value and effect; an equal one stays. */
export function addOrUpdateToleration(spec: { tolerations?: Toleration[] }, t: Toleration): void {
  const current = spec.tolerations ?? [];
  const matches = (o: Toleration): boolean => (o.key ?? '') === (t.key ?? '') && (o.effect ?? '') === (t.effect ?? '') &&
    (o.operator ?? '') === (t.operator ?? '') && (o.value ?? '') === (t.value ?? '');
  if (current.some((o) => same(o, t))) return;
  const next = current.map((o) => (matches(o) ? { ...t } : o));
  spec.tolerations = current.some(matches) ? next : [...current, { ...t }];
}

const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** Upstream's ValidateTolerations (an empty effect matches every effect). */
export function validateTolerations(tolerations: Toleration[], path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  tolerations.forEach((t, i) => {
    const at = `${path}[${i}]`;
    if (t.key) causes.push(...validateLabelName(t.key, `${at}.key`));
    if (!t.key && t.operator !== 'Exists') {
      causes.push(invalidValue(`${at}.operator`, t.operator ?? '', 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (t.tolerationSeconds != null && t.effect !== 'NoExecute') {
      causes.push(invalidValue(`${at}.effect`, t.effect ?? '', "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    switch (t.operator ?? '') {
      case 'Equal': case '': {
        const errs = isValidLabelValue(t.value ?? '');
        if (errs.length) causes.push(invalidValue(`${at}.operator`, t.value ?? '', errs.join(';')));
        break;
      }
      case 'Exists':
        if (t.value) causes.push(invalidValue(`${at}.operator`, t, "value must be empty when `operator` is 'Exists'"));
        break;
      default:
        causes.push(notSupported(`${at}.operator`, t.operator, ['Equal', 'Exists']));
    }
    if (t.effect && !EFFECTS.includes(t.effect)) causes.push(notSupported(`${at}.effect`, t.effect, EFFECTS));
  });
  return causes;
}

const goKind = (v: unknown): string => (Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v);

const STRING_FIELDS = ['key', 'operator', 'value', 'effect'] as const;

/**
 * A JSON list of v1 Tolerations as encoding/json decodes it into []v1.Toleration: null is none, unknown fields are
 * dropped, a value of the wrong type fails with Go's wording.
 */
export function toTolerations(list: unknown): Toleration[] {
  if (list === null || list === undefined) return [];
  if (!Array.isArray(list)) throw new Error(`json: cannot unmarshal ${goKind(list)} into Go value of type []v1.Toleration`);
  return list.map((item: unknown) => {
    if (item === null) return {};
    if (typeof item !== 'object' || Array.isArray(item)) throw new Error(`json: cannot unmarshal ${goKind(item)} into Go value of type v1.Toleration`);
    const src = item as Record<string, unknown>;
    const t: Toleration = {};
    for (const f of STRING_FIELDS) {
      const v = src[f];
      if (v === undefined || v === null) continue;
      if (typeof v !== 'string') throw new Error(`json: cannot unmarshal ${goKind(v)} into Go struct field Toleration.${f} of type string`);
      if (v) t[f] = v;
    }
    const secs = src.tolerationSeconds;
    if (secs !== undefined && secs !== null) {
      if (typeof secs !== 'number' || !Number.isInteger(secs)) throw new Error(`json: cannot unmarshal ${typeof secs === 'number' ? `number ${secs}` : goKind(secs)} into Go struct field Toleration.tolerationSeconds of type int64`);
      t.tolerationSeconds = secs;
    }
    return t;
  });
}
