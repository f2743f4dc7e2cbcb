// Whether one set of rules grants everything another does (upstream: rbac/validation Covers): the
// requested rules are broken down into single verb/group/resource/name (or verb/URL) rules, and each
// must be covered by some owner rule.
import type { PolicyRule } from '../interface.js';

const hasAll = (set: string[] | undefined, want: string[] | undefined): boolean => (want ?? []).every((w) => (set ?? []).includes(w));
const has = (set: string[] | undefined, v: string): boolean => (set ?? []).includes(v);

export function breakdownRule(r: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of r.apiGroups ?? []) {
    for (const resource of r.resources ?? []) {
      for (const verb of r.verbs) {
        if (r.resourceNames?.length) {
          for (const name of r.resourceNames) out.push({ apiGroups: [group], resources: [resource], resourceNames: [name], verbs: [verb] });
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of r.nonResourceURLs ?? []) {
    for (const verb of r.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

function resourceCoversAll(set: string[] | undefined, want: string[] | undefined): boolean {
  if (has(set, '*') || hasAll(set, want)) return true;
  return (want ?? []).every((res) => {
    if (has(set, res)) return true;
    const slash = res.indexOf('/');
    return slash >= 0 && has(set, `*${res.slice(slash)}`);
  });
}

function urlsCoverAll(set: string[] | undefined, want: string[] | undefined): boolean {
  return (want ?? []).every((u) => (set ?? []).some((o) => o === u || (o.endsWith('*') && u.startsWith(o.slice(0, -1)))));
}

export function ruleCovers(owner: PolicyRule, req: PolicyRule): boolean {
  const verbs = has(owner.verbs, '*') || hasAll(owner.verbs, req.verbs);
  const groups = has(owner.apiGroups, '*') || hasAll(owner.apiGroups, req.apiGroups);
  const resources = resourceCoversAll(owner.resources, req.resources);
  const urls = urlsCoverAll(owner.nonResourceURLs, req.nonResourceURLs);
  const names = req.resourceNames?.length
    ? !owner.resourceNames?.length || hasAll(owner.resourceNames, req.resourceNames)
    : !owner.resourceNames?.length;
  return verbs && groups && resources && urls && names;
}

/** Whether `owner` covers every rule of `servant`, and the single rules it does not. */
export function covers(owner: PolicyRule[], servant: PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing: PolicyRule[] = [];
  for (const r of servant) {
    for (const atom of breakdownRule(r)) {
      if (!owner.some((o) => ruleCovers(o, atom))) missing.push(atom);
    }
  }
  return { covered: missing.length === 0, missing };
}
