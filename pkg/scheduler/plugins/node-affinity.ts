// TaintToleration and NodeAffinity (with nodeSelector): filters on required rules, scores on preferred ones.
import { nodeSelectorMatches, nodeSelectorTermMatches, podMatchesNodeSelectorAndAffinity } from '../affinity.js';
import {
  MAX_NODE_SCORE, SKIP, unresolvable, type ClusterEvent, type CycleState, type FilterPlugin, type PreFilterPlugin,
  type PreScorePlugin, type ScorePlugin,
} from '../framework/interface.js';
import type { NodeInfo } from '../node-info.js';
import { nodeTaints, tolerationsTolerate, type Node, type Pod, type Toleration } from '../types.js';

const NODE_CHANGES: ClusterEvent[] = [{ resource: 'Node', action: 'Add' }, { resource: 'Node', action: 'Update' }];

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
  events: () => NODE_CHANGES,
  filter: (_s, pod, node) => {
    const tolerations = pod.spec?.tolerations as Toleration[] | undefined;
    for (const taint of nodeTaints(node.node!)) {
      if (taint.effect !== 'NoSchedule' && taint.effect !== 'NoExecute') continue;
      if (!tolerationsTolerate(tolerations, taint)) return unresolvable(`node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`);
    }
    return null;
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
  const preferredOf = (pod: Pod): PreferredTerm[] => [
    ...((pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []) as PreferredTerm[]),
    ...(added?.preferredDuringSchedulingIgnoredDuringExecution ?? []),
  ];
  return {
    name: 'NodeAffinity',
    events: () => NODE_CHANGES,
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
