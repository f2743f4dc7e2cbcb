// Which requests a webhook or a policy cares about (upstream: apiserver/pkg/admission/plugin/webhook/
// predicates): rules over operation, group, version, resource/subresource and scope; namespace and
// object label selectors; the admission configuration kinds that are never sent anywhere.
import type { KubeObject, ResourceType } from '../../../api/types.js';
import { labelSelectorAsSelector } from '../../apimachinery/labels.js';
import type { AdmissionDeps } from '../deps.js';
import type { AdmissionAttributes } from '../interface.js';

export interface Rule {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
  resourceNames?: string[];
}

type Selector = { matchLabels?: Record<string, string>; matchExpressions?: Array<{ key: string; operator: string; values?: string[] }> };

const has = (list: string[] | undefined, v: string): boolean => (list ?? []).some((x) => x === '*' || x === v);

/** One rule: `*` is any operation, group, version; `*` any resource (no subresource), `*\/*` anything, `pods/*` pods and its subresources. */
export function ruleMatches(rule: Rule, a: AdmissionAttributes): boolean {
  if (!has(rule.operations, a.operation)) return false;
  if (!has(rule.apiGroups, a.resource.group) || !has(rule.apiVersions, a.resource.version)) return false;
  const sub = a.subresource ?? '';
  const resourceOk = (rule.resources ?? []).some((r) => {
    const i = r.indexOf('/');
    const [res, rsub] = i < 0 ? [r, ''] : [r.slice(0, i), r.slice(i + 1)];
    return (res === '*' || res === a.resource.plural) && (rsub === '*' || rsub === sub);
  });
  if (!resourceOk) return false;
  const scope = rule.scope ?? '*';
  if (scope === 'Cluster' && a.resource.namespaced) return false;
  if (scope === 'Namespaced' && !a.resource.namespaced) return false;
  if (rule.resourceNames?.length && !rule.resourceNames.includes(requestName(a))) return false;
  return true;
}

export const requestName = (a: AdmissionAttributes): string => a.name || a.object?.metadata?.name || a.oldObject?.metadata?.name || '';

const EXEMPT = new Set(['validatingwebhookconfigurations', 'mutatingwebhookconfigurations', 'validatingadmissionpolicies', 'validatingadmissionpolicybindings', 'mutatingadmissionpolicies', 'mutatingadmissionpolicybindings']);

/** Admission configuration objects are never sent to webhooks or policies (so they cannot lock the cluster). */
export const isExemptResource = (a: AdmissionAttributes): boolean =>
  a.resource.group === 'admissionregistration.k8s.io' && EXEMPT.has(a.resource.plural);

const selectorOf = (s: Selector | undefined) => labelSelectorAsSelector(s ?? {});

/** The namespace's labels decide for namespaced objects, the object's own for namespaces; other cluster-scoped objects always match. */
export function namespaceSelectorMatches(sel: Selector | undefined, a: AdmissionAttributes, deps: AdmissionDeps): boolean {
  const selector = selectorOf(sel);
  if (selector.empty) return true;
  if (a.resource.group === '' && a.resource.plural === 'namespaces') {
    return selector.matches((a.object ?? a.oldObject)?.metadata?.labels ?? {});
  }
  if (!a.resource.namespaced || !a.namespace) return true;
  const ns = deps.get('', 'namespaces', undefined, a.namespace);
  return selector.matches(ns?.metadata?.labels ?? {});
}

/** Matches when the new or the old object has matching labels; absent objects never match a non-empty selector. */
export function objectSelectorMatches(sel: Selector | undefined, a: AdmissionAttributes): boolean {
  const selector = selectorOf(sel);
  if (selector.empty) return true;
  const objs = [a.object, a.oldObject].filter((o): o is KubeObject => Boolean(o));
  return objs.some((o) => selector.matches(o.metadata?.labels ?? {}));
}

/**
 * The resource whose rule the request matches: its own, or with matchPolicy Equivalent (the default) another version
 * of the same stored objects that a rule names (upstream: the request's own resource first, then each rule in order
 * against each equivalent).
 */
export function matchedResource(rules: Rule[], matchPolicy: string | undefined, a: AdmissionAttributes, deps: AdmissionDeps): ResourceType | undefined {
  if (rules.some((r) => ruleMatches(r, a))) return a.resource;
  if (matchPolicy === 'Exact') return undefined;
  const others = deps.equivalents(a.resource).filter((rt) => rt !== a.resource);
  for (const r of rules) for (const rt of others) if (ruleMatches(r, { ...a, resource: rt })) return rt;
  return undefined;
}

type MatchResources = { resourceRules?: Rule[]; excludeResourceRules?: Rule[]; namespaceSelector?: Selector; objectSelector?: Selector; matchPolicy?: string };

/**
 * A policy's or binding's matchResources: rules (unless `rulesOptional` and none given), excludes, selectors. Returns
 * the resource matched (another version of the request's with matchPolicy Equivalent), or undefined.
 */
export function matchResources(m: MatchResources | undefined, a: AdmissionAttributes, deps: AdmissionDeps, rulesOptional: boolean): ResourceType | undefined {
  if (!m) return rulesOptional ? a.resource : undefined;
  if (!namespaceSelectorMatches(m.namespaceSelector, a, deps) || !objectSelectorMatches(m.objectSelector, a)) return undefined;
  if (matchedResource(m.excludeResourceRules ?? [], m.matchPolicy, a, deps)) return undefined;
  if (rulesOptional && !m.resourceRules?.length) return a.resource;
  return matchedResource(m.resourceRules ?? [], m.matchPolicy, a, deps);
}
