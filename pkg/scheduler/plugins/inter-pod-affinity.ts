// InterPodAffinity: required pod affinity / anti-affinity (the incoming pod's and existing pods' anti-affinity)
// filter; preferred terms (both directions) score, as upstream's interpodaffinity plugin.
import { termMatches, type AffinityTerm } from '../affinity.js';
import type { KubeObject } from '../../client/index.js';
import {
  MAX_NODE_SCORE, QueueingHint, SKIP, unresolvable, unschedulable, type ClusterEventWithHint, type CycleState, type FilterPlugin,
  type Handle, type PreFilterPlugin, type PreScorePlugin, type ScorePlugin,
} from '../framework/interface.js';
import { podInfoOf, type NodeInfo } from '../node-info.js';
import type { Pod } from '../types.js';

interface AffinityState {
  /** "key=value" → existing pods whose required anti-affinity the incoming pod matches there */
  existingAnti: Map<string, number>;
  existingAntiKeys: Set<string>;
  /** per incoming term: topology value → matching existing pods */
  affinity: Map<string, number>[];
  anti: Map<string, number>[];
  clone(): AffinityState;
}

const make = (existingAnti: Map<string, number>, existingAntiKeys: Set<string>, affinity: Map<string, number>[], anti: Map<string, number>[]): AffinityState => ({
  existingAnti, existingAntiKeys, affinity, anti,
  clone: () => make(new Map(existingAnti), new Set(existingAntiKeys), affinity.map((m) => new Map(m)), anti.map((m) => new Map(m))),
});

const bump = (m: Map<string, number>, k: string, d: number): void => { m.set(k, (m.get(k) ?? 0) + d); };

export const interPodAffinity = (args: Record<string, any>, handle: Handle): PreFilterPlugin & FilterPlugin & PreScorePlugin & ScorePlugin => {
  const hardWeight = (args.hardPodAffinityWeight as number | undefined) ?? 1;
  const nsLabels = (ns: string): Record<string, string> | undefined => handle.listers.namespaces.get(ns)?.metadata?.labels;
  const matches = (t: AffinityTerm, p: Pod): boolean => termMatches(t, p, nsLabels);

  const account = (s: AffinityState, pod: Pod, other: Pod, node: NodeInfo, d: number): void => {
    const labels = node.labels;
    const info = podInfoOf(pod).affinity;
    const otherInfo = podInfoOf(other).affinity;
    for (const t of otherInfo.requiredAntiAffinity) {
      const v = labels[t.topologyKey];
      if (v !== undefined && matches(t, pod)) { bump(s.existingAnti, `${t.topologyKey}=${v}`, d); s.existingAntiKeys.add(t.topologyKey); }
    }
    info.requiredAffinity.forEach((t, i) => {
      const v = labels[t.topologyKey];
      if (v !== undefined && matches(t, other)) bump(s.affinity[i]!, v, d);
    });
    info.requiredAntiAffinity.forEach((t, i) => {
      const v = labels[t.topologyKey];
      if (v !== undefined && matches(t, other)) bump(s.anti[i]!, v, d);
    });
  };

  // As upstream's hints: a new or updated assigned pod matters when one of the pod's required affinity terms selects
  // it; a deleted one when one of the pod's anti-affinity terms selected it or its own anti-affinity rejected the pod;
  // a node when it is new or its labels changed.
  const afterPod = (pod: Pod, oldObj: KubeObject | undefined, newObj: KubeObject | undefined): QueueingHint => {
    const info = podInfoOf(pod).affinity;
    if (newObj) return info.requiredAffinity.some((t) => matches(t, newObj)) ? QueueingHint.Queue : QueueingHint.QueueSkip;
    if (!oldObj) return QueueingHint.QueueSkip;
    const blocked = info.requiredAntiAffinity.some((t) => matches(t, oldObj)) || podInfoOf(oldObj).affinity.requiredAntiAffinity.some((t) => matches(t, pod));
    return blocked ? QueueingHint.Queue : QueueingHint.QueueSkip;
  };
  const events: ClusterEventWithHint[] = [
    { event: { resource: 'AssignedPod', action: 'All' }, hint: afterPod },
    { event: { resource: 'Node', action: 'Add' } },
    {
      event: { resource: 'Node', action: 'Update' },
      hint: (_pod, oldObj, newObj) => (JSON.stringify(oldObj?.metadata?.labels) !== JSON.stringify(newObj?.metadata?.labels) ? QueueingHint.Queue : QueueingHint.QueueSkip),
    },
  ];

  return {
    name: 'InterPodAffinity',
    events: () => events,
    preFilter: (state: CycleState, pod: Pod, nodes: NodeInfo[]) => {
      const info = podInfoOf(pod).affinity;
      const own = info.requiredAffinity.length + info.requiredAntiAffinity.length > 0;
      if (!own && handle.cache.podsWithRequiredAntiAffinity === 0) return SKIP;
      const s = make(new Map(), new Set(), info.requiredAffinity.map(() => new Map()), info.requiredAntiAffinity.map(() => new Map()));
      let any = own;
      for (const node of nodes) {
        if (own) for (const pi of node.pods.values()) account(s, pod, pi.pod, node, 1);
        else if (node.podsWithRequiredAntiAffinity.size) {
          any = true;
          for (const pi of node.podsWithRequiredAntiAffinity) account(s, pod, pi.pod, node, 1);
        }
      }
      if (!any) return SKIP;
      state.write('PreFilterInterPodAffinity', s);
      return null;
    },
    addPod: (state, pod, added, node) => { const s = state.read<AffinityState>('PreFilterInterPodAffinity'); if (s) account(s, pod, added, node, 1); },
    removePod: (state, pod, removed, node) => { const s = state.read<AffinityState>('PreFilterInterPodAffinity'); if (s) account(s, pod, removed, node, -1); },
    filter: (state, pod, node) => {
      const s = state.read<AffinityState>('PreFilterInterPodAffinity');
      if (!s) return null;
      const labels = node.labels;
      const info = podInfoOf(pod).affinity;
      if (info.requiredAffinity.length) {
        const noneAnywhere = s.affinity.every((m) => [...m.values()].every((n) => n <= 0));
        for (let i = 0; i < info.requiredAffinity.length; i++) {
          const t = info.requiredAffinity[i]!;
          const v = labels[t.topologyKey];
          if (v === undefined) return unresolvable("node(s) didn't match pod affinity rules");
          if ((s.affinity[i]!.get(v) ?? 0) > 0) continue;
          // the first pod of a group that selects itself may go anywhere its terms' keys exist
          if (noneAnywhere && info.requiredAffinity.every((x) => matches(x, pod))) continue;
          return unresolvable("node(s) didn't match pod affinity rules");
        }
      }
      for (let i = 0; i < info.requiredAntiAffinity.length; i++) {
        const v = labels[info.requiredAntiAffinity[i]!.topologyKey];
        if (v !== undefined && (s.anti[i]!.get(v) ?? 0) > 0) return unschedulable("node(s) didn't match pod anti-affinity rules");
      }
      for (const k of s.existingAntiKeys) {
        const v = labels[k];
        if (v !== undefined && (s.existingAnti.get(`${k}=${v}`) ?? 0) > 0) return unschedulable("node(s) didn't satisfy existing pods anti-affinity rules");
      }
      return null;
    },
    preScore: (state, pod) => {
      const info = podInfoOf(pod).affinity;
      const own = info.preferredAffinity.length + info.preferredAntiAffinity.length > 0;
      if (!own && handle.cache.podsWithAffinity === 0) return SKIP;
      const scores = new Map<string, number>();
      let any = own;
      for (const node of handle.cache.nodeInfos()) {
        const labels = node.labels;
        const add = (t: AffinityTerm, w: number): void => {
          const v = labels[t.topologyKey];
          if (v !== undefined) bump(scores, `${t.topologyKey}=${v}`, w);
        };
        const existing = own ? node.pods.values() : node.podsWithAffinity.values();
        for (const pi of existing) {
          if (!own) any = true;
          for (const t of info.preferredAffinity) if (matches(t, pi.pod)) add(t, t.weight);
          for (const t of info.preferredAntiAffinity) if (matches(t, pi.pod)) add(t, -t.weight);
          const e = pi.affinity;
          if (hardWeight > 0) for (const t of e.requiredAffinity) if (matches(t, pod)) add(t, hardWeight);
          for (const t of e.preferredAffinity) if (matches(t, pod)) add(t, t.weight);
          for (const t of e.preferredAntiAffinity) if (matches(t, pod)) add(t, -t.weight);
        }
      }
      if (!any || !scores.size) return SKIP;
      state.write('PreScoreInterPodAffinity', scores);
      return null;
    },
    score: (state, _pod, node) => {
      const scores = state.read<Map<string, number>>('PreScoreInterPodAffinity')!;
      const labels = node.labels;
      let sum = 0;
      for (const [pair, w] of scores) {
        const eq = pair.indexOf('=');
        if (labels[pair.slice(0, eq)] === pair.slice(eq + 1)) sum += w;
      }
      return sum;
    },
    normalizeScore: (_s, _p, _n, scores) => {
      let min = Infinity;
      let max = -Infinity;
      for (const s of scores) { if (s < min) min = s; if (s > max) max = s; }
      const diff = max - min;
      for (let i = 0; i < scores.length; i++) scores[i] = diff > 0 ? Math.floor((MAX_NODE_SCORE * (scores[i]! - min)) / diff) : 0;
    },
  };
};
