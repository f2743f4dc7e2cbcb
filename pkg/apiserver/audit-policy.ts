// --audit-policy-file: an audit.k8s.io/v1 Policy (YAML or JSON). Rules are matched in order and the first that
// matches sets the level (no match: None) and the stages to leave out (the policy's omitStages plus the rule's).
// Matching as upstream's apiserver/pkg/audit/policy/checker.go.
import { readFile } from 'node:fs/promises';
import { parseYaml } from '../apimachinery/yaml.js';
import type { UserInfo } from '../authentication/interface.js';

export const LEVELS = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export type Level = (typeof LEVELS)[number];
export const STAGES = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type Stage = (typeof STAGES)[number];

interface GroupResources { group?: string; resources?: string[]; resourceNames?: string[] }

export interface PolicyRule {
  level: Level;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: GroupResources[];
  namespaces?: string[];
  nonResourceURLs?: string[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

export interface Policy {
  rules: PolicyRule[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

/** What the policy is asked about: the request as authorization sees it, for the authenticated user. */
export interface AuditAttributes {
  user: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  path: string;
  namespace: string;
  apiGroup: string;
  resource: string;
  subresource: string;
  name: string;
}

export interface AuditDecision {
  level: Level;
  omitStages: Set<Stage>;
  omitManagedFields: boolean;
}

/** Without --audit-policy-file: every request at Metadata, one event when it completes. */
export const DEFAULT_POLICY: Policy = { rules: [{ level: 'Metadata' }], omitStages: ['RequestReceived', 'ResponseStarted'] };

const stringList = (v: unknown, where: string): string[] | undefined => {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) throw new Error(`${where}: must be a list of strings`);
  return v as string[];
};

const stagesOf = (v: unknown, where: string): Stage[] | undefined => {
  const list = stringList(v, where);
  for (const s of list ?? []) if (!(STAGES as readonly string[]).includes(s)) throw new Error(`${where}: Unsupported value: "${s}": supported values: "${STAGES.join('", "')}"`);
  return list as Stage[] | undefined;
};

/** Checks a parsed Policy document as upstream's validation does, and returns it. */
export function parsePolicy(text: string): Policy {
  const doc = parseYaml(text) as Record<string, unknown> | null;
  if (!doc || doc.kind !== 'Policy') throw new Error(`kind "${String(doc?.kind ?? '')}" is not Policy`);
  if (doc.apiVersion !== 'audit.k8s.io/v1') throw new Error(`apiVersion "${String(doc.apiVersion ?? '')}" is not audit.k8s.io/v1`);
  if (!Array.isArray(doc.rules) || doc.rules.length === 0) throw new Error('rules: at least one rule is required');
  const rules = (doc.rules as Record<string, unknown>[]).map((r, i): PolicyRule => {
    const at = `rules[${i}]`;
    if (!(LEVELS as readonly string[]).includes(r.level as string)) throw new Error(`${at}.level: Unsupported value: "${String(r.level ?? '')}": supported values: "${LEVELS.join('", "')}"`);
    const nonResourceURLs = stringList(r.nonResourceURLs, `${at}.nonResourceURLs`);
    const resources = r.resources as GroupResources[] | undefined;
    const namespaces = stringList(r.namespaces, `${at}.namespaces`);
    if (nonResourceURLs?.length && (resources?.length || namespaces?.length)) {
      throw new Error(`${at}.nonResourceURLs: Invalid value: rules cannot apply to both regular resources and non-resource URLs`);
    }
    for (const u of nonResourceURLs ?? []) {
      if (!u.startsWith('/') && u !== '*') throw new Error(`${at}.nonResourceURLs: Invalid value: "${u}": non-resource URL rules must begin with a '/' character`);
      if (u.slice(0, -1).includes('*')) throw new Error(`${at}.nonResourceURLs: Invalid value: "${u}": non-resource URL wildcards ('*') must be the final character of the rule`);
    }
    (resources ?? []).forEach((gr, j) => {
      stringList(gr.resources, `${at}.resources[${j}].resources`);
      if (gr.resourceNames?.length && gr.resources?.some((res) => res.includes('*'))) {
        throw new Error(`${at}.resources[${j}].resourceNames: Invalid value: using resourceNames requires the resources to be specific`);
      }
    });
    return {
      level: r.level as Level, users: stringList(r.users, `${at}.users`), userGroups: stringList(r.userGroups, `${at}.userGroups`),
      verbs: stringList(r.verbs, `${at}.verbs`), resources, namespaces, nonResourceURLs,
      omitStages: stagesOf(r.omitStages, `${at}.omitStages`), omitManagedFields: typeof r.omitManagedFields === 'boolean' ? r.omitManagedFields : undefined,
    };
  });
  return { rules, omitStages: stagesOf(doc.omitStages, 'omitStages'), omitManagedFields: doc.omitManagedFields === true };
}

export async function loadPolicy(path: string): Promise<Policy> {
  try {
    return parsePolicy(await readFile(path, 'utf8'));
  } catch (e) {
    throw new Error(`--audit-policy-file ${path}: ${(e as Error).message}`);
  }
}

const pathMatches = (path: string, spec: string): boolean =>
  spec === '*' || spec === path || (spec.endsWith('*') && path.startsWith(spec.slice(0, -1)));

function matchesResource(r: PolicyRule, a: AuditAttributes): boolean {
  if (!a.isResourceRequest) return false;
  // Cluster-scoped resources have the namespace "".
  if (r.namespaces?.length && !r.namespaces.includes(a.namespace)) return false;
  if (!r.resources?.length) return true;
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return r.resources.some((gr) => (gr.group ?? '') === a.apiGroup && (!gr.resources?.length || gr.resources.some((res) => {
    if (gr.resourceNames?.length && !gr.resourceNames.includes(a.name)) return false;
    if (res === '*' || res === combined) return true;
    if (a.subresource && res.startsWith('*/') && res.slice(2) === a.subresource) return true;
    return res.endsWith('/*') && res.slice(0, -2) === a.resource;
  })));
}

function ruleMatches(r: PolicyRule, a: AuditAttributes): boolean {
  if (r.users?.length && !r.users.includes(a.user.name)) return false;
  if (r.userGroups?.length && !r.userGroups.some((g) => a.user.groups.includes(g))) return false;
  if (r.verbs?.length && !r.verbs.includes(a.verb)) return false;
  if (r.namespaces?.length || r.resources?.length) return matchesResource(r, a);
  if (r.nonResourceURLs?.length) return !a.isResourceRequest && r.nonResourceURLs.some((spec) => pathMatches(a.path, spec));
  return true;
}

export function evaluatePolicy(p: Policy, a: AuditAttributes): AuditDecision {
  const rule = p.rules.find((r) => ruleMatches(r, a));
  return {
    level: rule?.level ?? 'None',
    omitStages: new Set([...p.omitStages ?? [], ...rule?.omitStages ?? []]),
    omitManagedFields: rule?.omitManagedFields ?? p.omitManagedFields ?? false,
  };
}
