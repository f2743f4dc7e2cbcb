// NodeInfo: a node with the pods on it (bound or assumed) and what they add up to, as upstream's framework.NodeInfo.
import { hasAffinity, podAffinityInfo, type PodAffinityInfo } from './affinity.js';
import { CPU, MEMORY, PODS, nodeAllocatable, nonZeroRequests, podRequests, type Resources } from './resources.js';
import { nodeName, podUid, type Node, type Pod } from './types.js';
import { podClaimKeys } from './volumes.js';
import { jsonEqual } from '../apimachinery/json-equal.js';

export interface HostPort { protocol: string; ip: string; port: number }

export interface PodInfo {
  pod: Pod;
  requests: Resources;
  nonZero: { cpu: number; memory: number };
  ports: HostPort[];
  affinity: PodAffinityInfo;
  hasAffinity: boolean;
  hasRequiredAntiAffinity: boolean;
  /** "namespace/claim" of the PersistentVolumeClaims it uses (VolumeRestrictions' ReadWriteOncePod check). */
  claims: string[];
}

const hostPorts = (pod: Pod): HostPort[] => {
  const out: HostPort[] = [];
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
    for (const p of c.ports ?? []) {
      if (!p.hostPort) continue;
      out.push({ protocol: p.protocol || 'TCP', ip: p.hostIP || '0.0.0.0', port: p.hostPort });
    }
  }
  return out;
};

export const podInfoOf = (pod: Pod): PodInfo => {
  const affinity = podAffinityInfo(pod);
  return {
    pod, requests: podRequests(pod), nonZero: nonZeroRequests(pod), ports: hostPorts(pod), affinity,
    hasAffinity: hasAffinity(affinity), hasRequiredAntiAffinity: affinity.requiredAntiAffinity.length > 0, claims: podClaimKeys(pod),
  };
};

/**
 * Whether two versions of a pod give the same PodInfo: its containers (requests, ports), pod-level resources and
 * overhead, affinity (its terms may take label values, matchLabelKeys), volumes (claims) and labels are unchanged.
 */
export const sameSchedulingInputs = (a: Pod, b: Pod): boolean =>
  jsonEqual(a.spec?.containers, b.spec?.containers) && jsonEqual(a.spec?.initContainers, b.spec?.initContainers) &&
  jsonEqual(a.spec?.resources, b.spec?.resources) && jsonEqual(a.spec?.overhead, b.spec?.overhead) &&
  jsonEqual(a.spec?.affinity, b.spec?.affinity) && jsonEqual(a.spec?.volumes, b.spec?.volumes) &&
  jsonEqual(a.metadata?.labels, b.metadata?.labels);

export const portsConflict = (a: HostPort, b: HostPort): boolean =>
  a.port === b.port && a.protocol === b.protocol && (a.ip === b.ip || a.ip === '0.0.0.0' || b.ip === '0.0.0.0');

/**
 * Generations come from one counter (upstream's nextGeneration): a value names one state of one node's pods,
 * shared only by a clone taken at that state, so a memo keyed by slot and generation is never wrong for a node.
 */
let lastGeneration = 0;
const nextGeneration = (): number => ++lastGeneration;

/** Slots index NodeMemo's arrays; a node the cache drops gives its slot back (a reuse only costs a recount). */
const freeSlots: number[] = [];
let slotCount = 0;

export class NodeInfo {
  private nodeObj?: Node;
  /** status.allocatable of the node, parsed once per Node object. */
  allocatable: Resources = {};
  readonly pods = new Map<string, PodInfo>();
  requested: Resources = {};
  /** cpu, memory and pods of `allocatable` and cpu, memory of `requested` as plain fields: Filter and Score read them per node. */
  allocCpu = 0;
  allocMemory = 0;
  allocPods = 0;
  reqCpu = 0;
  reqMemory = 0;
  /** The pods' non-zero cpu and memory requests (Score reads them per node). */
  nonZeroCpu = 0;
  nonZeroMemory = 0;
  /** pods.size, read per node by Filter without loading the map */
  podCount = 0;
  usedPorts: HostPort[] = [];
  /** Pods here with any (anti-)affinity, and those with required anti-affinity (InterPodAffinity's fast paths). */
  podsWithAffinity = new Set<PodInfo>();
  podsWithRequiredAntiAffinity = new Set<PodInfo>();
  /** New on every change (nextGeneration). */
  generation = nextGeneration();
  /** This node's index in every NodeMemo (a clone shares it). */
  slot = freeSlots.pop() ?? slotCount++;
  /** The Node's labels (Filter and Score read them per node: one load instead of three). */
  labels: Readonly<Record<string, string>> = {};
  name = '';

  constructor(node?: Node) { this.node = node; }

  get node(): Node | undefined { return this.nodeObj; }
  set node(n: Node | undefined) {
    this.nodeObj = n;
    this.allocatable = n ? nodeAllocatable(n) : {};
    this.allocCpu = this.allocatable[CPU] ?? 0;
    this.allocMemory = this.allocatable[MEMORY] ?? 0;
    this.allocPods = this.allocatable[PODS] ?? 0;
    this.labels = (n?.metadata?.labels as Record<string, string> | undefined) ?? {};
    if (n) this.name = nodeName(n);
  }

  addPod(pod: Pod): void { this.addPodInfo(podInfoOf(pod)); }

  addPodInfo(pi: PodInfo): void {
    const uid = podUid(pi.pod);
    if (this.pods.has(uid)) this.removePod(pi.pod);
    this.pods.set(uid, pi);
    for (const [k, v] of Object.entries(pi.requests)) this.requested[k] = (this.requested[k] ?? 0) + v;
    this.reqCpu = this.requested[CPU] ?? 0;
    this.reqMemory = this.requested[MEMORY] ?? 0;
    this.nonZeroCpu += pi.nonZero.cpu;
    this.nonZeroMemory += pi.nonZero.memory;
    this.podCount = this.pods.size;
    if (pi.ports.length) this.usedPorts = [...this.usedPorts, ...pi.ports];
    if (pi.hasAffinity) this.podsWithAffinity.add(pi);
    if (pi.hasRequiredAntiAffinity) this.podsWithRequiredAntiAffinity.add(pi);
    this.generation = nextGeneration();
  }

  /** The Node object changed. */
  touch(): void { this.generation = nextGeneration(); }

  /** The cache dropped this node: its slot goes to the next one. */
  release(): void { freeSlots.push(this.slot); }

  removePod(pod: Pod): boolean {
    const uid = podUid(pod);
    const pi = this.pods.get(uid);
    if (!pi) return false;
    this.pods.delete(uid);
    for (const [k, v] of Object.entries(pi.requests)) this.requested[k] = (this.requested[k] ?? 0) - v;
    this.reqCpu = this.requested[CPU] ?? 0;
    this.reqMemory = this.requested[MEMORY] ?? 0;
    this.nonZeroCpu -= pi.nonZero.cpu;
    this.nonZeroMemory -= pi.nonZero.memory;
    this.podCount = this.pods.size;
    if (pi.ports.length) this.usedPorts = this.usedPorts.filter((p) => !pi.ports.includes(p));
    this.podsWithAffinity.delete(pi);
    this.podsWithRequiredAntiAffinity.delete(pi);
    this.generation = nextGeneration();
    return true;
  }

  /** A copy whose pods can be added and removed without touching this one (preemption's what-ifs). */
  clone(): NodeInfo {
    const c = new NodeInfo(this.node);
    for (const [k, v] of this.pods) c.pods.set(k, v);
    c.requested = { ...this.requested };
    c.reqCpu = this.reqCpu;
    c.reqMemory = this.reqMemory;
    c.nonZeroCpu = this.nonZeroCpu;
    c.nonZeroMemory = this.nonZeroMemory;
    c.podCount = this.podCount;
    c.usedPorts = [...this.usedPorts];
    c.podsWithAffinity = new Set(this.podsWithAffinity);
    c.podsWithRequiredAntiAffinity = new Set(this.podsWithRequiredAntiAffinity);
    c.generation = this.generation;
    c.release();
    c.slot = this.slot;
    return c;
  }
}

/**
 * A number per node derived from its pods (PodTopologySpread's pods matching one selector), valid while they stay
 * the same. Kept in typed arrays by NodeInfo.slot: a cycle reads it for hundreds of nodes, and a map on each node
 * cost several cache misses per read.
 */
export class NodeMemo {
  private gens = new Float64Array(64);
  private values = new Float64Array(64);

  get(ni: NodeInfo): number | undefined {
    const s = ni.slot;
    return s < this.gens.length && this.gens[s] === ni.generation ? this.values[s] : undefined;
  }

  set(ni: NodeInfo, value: number): void {
    const s = ni.slot;
    if (s >= this.gens.length) {
      const size = Math.max(this.gens.length * 2, s + 1);
      const gens = new Float64Array(size);
      const values = new Float64Array(size);
      gens.set(this.gens);
      values.set(this.values);
      this.gens = gens;
      this.values = values;
    }
    this.gens[s] = ni.generation;
    this.values[s] = value;
  }
}
