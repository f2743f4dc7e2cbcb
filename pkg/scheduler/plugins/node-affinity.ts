// TaintToleration and NodeAffinity (with nodeSelector): filters on required rules, scores on preferred ones.
import { nodeSelectorMatches, nodeSelectorTermMatches, podMatchesNodeSelectorAndAffinity } from '../affinity.js';
import {
  MAX_NODE_SCORE, QueueingHint, SKIP, unresolvable, type ClusterEventWithHint, type CycleState, type FilterPlugin, type PreFilterPlugin,
  type PreScorePlugin, type QueueingHintFn, type ScorePlugin,
} from '../framework/interface.js';
import type { NodeInfo } from '../node-info.js';
import { nodeTaints, tolerationsTolerate, type Node, type Pod, type Toleration } from '../types.js';

/**
 * Node Add/Update with the hint "the node passes `ok` for the pod now and did not before (or is new)": the shape of
 * upstream's hints for NodeAffinity, TaintToleration and NodeUnschedulable.
 */
export const nodeTurnedOk = (ok: (pod: Pod, node: Node) => boolean): ClusterEventWithHint[] => {
  const hint: QueueingHintFn = (pod, oldObj, newObj) =>
    newObj && ok(pod, newObj) && !(oldObj && ok(pod, oldObj)) ? QueueingHint.Queue : QueueingHint.QueueSkip;
  return [{ event: { resource: 'Node', action: 'Add' }, hint }, { event: { resource: 'Node', action: 'Update' }, hint }];
};

const untoleratedTaint = (pod: Pod, node: Node): { key: string; value?: string } | undefined => {
  const taints = nodeTaints(node);
  for (let i = 0; i < taints.length; i++) {
    const t = taints[i]!;
    if ((t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tolerationsTolerate(pod.spec?.tolerations as Toleration[] | undefined, t)) return t;
  }
  return undefined;
};
const TAINT_EVENTS = nodeTurnedOk((pod, node) => !untoleratedTaint(pod, node));

/** Upstream's helper.DefaultNormalizeScore. */
export const defaultNormalize = (scores: number[], reverse: boolean): void => {
  let max = 0;
  for (const s of scores) if (s > max) max = s;
  for (let i = 0; i < scores.length; i++) {
    if (max === 0) { scores[i] = reverse ? MAX_NODE_SCORE : 0; continue; }
    const s = Math.floor((MAX_NODE_SCORE * scores[i]!) / max);
    scores[i] = reverse ? MAX_NODE_SCORE - s : s;
  }
};

export const taintToleration = (): FilterPlugin & PreScorePlugin & ScorePlugin => ({
  name: 'TaintToleration',
  events: () => TAINT_EVENTS,
  filter: (_s, pod, node) => {
    const taint = untoleratedTaint(pod, node.node!);
    return taint ? unresolvable(`node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`) : null;
  },
  preScore: (state, pod) => {
    state.write('PreScoreTaintToleration', ((pod.spec?.tolerations ?? []) as Toleration[]).filter((t) => !t.effect || t.effect === 'PreferNoSchedule'));
    return null;
  },
  score: (state, _pod, node) => {
    const tolerations = state.read<Toleration[]>('PreScoreTaintToleration') ?? [];
    let n = 0;
    for (const taint of nodeTaints(node.node!)) if (taint.effect === 'PreferNoSchedule' && !tolerationsTolerate(tolerations, taint)) n++;
    return n;
  },
  normalizeScore: (_s, _p, _n, scores) => defaultNormalize(scores, true),
});

interface PreferredTerm { weight: number; preference: { matchExpressions?: any[]; matchFields?: any[] } }

export const nodeAffinity = (args: Record<string, any>): PreFilterPlugin & FilterPlugin & PreScorePlugin & ScorePlugin => {
  const added = args.addedAffinity as { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: any[] }; preferredDuringSchedulingIgnoredDuringExecution?: PreferredTerm[] } | undefined;
  const addedOk = (node: Node): boolean => {
    const terms = added?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
    return !terms || nodeSelectorMatches(terms, node);
  };
  const events = nodeTurnedOk((pod, node) => podMatchesNodeSelectorAndAffinity(pod, node) && addedOk(node));
  const preferredOf = (pod: Pod): PreferredTerm[] => [
    ...((pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []) as PreferredTerm[]),
    ...(added?.preferredDuringSchedulingIgnoredDuringExecution ?? []),
  ];
  return {
    name: 'NodeAffinity',
    events: () => events,
    preFilter: (_state: CycleState, pod: Pod) => {
      const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms as any[] | undefined;
      if (!terms && !pod.spec?.nodeSelector && !added?.requiredDuringSchedulingIgnoredDuringExecution) return SKIP;
      // Terms that only pin metadata.name narrow the nodes to look at.
      if (terms?.length && terms.every((t) => !t.matchExpressions?.length && t.matchFields?.length)) {
        const names = new Set<string>();
        for (const t of terms) {
          for (const f of t.matchFields ?? []) if (f.key === 'metadata.name' && f.operator === 'In') for (const v of f.values ?? []) names.add(v);
        }
        if (names.size) return { result: { nodeNames: names } };
      }
      return null;
    },
    filter: (_s, pod, node: NodeInfo) =>
      podMatchesNodeSelectorAndAffinity(pod, node.node!) && addedOk(node.node!) ? null : unresolvable("node(s) didn't match Pod's node affinity/selector"),
    preScore: (state, pod) => {
      const terms = preferredOf(pod);
      if (!terms.length) return SKIP;
      state.write('PreScoreNodeAffinity', terms);
      return null;
    },
    score: (state, _pod, node) => {
      let sum = 0;
      for (const t of state.read<PreferredTerm[]>('PreScoreNodeAffinity') ?? []) if (nodeSelectorTermMatches(t.preference, node.node!)) sum += t.weight;
      return sum;
    },
    normalizeScore: (_s, _p, _n, scores) => defaultNormalize(scores, false),
  };
};
