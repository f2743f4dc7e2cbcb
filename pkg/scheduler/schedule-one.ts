// The scheduling algorithm of one pod (upstream's schedulePod): PreFilter, then Filter over the nodes, stopping
// once enough feasible nodes are found (percentageOfNodesToScore), the extenders' filters, then PreScore/Score plus
// the extenders' priorities and the best node (ties broken at random). Synchronous without extenders: the cache
// cannot change under it; an extender's HTTP round trip lets informer events in, as upstream's live snapshot would not.
import type { Diagnosis } from './diagnosis.js';
import { MAX_EXTENDER_PRIORITY, type HttpExtender } from './extender.js';
import { Code, CycleState, MAX_NODE_SCORE, unresolvable, unschedulable, type Status } from './framework/interface.js';
import type { Framework } from './framework/runtime.js';
import type { NodeInfo } from './node-info.js';
import { podKey, podPriority, type Pod } from './types.js';

export const MIN_FEASIBLE_NODES_TO_FIND = 100;
export const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

/** How many feasible nodes to look for before scoring (upstream's numFeasibleNodesToFind). */
export const numFeasibleNodesToFind = (numAllNodes: number, percentage: number): number => {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return numAllNodes;
  let pct = percentage;
  if (pct <= 0) pct = Math.max(MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND, 50 - Math.floor(numAllNodes / 125));
  if (pct >= 100) return numAllNodes;
  return Math.max(MIN_FEASIBLE_NODES_TO_FIND, Math.floor((numAllNodes * pct) / 100));
};

export type ScheduleResult =
  | { ok: true; node: string; evaluated: number; feasible: number; state: CycleState }
  | { ok: false; diagnosis: Diagnosis; state: CycleState; numAllNodes: number; error?: Status };

export interface AlgorithmDeps {
  nodes: NodeInfo[];
  nominatedPods(node: string): Pod[];
  percentageOfNodesToScore: number;
  random: () => number;
  /** Rotates where filtering starts, so pods spread over all nodes. */
  nextStartIndex: { value: number };
  extenders: HttpExtender[];
  logger?: { warn(o: object, msg: string): void };
}

/** Upstream's findNodesThatPassExtenders: each interested extender narrows the feasible nodes in turn. */
const filterWithExtenders = async (pod: Pod, feasible: NodeInfo[], d: AlgorithmDeps, diagnosis: Diagnosis): Promise<NodeInfo[] | Status> => {
  let nodes = feasible;
  for (const e of d.extenders) {
    if (!nodes.length) break;
    if (!e.isInterested(pod)) continue;
    let out;
    try {
      out = await e.filter(pod, nodes);
    } catch (err) {
      if (e.ignorable) { d.logger?.warn({ err, extender: e.name, pod: podKey(pod) }, 'skipping extender as it returned error'); continue; }
      return { code: 1, reasons: [(err as Error).message], error: err };
    }
    for (const [n, msg] of Object.entries(out.failedAndUnresolvable)) diagnosis.nodeStatuses.set(n, unresolvable(msg));
    for (const [n, msg] of Object.entries(out.failed)) if (!(n in out.failedAndUnresolvable)) diagnosis.nodeStatuses.set(n, unschedulable(msg));
    nodes = out.nodes;
  }
  return nodes;
};

/** Adds each interested extender's priorities (0..10 × weight, scaled to 0..100); a failing one is skipped, as upstream. */
const scoreWithExtenders = async (pod: Pod, nodes: NodeInfo[], totals: number[], d: AlgorithmDeps): Promise<void> => {
  const index = new Map(nodes.map((n, i) => [n.name, i]));
  await Promise.all(d.extenders.filter((e) => e.prioritizes && e.isInterested(pod)).map(async (e) => {
    try {
      for (const [host, score] of await e.prioritize(pod, nodes)) {
        const i = index.get(host);
        if (i !== undefined) totals[i]! += score * e.weight * (MAX_NODE_SCORE / MAX_EXTENDER_PRIORITY);
      }
    } catch (err) {
      d.logger?.warn({ err, extender: e.name, pod: podKey(pod) }, 'prioritizing with extender failed');
    }
  }));
};

export const schedulePod = async (fw: Framework, pod: Pod, d: AlgorithmDeps): Promise<ScheduleResult> => {
  const state = new CycleState();
  state.recordPluginMetrics = fw.sampleCycle();
  const all = d.nodes;
  const diagnosis: Diagnosis = { nodeStatuses: new Map(), unschedulablePlugins: new Set() };
  if (!all.length) return { ok: false, diagnosis, state, numAllNodes: 0 };
  const pre = fw.runPreFilter(state, pod, all);
  if (pre.status) {
    if (pre.status.code === 1) return { ok: false, diagnosis, state, numAllNodes: all.length, error: pre.status };
    diagnosis.preFilterMsg = pre.status.reasons.join(', ');
    diagnosis.unschedulablePlugins.add(pre.status.plugin ?? '');
    for (const n of all) diagnosis.nodeStatuses.set(n.name, pre.status);
    return { ok: false, diagnosis, state, numAllNodes: all.length };
  }
  // A nominated node (from an earlier preemption) is tried first.
  const nominated = pod.status?.nominatedNodeName as string | undefined;
  const prio = podPriority(pod);
  const key = podKey(pod);
  const nominatedFor = (node: string): Pod[] => {
    const list = d.nominatedPods(node);
    return list.length ? list.filter((p) => podKey(p) !== key && podPriority(p) >= prio) : list;
  };
  if (nominated) {
    const ni = all.find((n) => n.name === nominated);
    if (ni && (!pre.nodeNames || pre.nodeNames.has(nominated))) {
      // a pass of Filter over one node, timed as one (upstream's findNodesThatPassFilters of the nominated node)
      const t = performance.now();
      const s = fw.runFilterWithNominatedPods(state, pod, ni, nominatedFor(nominated));
      fw.filterDone(s?.code === Code.Error ? Code.Error : Code.Success, t);
      if (!s) return { ok: true, node: nominated, evaluated: 1, feasible: 1, state };
    }
  }
  const candidates = pre.nodeNames ? all.filter((n) => pre.nodeNames!.has(n.name)) : all;
  const want = pre.nodeNames ? candidates.length : numFeasibleNodesToFind(all.length, d.percentageOfNodesToScore);
  let feasible: NodeInfo[] = [];
  const n = candidates.length;
  const start = pre.nodeNames ? 0 : d.nextStartIndex.value % Math.max(1, n);
  let evaluated = 0;
  let filterError: Status | undefined;
  const tFilter = performance.now();
  for (let i = 0; i < n && feasible.length < want; i++) {
    const ni = candidates[(start + i) % n]!;
    evaluated++;
    const s = fw.runFilterWithNominatedPods(state, pod, ni, nominatedFor(ni.name));
    if (!s) feasible.push(ni);
    else {
      if (s.code === Code.Error) { filterError = s; break; }
      diagnosis.nodeStatuses.set(ni.name, s);
      diagnosis.unschedulablePlugins.add(s.plugin ?? '');
    }
  }
  fw.filterDone(filterError ? Code.Error : Code.Success, tFilter);
  if (filterError) return { ok: false, diagnosis, state, numAllNodes: all.length, error: filterError };
  if (!pre.nodeNames) d.nextStartIndex.value = (start + evaluated) % Math.max(1, n);
  if (pre.nodeNames) {
    // nodes PreFilter ruled out count as rejected by it
    for (const ni of all) if (!pre.nodeNames.has(ni.name)) diagnosis.nodeStatuses.set(ni.name, { code: 3, reasons: ["node(s) didn't satisfy plugin(s) [NodeAffinity]"], plugin: 'NodeAffinity' });
    if (pre.nodeNames.size < all.length) diagnosis.unschedulablePlugins.add('NodeAffinity');
  }
  if (feasible.length && d.extenders.length) {
    const passed = await filterWithExtenders(pod, feasible, d, diagnosis);
    if (!Array.isArray(passed)) return { ok: false, diagnosis, state, numAllNodes: all.length, error: passed };
    feasible = passed;
  }
  if (!feasible.length) return { ok: false, diagnosis, state, numAllNodes: all.length };
  if (feasible.length === 1) return { ok: true, node: feasible[0]!.name, evaluated, feasible: 1, state };
  const ps = fw.runPreScore(state, pod, feasible);
  if (ps) return { ok: false, diagnosis, state, numAllNodes: all.length, error: ps };
  const scores = fw.runScore(state, pod, feasible);
  if (d.extenders.length) await scoreWithExtenders(pod, feasible, scores, d);
  // Highest score; ties broken uniformly at random (reservoir sampling, as upstream's selectHost).
  let best = 0;
  let ties = 1;
  for (let i = 1; i < scores.length; i++) {
    if (scores[i]! > scores[best]!) { best = i; ties = 1; } else if (scores[i] === scores[best]) {
      ties++;
      if (d.random() * ties < 1) best = i;
    }
  }
  return { ok: true, node: feasible[best]!.name, evaluated, feasible: feasible.length, state };
};
