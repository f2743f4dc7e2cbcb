// Upstream's rule matching (rbac/v1 helpers: VerbMatches, APIGroupMatches, ResourceMatches,
// ResourceNameMatches, NonResourceURLMatches, and the authorizer's RuleAllows).
import type { Attributes, PolicyRule } from '../interface.js';

const has = (list: string[] | undefined, v: string): boolean => !!list && (list.includes('*') || list.includes(v));

export const verbMatches = (r: PolicyRule, verb: string): boolean => has(r.verbs, verb);
export const apiGroupMatches = (r: PolicyRule, group: string): boolean => has(r.apiGroups, group);

/** `resource/subresource` against the rule's resources: "*" matches all, "*" + "/sub" that subresource of anything. */
export function resourceMatches(r: PolicyRule, combined: string, subresource: string): boolean {
  for (const rr of r.resources ?? []) {
    if (rr === '*' || rr === combined) return true;
    if (!subresource) continue;
    if (rr.length === subresource.length + 2 && rr.startsWith('*/') && rr.endsWith(subresource)) return true;
  }
  return false;
}

export const resourceNameMatches = (r: PolicyRule, name: string): boolean =>
  !r.resourceNames || r.resourceNames.length === 0 || r.resourceNames.includes(name);

export function nonResourceURLMatches(r: PolicyRule, path: string): boolean {
  for (const u of r.nonResourceURLs ?? []) {
    if (u === '*' || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))) return true;
  }
  return false;
}

export function ruleAllows(a: Pick<Attributes, 'isResourceRequest' | 'verb' | 'apiGroup' | 'resource' | 'subresource' | 'name' | 'path'>, r: PolicyRule): boolean {
  if (a.isResourceRequest) {
    const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    return verbMatches(r, a.verb) && apiGroupMatches(r, a.apiGroup) && resourceMatches(r, combined, a.subresource) && resourceNameMatches(r, a.name);
  }
  return verbMatches(r, a.verb) && nonResourceURLMatches(r, a.path);
}

export const rulesAllow = (a: Parameters<typeof ruleAllows>[0], rules: PolicyRule[]): boolean => rules.some((r) => ruleAllows(a, r));

/** A compact way to write a rule: rule(verbs, groups, resources) or url(verbs, urls). */
export const rule = (verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): PolicyRule =>
  resourceNames ? { apiGroups, resources, resourceNames, verbs } : { apiGroups, resources, verbs };
export const urlRule = (verbs: string[], nonResourceURLs: string[]): PolicyRule => ({ nonResourceURLs, verbs });

/** How upstream prints a rule in escalation messages: `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`. */
export function compactString(r: PolicyRule): string {
  const q = (l: string[]): string => `[${l.map((s) => JSON.stringify(s)).join(' ')}]`;
  const parts: string[] = [];
  if (r.apiGroups?.length) parts.push(`APIGroups:${q(r.apiGroups)}`);
  if (r.resources?.length) parts.push(`Resources:${q(r.resources)}`);
  if (r.nonResourceURLs?.length) parts.push(`NonResourceURLs:${q(r.nonResourceURLs)}`);
  if (r.resourceNames?.length) parts.push(`ResourceNames:${q(r.resourceNames)}`);
  parts.push(`Verbs:${q(r.verbs)}`);
  return `{${parts.join(', ')}}`;
}
