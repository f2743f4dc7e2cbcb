// NodeResourcesFit (filter on requests; LeastAllocated / MostAllocated score) and NodeResourcesBalancedAllocation.
import type { KubeObject } from '../../client/index.js';
import {
  MAX_NODE_SCORE, QueueingHint, unschedulable, type ClusterEventWithHint, type CycleState, type FilterPlugin, type PreFilterPlugin,
  type PreScorePlugin, type ScorePlugin,
} from '../framework/interface.js';
import type { NodeInfo } from '../node-info.js';
import { CPU, MEMORY, PODS, nodeAllocatable, nonZeroRequests, podRequests, type Resources } from '../resources.js';
import { isAssigned, type Pod } from '../types.js';

const { Queue, QueueSkip } = QueueingHint;

/**
 * NodeResourcesFit's hints, as upstream's: a deleted assigned pod frees room; an assigned pod's update matters only
 * when it shrank a resource the pod asks for; a node matters when the pod fits its allocatable and (on update) some
 * requested resource grew.
 */
const fitEvents = (ignored: (r: string) => boolean): ClusterEventWithHint[] => {
  const afterPod = (pod: Pod, oldObj: KubeObject | undefined, newObj: KubeObject | undefined): QueueingHint => {
    if (!newObj) return oldObj && isAssigned(oldObj) ? Queue : QueueSkip;
    if (!oldObj) return QueueSkip;
    const before = podRequests(oldObj);
    const after = podRequests(newObj);
    return checkedRequests(podRequests(pod), ignored).some(([r]) => (after[r] ?? 0) < (before[r] ?? 0)) ? Queue : QueueSkip;
  };
  const afterNode = (pod: Pod, oldObj: KubeObject | undefined, newObj: KubeObject | undefined): QueueingHint => {
    if (!newObj) return QueueSkip;
    const checked = checkedRequests(podRequests(pod), ignored);
    const alloc = nodeAllocatable(newObj);
    if ((alloc[PODS] ?? 0) < 1 || checked.some(([r, v]) => v > (alloc[r] ?? 0))) return QueueSkip;
    if (!oldObj) return Queue;
    const before = nodeAllocatable(oldObj);
    return alloc[PODS]! > (before[PODS] ?? 0) || checked.some(([r]) => (alloc[r] ?? 0) > (before[r] ?? 0)) ? Queue : QueueSkip;
  };
  return [
    { event: { resource: 'AssignedPod', action: 'Delete' }, hint: afterPod }, { event: { resource: 'AssignedPod', action: 'Update' }, hint: afterPod },
    { event: { resource: 'Node', action: 'Add' }, hint: afterNode }, { event: { resource: 'Node', action: 'Update' }, hint: afterNode },
  ];
};

interface ResourceSpec { name: string; weight: number }

/** Requested amount of `r` on the node with the pod added, using non-zero defaults for cpu and memory. */
const requestedWith = (node: NodeInfo, pod: Pod, r: string): number => {
  if (r === CPU) return node.nonZero.cpu + nonZeroRequests(pod).cpu;
  if (r === MEMORY) return node.nonZero.memory + nonZeroRequests(pod).memory;
  return (node.requested[r] ?? 0) + (podRequests(pod)[r] ?? 0);
};

/** The resources of a request that Filter checks: positive amounts, pods and ignored resources left out. */
export const checkedRequests = (req: Resources, ignored: (r: string) => boolean = () => false): [string, number][] =>
  Object.entries(req).filter(([r, v]) => v > 0 && r !== PODS && !ignored(r));

export const fitsRequest = (checked: [string, number][], node: NodeInfo): string[] | undefined => {
  let reasons: string[] | undefined;
  const alloc = node.allocatable;
  if (node.pods.size + 1 > (alloc[PODS] ?? 0)) (reasons ??= []).push('Too many pods');
  for (let i = 0; i < checked.length; i++) {
    const [r, v] = checked[i]!;
    if (v > (alloc[r] ?? 0) - (node.requested[r] ?? 0)) (reasons ??= []).push(`Insufficient ${r}`);
  }
  return reasons;
};

export const nodeResourcesFit = (args: Record<string, any>): PreFilterPlugin & FilterPlugin & ScorePlugin => {
  const ignoredNames = new Set<string>(args.ignoredResources ?? []);
  const ignoredGroups = new Set<string>(args.ignoredResourceGroups ?? []);
  const ignored = (r: string): boolean => ignoredNames.has(r) || (r.includes('/') && ignoredGroups.has(r.split('/')[0]!));
  const strategy = (args.scoringStrategy?.type ?? 'LeastAllocated') as string;
  const specs = ((args.scoringStrategy?.resources as ResourceSpec[] | undefined) ?? [{ name: CPU, weight: 1 }, { name: MEMORY, weight: 1 }])
    .map((s) => ({ name: s.name, weight: s.weight ?? 1 }));
  const events = fitEvents(ignored);
  const shape = args.scoringStrategy?.requestedToCapacityRatio?.shape as { utilization: number; score: number }[] | undefined;
  const ratioScore = (util: number): number => {
    if (!shape?.length) return 0;
    const pts = [...shape].sort((a, b) => a.utilization - b.utilization);
    if (util <= pts[0]!.utilization) return pts[0]!.score * 10;
    for (let i = 1; i < pts.length; i++) {
      const a = pts[i - 1]!;
      const b = pts[i]!;
      if (util <= b.utilization) return (a.score + ((b.score - a.score) * (util - a.utilization)) / (b.utilization - a.utilization)) * 10;
    }
    return pts[pts.length - 1]!.score * 10;
  };
  return {
    name: 'NodeResourcesFit',
    events: () => events,
    preFilter: (state: CycleState, pod: Pod) => {
      state.write('PreFilterNodeResourcesFit', checkedRequests(podRequests(pod), ignored));
      return null;
    },
    filter: (state, pod, node) => {
      const reasons = fitsRequest(state.read<[string, number][]>('PreFilterNodeResourcesFit') ?? checkedRequests(podRequests(pod), ignored), node);
      return reasons ? unschedulable(...reasons) : null;
    },
    score: (_s, pod, node) => {
      let sum = 0;
      let weights = 0;
      const alloc = node.allocatable;
      for (const { name, weight } of specs) {
        const capacity = alloc[name] ?? 0;
        if (!capacity) continue;
        const requested = requestedWith(node, pod, name);
        let s: number;
        if (strategy === 'MostAllocated') s = requested > capacity ? MAX_NODE_SCORE : Math.floor((requested * MAX_NODE_SCORE) / capacity);
        else if (strategy === 'RequestedToCapacityRatio') s = Math.floor(ratioScore(Math.min(100, (requested * 100) / capacity)));
        else s = requested > capacity ? 0 : Math.floor(((capacity - requested) * MAX_NODE_SCORE) / capacity);
        sum += s * weight;
        weights += weight;
      }
      return weights ? Math.floor(sum / weights) : 0;
    },
  };
};

export const balancedAllocation = (args: Record<string, any>): PreScorePlugin & ScorePlugin => {
  const specs = ((args.resources as ResourceSpec[] | undefined) ?? [{ name: CPU, weight: 1 }, { name: MEMORY, weight: 1 }]);
  return {
    name: 'NodeResourcesBalancedAllocation',
    preScore: () => null,
    score: (_s, pod, node) => {
      const alloc = node.allocatable;
      const fractions: number[] = [];
      for (const { name } of specs) {
        const capacity = alloc[name] ?? 0;
        if (!capacity) continue;
        fractions.push(Math.min(1, requestedWith(node, pod, name) / capacity));
      }
      if (fractions.length < 2) return MAX_NODE_SCORE;
      const mean = fractions.reduce((a, b) => a + b, 0) / fractions.length;
      const std = Math.sqrt(fractions.reduce((a, f) => a + (f - mean) ** 2, 0) / fractions.length);
      return Math.floor((1 - std) * MAX_NODE_SCORE);
    },
  };
};
