// Reconciling the bootstrap policy with what is stored (upstream: rbac/reconciliation): a missing object
// is created; an existing one whose autoupdate annotation is not "false" gets back what is missing (rules,
// subjects, labels, annotations, aggregation selectors) while whatever users added stays.
import type { KubeObject } from '../../../api/types.js';
import type { PolicyRule } from '../interface.js';
import { jsonEqual } from '../../apimachinery/json-equal.js';
import { covers } from './covers.js';
import { AUTOUPDATE } from './policy.js';

const clone = <T>(v: T): T => structuredClone(v);

/** Whether `want` has a key `have` lacks: the desired labels or annotations to add (users' values stay). */
const lacks = (have: Record<string, string> | undefined, want: Record<string, string> | undefined): boolean =>
  Object.keys(want ?? {}).some((k) => !(have && k in have));

const metaLacks = (existing: KubeObject, desired: KubeObject): boolean =>
  lacks(existing.metadata?.labels, desired.metadata?.labels) || lacks(existing.metadata?.annotations, desired.metadata?.annotations);

/** `existing` with the desired labels and annotations it lacks, copied only now that something changes. */
function withMeta(existing: KubeObject, desired: KubeObject): KubeObject {
  const next = clone(existing);
  next.metadata!.labels = { ...desired.metadata?.labels, ...existing.metadata?.labels };
  next.metadata!.annotations = { ...desired.metadata?.annotations, ...existing.metadata?.annotations };
  return next;
}

/** The object to write, or undefined when nothing needs to change (decided before anything is copied). */
export function reconcileRole(existing: KubeObject, desired: KubeObject): KubeObject | undefined {
  if (existing.metadata?.annotations?.[AUTOUPDATE] === 'false') return undefined;
  if (desired.aggregationRule) {
    const have = (existing.aggregationRule?.clusterRoleSelectors ?? []) as unknown[];
    const add = (desired.aggregationRule.clusterRoleSelectors as unknown[]).filter((s) => !have.some((x) => JSON.stringify(x) === JSON.stringify(s)));
    if (!add.length && !metaLacks(existing, desired)) return undefined;
    const next = withMeta(existing, desired);
    if (add.length) next.aggregationRule = { ...existing.aggregationRule, clusterRoleSelectors: [...have, ...add] };
    return next;
  }
  const have = (existing.rules ?? []) as PolicyRule[];
  // at every start each bootstrap role meets its own rules, stored unchanged: equal is covered, without the walk
  const missing = jsonEqual(have, desired.rules ?? []) ? [] : covers(have, (desired.rules ?? []) as PolicyRule[]).missing;
  if (!missing.length && !metaLacks(existing, desired)) return undefined;
  const next = withMeta(existing, desired);
  // Add the desired rules that are not already covered, whole (not broken down).
  if (missing.length) next.rules = [...have, ...((desired.rules ?? []) as PolicyRule[]).filter((r) => !covers(have, [r]).covered)];
  return next;
}

/** For bindings: missing subjects are added. A different roleRef cannot be changed in place: `replace` says so. */
export function reconcileBinding(existing: KubeObject, desired: KubeObject): { object?: KubeObject; replace: boolean } {
  if (existing.metadata?.annotations?.[AUTOUPDATE] === 'false') return { replace: false };
  const replace = JSON.stringify(existing.roleRef) !== JSON.stringify(desired.roleRef);
  const key = (s: Record<string, string>): string => `${s.kind}/${s.namespace ?? ''}/${s.name}`;
  const have = (existing.subjects ?? []) as Array<Record<string, string>>;
  const add = ((desired.subjects ?? []) as Array<Record<string, string>>).filter((s) => !have.some((h) => key(h) === key(s)));
  if (!replace && !add.length && !metaLacks(existing, desired)) return { replace: false };
  const next = withMeta(existing, desired);
  if (replace) next.roleRef = clone(desired.roleRef);
  if (add.length) next.subjects = [...have, ...add];
  return { object: next, replace };
}
