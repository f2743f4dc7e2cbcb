// Reconciling the bootstrap policy with what is stored (upstream: rbac/reconciliation): a missing object
// is created; an existing one whose autoupdate annotation is not "false" gets back what is missing (rules,
// subjects, labels, annotations, aggregation selectors) while whatever users added stays.
import type { KubeObject } from '../../../api/types.js';
import type { PolicyRule } from '../interface.js';
import { covers } from './covers.js';
import { AUTOUPDATE } from './policy.js';

const clone = <T>(v: T): T => structuredClone(v);

function mergeMeta(existing: KubeObject, desired: KubeObject): KubeObject['metadata'] {
  const meta = clone(existing.metadata!);
  meta.labels = { ...desired.metadata?.labels, ...meta.labels };
  meta.annotations = { ...desired.metadata?.annotations, ...meta.annotations };
  return meta;
}

/** The object to write, or undefined when nothing needs to change. */
export function reconcileRole(existing: KubeObject, desired: KubeObject): KubeObject | undefined {
  if (existing.metadata?.annotations?.[AUTOUPDATE] === 'false') return undefined;
  const next = clone(existing);
  next.metadata = mergeMeta(existing, desired);
  let changed = JSON.stringify(next.metadata) !== JSON.stringify(existing.metadata);
  if (desired.aggregationRule) {
    const have = (existing.aggregationRule?.clusterRoleSelectors ?? []) as unknown[];
    const sel = [...have];
    for (const s of desired.aggregationRule.clusterRoleSelectors as unknown[]) {
      if (!sel.some((x) => JSON.stringify(x) === JSON.stringify(s))) sel.push(s);
    }
    if (sel.length !== have.length) {
      next.aggregationRule = { ...existing.aggregationRule, clusterRoleSelectors: sel };
      changed = true;
    }
  } else {
    const have = (existing.rules ?? []) as PolicyRule[];
    const { missing } = covers(have, (desired.rules ?? []) as PolicyRule[]);
    if (missing.length) {
      // Add the desired rules that are not already covered, whole (not broken down).
      next.rules = [...have, ...((desired.rules ?? []) as PolicyRule[]).filter((r) => !covers(have, [r]).covered)];
      changed = true;
    }
  }
  return changed ? next : undefined;
}

/** For bindings: missing subjects are added. A different roleRef cannot be changed in place: `replace` says so. */
export function reconcileBinding(existing: KubeObject, desired: KubeObject): { object?: KubeObject; replace: boolean } {
  if (existing.metadata?.annotations?.[AUTOUPDATE] === 'false') return { replace: false };
  const next = clone(existing);
  next.metadata = mergeMeta(existing, desired);
  const replace = JSON.stringify(existing.roleRef) !== JSON.stringify(desired.roleRef);
  if (replace) next.roleRef = clone(desired.roleRef);
  const key = (s: Record<string, string>): string => `${s.kind}/${s.namespace ?? ''}/${s.name}`;
  const have = (existing.subjects ?? []) as Array<Record<string, string>>;
  const add = ((desired.subjects ?? []) as Array<Record<string, string>>).filter((s) => !have.some((h) => key(h) === key(s)));
  if (add.length) next.subjects = [...have, ...add];
  const changed = replace || add.length > 0 || JSON.stringify(next.metadata) !== JSON.stringify(existing.metadata);
  return changed ? { object: next, replace } : { replace: false };
}
