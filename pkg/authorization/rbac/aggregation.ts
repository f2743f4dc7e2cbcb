// ClusterRole aggregation (upstream's clusterrole-aggregation controller): a ClusterRole with an
// aggregationRule has the rules of every ClusterRole its selectors match, in selector order, then by name.
import type { KubeObject } from '../../../api/types.js';
import { labelSelectorAsSelector, type LabelSelector } from '../../apimachinery/labels.js';
import type { PolicyRule } from '../interface.js';

/** A rule as a string that two rules share when they are the same rule (absent lists and empty ones alike). */
const keyOf = (r: PolicyRule): string =>
  JSON.stringify([r.verbs ?? [], r.apiGroups ?? [], r.resources ?? [], r.resourceNames ?? [], r.nonResourceURLs ?? []]);

/** The rules `role` should have given every ClusterRole, or undefined when it aggregates nothing. */
export function aggregatedRules(role: KubeObject, all: KubeObject[]): PolicyRule[] | undefined {
  const selectors = (role.aggregationRule?.clusterRoleSelectors ?? []) as LabelSelector[];
  if (!role.aggregationRule) return undefined;
  const sorted = [...all].sort((a, b) => (a.metadata!.name! < b.metadata!.name! ? -1 : 1));
  const rules: PolicyRule[] = [];
  // the aggregated roles (admin, edit, view) gather hundreds of rules: a set, not a scan of them per rule
  const seen = new Set<string>();
  for (const sel of selectors) {
    let selector;
    try {
      selector = labelSelectorAsSelector(sel);
    } catch {
      continue;
    }
    for (const other of sorted) {
      if (other.metadata?.name === role.metadata?.name || !selector.matches(other.metadata?.labels ?? {})) continue;
      for (const r of (other.rules ?? []) as PolicyRule[]) {
        const key = keyOf(r);
        if (!seen.has(key)) {
          seen.add(key);
          rules.push(r);
        }
      }
    }
  }
  return rules;
}

export function rulesEqual(a: PolicyRule[] | undefined, b: PolicyRule[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((r, i) => keyOf(r) === keyOf(y[i]!));
}
