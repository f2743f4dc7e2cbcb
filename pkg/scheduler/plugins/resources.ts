// NodeResourcesFit (filter on requests; LeastAllocated / MostAllocated score) and NodeResourcesBalancedAllocation.
import type { KubeObject } from '../../client/index.js';
import {
  MAX_NODE_SCORE, QueueingHint, unschedulable, type ClusterEventWithHint, type FilterPlugin, type PreScorePlugin, type ScorePlugin,
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
    return checkedList(checkedRequests(podRequests(pod), ignored)).some(([r]) => (after[r] ?? 0) < (before[r] ?? 0)) ? Queue : QueueSkip;
  };
  const afterNode = (pod: Pod, oldObj: KubeObject | undefined, newObj: KubeObject | undefined): QueueingHint => {
    if (!newObj) return QueueSkip;
    const checked = checkedList(checkedRequests(podRequests(pod), ignored));
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
const requestedWith = (node: NodeInfo, pod: Pod, nonZero: { cpu: number; memory: number }, r: string): number => {
  if (r === CPU) return node.nonZeroCpu + nonZero.cpu;
  if (r === MEMORY) return node.nonZeroMemory + nonZero.memory;
  return (node.requested[r] ?? 0) + (podRequests(pod)[r] ?? 0);
};

/** The resources of a request that Filter checks (positive amounts, pods and ignored resources left out), cpu and memory apart. */
interface Checked { cpu: number; memory: number; others: [string, number][] }

const checkedRequests = (req: Resources, ignored: (r: string) => boolean): Checked => {
  const c: Checked = { cpu: 0, memory: 0, others: [] };
  for (const [r, v] of Object.entries(req)) {
    if (v <= 0 || r === PODS || ignored(r)) continue;
    if (r === CPU) c.cpu = v;
    else if (r === MEMORY) c.memory = v;
    else c.others.push([r, v]);
  }
  return c;
};

const checkedList = (c: Checked): [string, number][] =>
  [...(c.cpu ? [[CPU, c.cpu] as [string, number]] : []), ...(c.memory ? [[MEMORY, c.memory] as [string, number]] : []), ...c.others];

/** Upstream's fitsRequest, with its reasons in its order (pods, cpu, memory, the others). */
const fitsRequest = (c: Checked, node: NodeInfo): string[] | undefined => {
  let reasons: string[] | undefined;
  if (node.podCount + 1 > node.allocPods) (reasons ??= []).push('Too many pods');
  if (c.cpu > node.allocCpu - node.reqCpu) (reasons ??= []).push(`Insufficient ${CPU}`);
  if (c.memory > node.allocMemory - node.reqMemory) (reasons ??= []).push(`Insufficient ${MEMORY}`);
  for (let i = 0; i < c.others.length; i++) {
    const [r, v] = c.others[i]!;
    if (v > (node.allocatable[r] ?? 0) - (node.requested[r] ?? 0)) (reasons ??= []).push(`Insufficient ${r}`);
  }
  return reasons;
};

const capacityOf = (node: NodeInfo, r: string): number =>
  r === CPU ? node.allocCpu : r === MEMORY ? node.allocMemory : node.allocatable[r] ?? 0;

/** The pod's non-zero requests, looked up once per pod rather than once per node. */
const lastNonZero = (): ((pod: Pod) => { cpu: number; memory: number }) => {
  let pod: Pod | undefined;
  let value = { cpu: 0, memory: 0 };
  return (p) => {
    if (p !== pod) { pod = p; value = nonZeroRequests(p); }
    return value;
  };
};

export const nodeResourcesFit = (args: Record<string, any>): FilterPlugin & ScorePlugin => {
  const ignoredNames = new Set<string>(args.ignoredResources ?? []);
  const ignoredGroups = new Set<string>(args.ignoredResourceGroups ?? []);
  const ignored = (r: string): boolean => ignoredNames.has(r) || (r.includes('/') && ignoredGroups.has(r.split('/')[0]!));
  const strategy = (args.scoringStrategy?.type ?? 'LeastAllocated') as string;
  const specs = ((args.scoringStrategy?.resources as ResourceSpec[] | undefined) ?? [{ name: CPU, weight: 1 }, { name: MEMORY, weight: 1 }])
    .map((s) => ({ name: s.name, weight: s.weight ?? 1 }));
  const events = fitEvents(ignored);
  // the shape sorted once; utilization 0..100 → score 0..100 (the shape's scores are 0..10)
  const shape = [...((args.scoringStrategy?.requestedToCapacityRatio?.shape ?? []) as { utilization: number; score: number }[])]
    .sort((a, b) => a.utilization - b.utilization);
  const ratioScore = (util: number): number => {
    if (!shape.length) return 0;
    if (util <= shape[0]!.utilization) return shape[0]!.score * 10;
    for (let i = 1; i < shape.length; i++) {
      const a = shape[i - 1]!;
      const b = shape[i]!;
      if (util <= b.utilization) return (a.score + ((b.score - a.score) * (util - a.utilization)) / (b.utilization - a.utilization)) * 10;
    }
    return shape[shape.length - 1]!.score * 10;
  };
  const nonZeroOf = lastNonZero();
  // the pod of the running cycle's checks, so that Filter does not look its state up on every node
  let checkedPod: Pod | undefined;
  let checked: Checked = { cpu: 0, memory: 0, others: [] };
  const checkedOf = (pod: Pod): Checked => {
    if (pod !== checkedPod) { checkedPod = pod; checked = checkedRequests(podRequests(pod), ignored); }
    return checked;
  };
  return {
    name: 'NodeResourcesFit',
    events: () => events,
    filter: (_state, pod, node) => {
      const reasons = fitsRequest(checkedOf(pod), node);
      return reasons ? unschedulable(...reasons) : null;
    },
    score: (_s, pod, node) => {
      const nonZero = nonZeroOf(pod);
      let sum = 0;
      let weights = 0;
      for (let i = 0; i < specs.length; i++) {
        const { name, weight } = specs[i]!;
        const capacity = capacityOf(node, name);
        if (!capacity) continue;
        const requested = requestedWith(node, pod, nonZero, name);
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
  const nonZeroOf = lastNonZero();
  const fractions = new Float64Array(specs.length);
  return {
    name: 'NodeResourcesBalancedAllocation',
    preScore: () => null,
    score: (_s, pod, node) => {
      const nonZero = nonZeroOf(pod);
      let n = 0;
      for (let i = 0; i < specs.length; i++) {
        const name = specs[i]!.name;
        const capacity = capacityOf(node, name);
        if (capacity) fractions[n++] = Math.min(1, requestedWith(node, pod, nonZero, name) / capacity);
      }
      // as upstream: two resources are half their difference apart; more take the standard deviation
      let std = 0;
      if (n === 2) std = Math.abs((fractions[0]! - fractions[1]!) / 2);
      else if (n > 2) {
        let mean = 0;
        for (let i = 0; i < n; i++) mean += fractions[i]!;
        mean /= n;
        let variance = 0;
        for (let i = 0; i < n; i++) variance += (fractions[i]! - mean) ** 2;
        std = Math.sqrt(variance / n);
      }
      return Math.floor((1 - std) * MAX_NODE_SCORE);
    },
  };
};
