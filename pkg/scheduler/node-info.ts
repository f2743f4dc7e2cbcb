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
  nonZero = { cpu: 0, memory: 0 };
  usedPorts: HostPort[] = [];
  /** Pods here with any (anti-)affinity, and those with required anti-affinity (InterPodAffinity's fast paths). */
  podsWithAffinity = new Set<PodInfo>();
  podsWithRequiredAntiAffinity = new Set<PodInfo>();
  /** Bumped on every change. */
  generation = 0;
  /** The Node's labels (Filter and Score read them per node: one load instead of three). */
  labels: Readonly<Record<string, string>> = {};
  /**
   * Values plugins derive from this node's pods (PodTopologySpread's matching pods per selector), each kept with
   * the generation it was computed at: valid while no pod came or went.
   */
  readonly memo = new Map<string, { generation: number; value: number }>();

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
    this.nonZero.cpu += pi.nonZero.cpu;
    this.nonZero.memory += pi.nonZero.memory;
    if (pi.ports.length) this.usedPorts = [...this.usedPorts, ...pi.ports];
    if (pi.hasAffinity) this.podsWithAffinity.add(pi);
    if (pi.hasRequiredAntiAffinity) this.podsWithRequiredAntiAffinity.add(pi);
    this.generation++;
  }

  removePod(pod: Pod): boolean {
    const uid = podUid(pod);
    const pi = this.pods.get(uid);
    if (!pi) return false;
    this.pods.delete(uid);
    for (const [k, v] of Object.entries(pi.requests)) this.requested[k] = (this.requested[k] ?? 0) - v;
    this.reqCpu = this.requested[CPU] ?? 0;
    this.reqMemory = this.requested[MEMORY] ?? 0;
    this.nonZero.cpu -= pi.nonZero.cpu;
    this.nonZero.memory -= pi.nonZero.memory;
    if (pi.ports.length) this.usedPorts = this.usedPorts.filter((p) => !pi.ports.includes(p));
    this.podsWithAffinity.delete(pi);
    this.podsWithRequiredAntiAffinity.delete(pi);
    this.generation++;
    return true;
  }

  /** A copy whose pods can be added and removed without touching this one (preemption's what-ifs). */
  clone(): NodeInfo {
    const c = new NodeInfo(this.node);
    for (const [k, v] of this.pods) c.pods.set(k, v);
    c.requested = { ...this.requested };
    c.reqCpu = this.reqCpu;
    c.reqMemory = this.reqMemory;
    c.nonZero = { ...this.nonZero };
    c.usedPorts = [...this.usedPorts];
    c.podsWithAffinity = new Set(this.podsWithAffinity);
    c.podsWithRequiredAntiAffinity = new Set(this.podsWithRequiredAntiAffinity);
    c.generation = this.generation;
    return c;
  }
}
