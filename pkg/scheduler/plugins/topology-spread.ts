// PodTopologySpread: hard constraints (DoNotSchedule) filter, soft ones (ScheduleAnyway) score, as upstream's
// podtopologyspread plugin. A pod without constraints gets the default ones (defaultingType System: spread softly
// over hostnames, maxSkew 3, and zones, maxSkew 5; List: the args' defaultConstraints), with the selector of the
// Services, ReplicationControllers, ReplicaSets and StatefulSets that select it (none: no defaults).
import { labelSelectorAsSelector, selectorFromSet, type Selector } from '../../apimachinery/labels.js';
import { podMatchesNodeSelectorAndAffinity } from '../affinity.js';
import type { KubeObject } from '../../client/index.js';
import {
  MAX_NODE_SCORE, QueueingHint, SKIP, unresolvable, unschedulable, type ClusterEventWithHint, type CycleState, type FilterPlugin, type Handle,
  type PreFilterPlugin, type PreScorePlugin, type ScorePlugin,
} from '../framework/interface.js';
import { NodeMemo, type NodeInfo } from '../node-info.js';
import { nodeTaints, tolerationsTolerate, type Pod } from '../types.js';
import { cloneJson } from '../../apimachinery/json-clone.js';

interface Constraint {
  maxSkew: number;
  topologyKey: string;
  hard: boolean;
  selector: Selector;
  /** The per-node counts of the pods in the pod's namespace that the selector matches. */
  counted: NodeMemo;
  minDomains: number;
  honorAffinity: boolean;
  honorTaints: boolean;
}

interface SpreadState {
  constraints: Constraint[];
  /** False for defaulted constraints: a node lacking a key skips that constraint instead of being ignored. */
  requireAll: boolean;
  /** per constraint: domain value → matching pods (PreScore: none for hostname keys, counted per node in Score) */
  counts: Map<string, number>[];
  /** PreScore: per constraint, how many domains it has among the feasible nodes (the normalizing weight's size) */
  sizes?: number[];
  /** PreScore: per constraint, log(size + 2), the weight of its counts in a node's score */
  weights?: number[];
  /** PreScore: per constraint, whether its domain is one node (counted in Score) */
  perNode?: boolean[];
  clone(): SpreadState;
}

const HOSTNAME = 'kubernetes.io/hostname';

const ERR_MISMATCH = "node(s) didn't match pod topology spread constraints";
const ERR_MISSING_LABEL = "node(s) didn't match pod topology spread constraints (missing required label)";

const SYSTEM_DEFAULTS = [
  { maxSkew: 3, topologyKey: HOSTNAME, whenUnsatisfiable: 'ScheduleAnyway' },
  { maxSkew: 5, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway' },
];

/** Owners' selectors, parsed once per selector object (informer objects are replaced, never changed, on update). */
const parsedSelectors = new WeakMap<object, Selector | null>();
const selectorOf = (raw: object, parse: () => Selector): Selector | null => {
  let sel = parsedSelectors.get(raw);
  if (sel === undefined) {
    try { sel = parse(); } catch { sel = null; } // an invalid selector selects nothing
    parsedSelectors.set(raw, sel);
  }
  return sel;
};

/** Every selector (of a Service, RC, RS or StatefulSet in the pod's namespace) that selects the pod, ANDed. */
const defaultSelector = (pod: Pod, l: Handle['listers']): Selector | undefined => {
  const ns = pod.metadata?.namespace ?? '';
  const labels = pod.metadata?.labels;
  if (!labels || !Object.keys(labels).length) return undefined;
  const selectors: Selector[] = [];
  const consider = (sel: Selector | null): void => { if (sel && !sel.empty && sel.matches(labels)) selectors.push(sel); };
  const bySet = (set: Record<string, string>): Selector | null => selectorOf(set, () => selectorFromSet(set));
  for (const svc of l.services.namespace(ns).list()) if (svc.spec?.selector) consider(bySet(svc.spec.selector));
  for (const rc of l.replicationControllers.namespace(ns).list()) if (rc.spec?.selector) consider(bySet(rc.spec.selector));
  for (const owner of [...l.replicaSets.namespace(ns).list(), ...l.statefulSets.namespace(ns).list()]) {
    const raw = owner.spec?.selector;
    consider(raw ? selectorOf(raw, () => labelSelectorAsSelector(raw)) : null);
  }
  if (!selectors.length) return undefined;
  return {
    requirements: selectors.flatMap((s) => s.requirements), empty: false,
    matches: (ls) => selectors.every((s) => s.matches(ls)),
    toString: () => selectors.map((s) => s.toString()).join(','),
    requiresExactMatch: (key) => selectors.map((s) => s.requiresExactMatch(key)).find((v) => v !== undefined),
  };
};

/** Per-node match counts by namespace and selector; those of workloads long gone are dropped now and then. */
class MatchCounts {
  private readonly memos = new Map<string, NodeMemo>();

  of(namespace: string, selector: Selector): NodeMemo {
    const key = `${namespace} ${selector.toString()}`;
    let m = this.memos.get(key);
    if (!m) {
      if (this.memos.size >= 64) this.memos.clear();
      this.memos.set(key, (m = new NodeMemo()));
    }
    return m;
  }
}

const constraintsOf = (pod: Pod, defaults: any[], hardOnly: boolean | undefined, listers: Handle['listers'], counts: MatchCounts): Constraint[] => {
  let raw = (pod.spec?.topologySpreadConstraints ?? []) as any[];
  let defaulted: Selector | undefined;
  if (!raw.length && defaults.length) {
    // soft system defaults never filter: look the owners up only when they could matter
    if (hardOnly === true && defaults.every((d) => d.whenUnsatisfiable === 'ScheduleAnyway')) return [];
    defaulted = defaultSelector(pod, listers);
    if (!defaulted) return [];
    raw = defaults;
  }
  const out: Constraint[] = [];
  for (const c of raw) {
    const hard = c.whenUnsatisfiable !== 'ScheduleAnyway';
    if (hardOnly !== undefined && hard !== hardOnly) continue;
    let selector: Selector;
    if (defaulted) selector = defaulted;
    else {
      const ls = cloneJson(c.labelSelector ?? null);
      for (const key of (c.matchLabelKeys ?? []) as string[]) {
        const v = pod.metadata?.labels?.[key];
        if (v !== undefined && ls) (ls.matchExpressions ??= []).push({ key, operator: 'In', values: [v] });
      }
      try { selector = labelSelectorAsSelector(ls); } catch { selector = labelSelectorAsSelector(null); }
    }
    out.push({
      maxSkew: c.maxSkew ?? 1, topologyKey: c.topologyKey, hard, selector, counted: counts.of(pod.metadata?.namespace ?? '', selector), minDomains: c.minDomains ?? 1,
      honorAffinity: (c.nodeAffinityPolicy ?? 'Honor') === 'Honor', honorTaints: c.nodeTaintsPolicy === 'Honor',
    });
  }
  return out;
};

const taintsAllow = (pod: Pod, node: KubeObject): boolean =>
  !nodeTaints(node).some((t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tolerationsTolerate(pod.spec?.tolerations, t));

/**
 * Pods on a node matched by a selector, per node and namespaced selector, kept while the node's pods stay the same:
 * between two scheduling cycles only the nodes that got or lost a pod count again.
 */
const countOn = (pod: Pod, c: Constraint, node: NodeInfo): number => {
  const hit = c.counted.get(node);
  if (hit !== undefined) return hit;
  const ns = pod.metadata?.namespace;
  let n = 0;
  for (const pi of node.pods.values()) {
    if (pi.pod.metadata?.namespace !== ns || pi.pod.metadata?.deletionTimestamp) continue;
    if (c.selector.matches(pi.pod.metadata?.labels)) n++;
  }
  c.counted.set(node, n);
  return n;
};

const makeState = (constraints: Constraint[], counts: Map<string, number>[], requireAll = true): SpreadState => ({
  constraints, counts, requireAll, clone: () => makeState(constraints, counts.map((m) => new Map(m)), requireAll),
});

/**
 * `only`: per constraint, the topology values to count (PreScore: those of the feasible nodes, as upstream);
 * `skip`: per constraint, whether to leave it out (PreScore: hostname keys, whose one node Score counts itself).
 */
const compute = (pod: Pod, constraints: Constraint[], nodes: NodeInfo[], requireAll = true, only?: Set<string>[], skip?: boolean[]): SpreadState => {
  const counts = constraints.map(() => new Map<string, number>());
  for (const node of nodes) {
    const n = node.node;
    if (!n) continue;
    let affinityOk: boolean | undefined; // once per node, whatever the number of constraints
    for (let i = 0; i < constraints.length; i++) {
      if (skip?.[i]) continue;
      const c = constraints[i]!;
      const v = n.metadata?.labels?.[c.topologyKey];
      if (v === undefined || (only && !only[i]!.has(v))) continue;
      if (c.honorAffinity && !(affinityOk ??= podMatchesNodeSelectorAndAffinity(pod, n))) continue;
      if (c.honorTaints && !taintsAllow(pod, n)) continue;
      counts[i]!.set(v, (counts[i]!.get(v) ?? 0) + countOn(pod, c, node));
    }
  }
  return makeState(constraints, counts, requireAll);
};

const adjust = (state: SpreadState | undefined, pod: Pod, other: Pod, node: NodeInfo, delta: number): void => {
  if (!state || other.metadata?.namespace !== pod.metadata?.namespace) return;
  state.constraints.forEach((c, i) => {
    const v = node.labels[c.topologyKey];
    if (v === undefined || !c.selector.matches(other.metadata?.labels) || !state.counts[i]!.has(v)) return;
    state.counts[i]!.set(v, state.counts[i]!.get(v)! + delta);
  });
};

/**
 * As upstream's hints: an assigned pod matters when it is (or was) in the pod's namespace and matched by one of its
 * hard constraints (an update only when its labels changed); a node when it has (or had) every constraint's
 * topology key and, on update, a key's value or its taints changed.
 */
const spreadEvents = (defaults: any[], listers: Handle['listers'], counts: MatchCounts): ClusterEventWithHint[] => {
  const hard = (pod: Pod): Constraint[] => constraintsOf(pod, defaults, true, listers, counts);
  const selects = (pod: Pod, cs: Constraint[], other: KubeObject | undefined): boolean =>
    !!other && other.metadata?.namespace === pod.metadata?.namespace && cs.some((c) => c.selector.matches(other.metadata?.labels));
  const afterPod = (pod: Pod, oldObj: KubeObject | undefined, newObj: KubeObject | undefined): QueueingHint => {
    if (oldObj && newObj && JSON.stringify(oldObj.metadata?.labels) === JSON.stringify(newObj.metadata?.labels)) return QueueingHint.QueueSkip;
    const cs = hard(pod);
    return selects(pod, cs, oldObj) || selects(pod, cs, newObj) ? QueueingHint.Queue : QueueingHint.QueueSkip;
  };
  const afterNode = (pod: Pod, oldObj: KubeObject | undefined, newObj: KubeObject | undefined): QueueingHint => {
    const cs = hard(pod);
    const hasKeys = (n: KubeObject | undefined): boolean => !!n && cs.every((c) => n.metadata?.labels?.[c.topologyKey] !== undefined);
    if (!oldObj || !newObj) return hasKeys(oldObj ?? newObj) ? QueueingHint.Queue : QueueingHint.QueueSkip;
    if (!hasKeys(oldObj) && !hasKeys(newObj)) return QueueingHint.QueueSkip;
    const changed = cs.some((c) => oldObj.metadata?.labels?.[c.topologyKey] !== newObj.metadata?.labels?.[c.topologyKey])
      || (cs.some((c) => c.honorTaints) && JSON.stringify(oldObj.spec?.taints) !== JSON.stringify(newObj.spec?.taints));
    return changed ? QueueingHint.Queue : QueueingHint.QueueSkip;
  };
  return [
    { event: { resource: 'AssignedPod', action: 'All' }, hint: afterPod },
    { event: { resource: 'Node', action: 'All' }, hint: afterNode },
  ];
};

export const podTopologySpread = (args: Record<string, any>, handle: Handle): PreFilterPlugin & FilterPlugin & PreScorePlugin & ScorePlugin => {
  const defaults = args.defaultingType === 'List' ? ((args.defaultConstraints ?? []) as any[]) : SYSTEM_DEFAULTS;
  const counts = new MatchCounts();
  const events = spreadEvents(defaults, handle.listers, counts);
  return {
    name: 'PodTopologySpread',
    events: () => events,
    preFilter: (state: CycleState, pod: Pod, nodes: NodeInfo[]) => {
      const constraints = constraintsOf(pod, defaults, true, handle.listers, counts);
      if (!constraints.length) return SKIP;
      state.write('PreFilterPodTopologySpread', compute(pod, constraints, nodes));
      return null;
    },
    addPod: (state, pod, added, node) => adjust(state.read('PreFilterPodTopologySpread'), pod, added, node, 1),
    removePod: (state, pod, removed, node) => adjust(state.read('PreFilterPodTopologySpread'), pod, removed, node, -1),
    filter: (state, pod, node) => {
      const s = state.read<SpreadState>('PreFilterPodTopologySpread');
      if (!s) return null;
      const labels = node.labels;
      for (let i = 0; i < s.constraints.length; i++) {
        const c = s.constraints[i]!;
        const v = labels[c.topologyKey];
        if (v === undefined) return unresolvable(ERR_MISSING_LABEL);
        const counts = s.counts[i]!;
        let min = counts.size < c.minDomains ? 0 : Infinity;
        for (const n of counts.values()) if (n < min) min = n;
        if (min === Infinity) min = 0;
        const self = c.selector.matches(pod.metadata?.labels) ? 1 : 0;
        if ((counts.get(v) ?? 0) + self - min > c.maxSkew) return unschedulable(ERR_MISMATCH);
      }
      return null;
    },
    preScore: (state, pod, nodes) => {
      const constraints = constraintsOf(pod, defaults, false, handle.listers, counts);
      if (!constraints.length) return SKIP;
      const requireAll = (pod.spec?.topologySpreadConstraints ?? []).length > 0;
      // As upstream: a hostname domain is one node, counted in Score for the nodes scored; other keys are counted
      // over every node, but only for the topology values the feasible nodes have (none: nothing to count).
      const perNode = constraints.map((c) => c.topologyKey === HOSTNAME);
      const hasKey = (n: NodeInfo, c: Constraint): boolean => n.labels[c.topologyKey] !== undefined;
      const only = constraints.map((c, i) => new Set(perNode[i] ? [] : nodes.map((n) => n.labels[c.topologyKey]).filter((v): v is string => v !== undefined)));
      const needsAll = only.some((values) => values.size > 0);
      const s = compute(pod, constraints, needsAll ? handle.cache.nodeInfos() : [], requireAll, only, perNode);
      // the weight's size for a hostname key: the feasible nodes Score does not ignore
      const scored = requireAll ? nodes.filter((n) => constraints.every((c) => hasKey(n, c))) : nodes;
      s.sizes = constraints.map((c, i) => (perNode[i] ? scored.filter((n) => hasKey(n, c)).length : s.counts[i]!.size));
      s.weights = s.sizes.map((size) => Math.log(size + 2));
      s.perNode = perNode;
      state.write('PreScorePodTopologySpread', s);
      return null;
    },
    score: (state, pod, node) => {
      const s = state.read<SpreadState>('PreScorePodTopologySpread')!;
      const labels = node.labels;
      let score = 0;
      for (let i = 0; i < s.constraints.length; i++) {
        const c = s.constraints[i]!;
        const v = labels[c.topologyKey];
        if (v === undefined) {
          if (s.requireAll) return -1; // ignored node
          continue;
        }
        const count = s.perNode![i] ? countOn(pod, c, node) : (s.counts[i]!.get(v) ?? 0);
        score += count * s.weights![i]! + c.maxSkew - 1;
      }
      return Math.round(score);
    },
    normalizeScore: (_s, _p, _n, scores) => {
      let min = Infinity;
      let max = 0;
      for (const s of scores) { if (s < 0) continue; if (s < min) min = s; if (s > max) max = s; }
      for (let i = 0; i < scores.length; i++) {
        const s = scores[i]!;
        if (s < 0) { scores[i] = 0; continue; }
        scores[i] = max === 0 ? MAX_NODE_SCORE : Math.floor((MAX_NODE_SCORE * (max + min - s)) / max);
      }
    },
  };
};
