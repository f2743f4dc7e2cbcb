// Pod (anti-)affinity terms and node selector terms, parsed once and matched many times.
import { labelSelectorAsSelector, type Selector } from '../apimachinery/labels.js';
import type { Node, Pod } from './types.js';

export interface AffinityTerm {
  selector: Selector;
  /** Namespaces named by the term (or the pod's own when neither names nor a selector is given). */
  namespaces: Set<string>;
  /** A namespaceSelector: matched against namespace labels ({} = every namespace). */
  namespaceSelector?: Selector;
  topologyKey: string;
  weight: number;
}

export interface PodAffinityInfo {
  requiredAffinity: AffinityTerm[];
  requiredAntiAffinity: AffinityTerm[];
  preferredAffinity: AffinityTerm[];
  preferredAntiAffinity: AffinityTerm[];
}

const safeSelector = (ls: unknown): Selector => {
  try {
    return labelSelectorAsSelector(ls as never);
  } catch {
    return labelSelectorAsSelector(null);
  }
};

const parseTerm = (pod: Pod, term: any, weight = 1): AffinityTerm => {
  const names = (term?.namespaces ?? []) as string[];
  const hasNsSel = term?.namespaceSelector !== undefined && term?.namespaceSelector !== null;
  return {
    selector: safeSelector(term?.labelSelector ?? null),
    namespaces: new Set(names.length || hasNsSel ? names : [pod.metadata?.namespace ?? 'default']),
    namespaceSelector: hasNsSel ? safeSelector(term.namespaceSelector) : undefined,
    topologyKey: term?.topologyKey ?? '',
    weight,
  };
};

const infos = new WeakMap<object, PodAffinityInfo>();
const EMPTY: PodAffinityInfo = { requiredAffinity: [], requiredAntiAffinity: [], preferredAffinity: [], preferredAntiAffinity: [] };

export const podAffinityInfo = (pod: Pod): PodAffinityInfo => {
  const a = pod.spec?.affinity;
  if (!a?.podAffinity && !a?.podAntiAffinity) return EMPTY;
  const hit = infos.get(pod);
  if (hit) return hit;
  const info: PodAffinityInfo = {
    requiredAffinity: (a.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((t: any) => parseTerm(pod, t)),
    requiredAntiAffinity: (a.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((t: any) => parseTerm(pod, t)),
    preferredAffinity: (a.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((t: any) => parseTerm(pod, t.podAffinityTerm, t.weight ?? 1)),
    preferredAntiAffinity: (a.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((t: any) => parseTerm(pod, t.podAffinityTerm, t.weight ?? 1)),
  };
  infos.set(pod, info);
  return info;
};

export const hasAffinity = (info: PodAffinityInfo): boolean => info !== EMPTY;

/** Whether `pod` is selected by the term; namespaceLabels looks a namespace's labels up (for namespaceSelector). */
export const termMatches = (term: AffinityTerm, pod: Pod, namespaceLabels: (ns: string) => Record<string, string> | undefined): boolean => {
  const ns = pod.metadata?.namespace ?? '';
  if (!term.namespaces.has(ns)) {
    if (!term.namespaceSelector) return false;
    if (!term.namespaceSelector.empty && !term.namespaceSelector.matches(namespaceLabels(ns))) return false;
  }
  return term.selector.matches(pod.metadata?.labels);
};

// Node selector terms (nodeAffinity): terms are ORed, a term's requirements ANDed; an empty term matches nothing.

interface NodeSelectorRequirement { key: string; operator: string; values?: string[] }
interface NodeSelectorTerm { matchExpressions?: NodeSelectorRequirement[]; matchFields?: NodeSelectorRequirement[] }

const matchRequirement = (r: NodeSelectorRequirement, labels: Record<string, string>): boolean => {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const v = labels[r.key];
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In': return has && values.includes(v!);
    case 'NotIn': return !has || !values.includes(v!);
    case 'Exists': return has;
    case 'DoesNotExist': return !has;
    case 'Gt': case 'Lt': {
      if (!has || values.length !== 1) return false;
      const a = Number.parseInt(v!, 10);
      const b = Number.parseInt(values[0]!, 10);
      if (Number.isNaN(a) || Number.isNaN(b)) return false;
      return r.operator === 'Gt' ? a > b : a < b;
    }
    default: return false;
  }
};

export const nodeSelectorTermMatches = (term: NodeSelectorTerm, node: Node): boolean => {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (!exprs.length && !fields.length) return false;
  const labels = (node.metadata?.labels ?? {}) as Record<string, string>;
  if (!exprs.every((r) => matchRequirement(r, labels))) return false;
  const fieldSet = { 'metadata.name': node.metadata?.name ?? '' };
  return fields.every((r) => r.key === 'metadata.name' && matchRequirement(r, fieldSet));
};

export const nodeSelectorMatches = (terms: NodeSelectorTerm[], node: Node): boolean => terms.some((t) => nodeSelectorTermMatches(t, node));

/** spec.nodeSelector and required node affinity: what NodeAffinity's filter (and topology spread's policy) require. */
export const podMatchesNodeSelectorAndAffinity = (pod: Pod, node: Node): boolean => {
  const sel = pod.spec?.nodeSelector as Record<string, string> | undefined;
  if (sel) {
    const labels = node.metadata?.labels ?? {};
    for (const [k, v] of Object.entries(sel)) if (labels[k] !== v) return false;
  }
  const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms as NodeSelectorTerm[] | undefined;
  return !terms || nodeSelectorMatches(terms, node);
};
