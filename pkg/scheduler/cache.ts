// The scheduler's cache, as upstream's backend/cache: nodes and the pods on them, including assumed pods. A pod is
// assumed on its node when the scheduling cycle picks the node, counts there until the informer shows it bound
// (confirmed) and is dropped if its binding fails (forget) or, once the binding finished, if no confirmation
// arrives within the TTL (expired).
import type { Clock } from '../client/index.js';
import { NodeInfo, podInfoOf, sameSchedulingInputs, type PodInfo } from './node-info.js';
import { isAssigned, nodeName, podUid, type Node, type Pod } from './types.js';

interface PodState {
  pod: Pod;
  assumed: boolean;
  bindingFinished: boolean;
  deadline?: number;
}

/** image name (with tag) → size and the nodes holding it, for ImageLocality. */
export interface ImageState { size: number; nodes: Set<string> }

const zoneOf = (node: Node): string => {
  const l = node.metadata?.labels ?? {};
  return `${l['topology.kubernetes.io/region'] ?? l['failure-domain.beta.kubernetes.io/region'] ?? ''}:\x00:${l['topology.kubernetes.io/zone'] ?? l['failure-domain.beta.kubernetes.io/zone'] ?? ''}`;
};

const normalizeImage = (name: string): string => {
  const last = name.split('/').pop() ?? name;
  return last.includes(':') || last.includes('@') ? name : `${name}:latest`;
};

export class SchedulerCache {
  private readonly nodes = new Map<string, NodeInfo>();
  private readonly podStates = new Map<string, PodState>();
  private list?: NodeInfo[];
  readonly images = new Map<string, ImageState>();
  /** Pods (bound or assumed) with any pod (anti-)affinity, and with required anti-affinity: InterPodAffinity skips its scans without them. */
  podsWithAffinity = 0;
  podsWithRequiredAntiAffinity = 0;
  /** "namespace/claim" → pods (bound or assumed) using the claim, cluster-wide (upstream's IsPVCUsedByPods). */
  readonly claimUsers = new Map<string, number>();

  constructor(private readonly clock: Clock, private readonly assumedTtlMs = 30_000) {}

  // Nodes

  addNode(node: Node): void {
    const name = nodeName(node);
    let ni = this.nodes.get(name);
    if (ni) this.removeImages(ni.node);
    else this.nodes.set(name, ni = new NodeInfo());
    if (!ni.node || zoneOf(ni.node) !== zoneOf(node)) this.list = undefined;
    ni.node = node;
    ni.touch();
    this.addImages(node);
  }

  updateNode(node: Node): void { this.addNode(node); }

  removeNode(node: Node): void {
    const name = nodeName(node);
    const ni = this.nodes.get(name);
    if (!ni) return;
    this.removeImages(ni.node);
    // Pods still on it stay accounted until they go (a ghost NodeInfo), as upstream.
    if (ni.pods.size === 0) this.dropNode(name, ni);
    else ni.node = undefined;
    this.list = undefined;
  }

  /**
   * Every node with a Node object, zones interleaved as upstream's nodeTree (the first node of each zone, then the
   * second, ...), so that a search that stops early (percentageOfNodesToScore) still sees every zone.
   */
  nodeInfos(): NodeInfo[] {
    if (this.list) return this.list;
    const zones = new Map<string, NodeInfo[]>();
    for (const ni of this.nodes.values()) {
      if (!ni.node) continue;
      const z = zoneOf(ni.node);
      let list = zones.get(z);
      if (!list) zones.set(z, list = []);
      list.push(ni);
    }
    const out: NodeInfo[] = [];
    const lists = [...zones.values()];
    for (let i = 0; out.length < lists.reduce((n, l) => n + l.length, 0); i++) {
      for (const l of lists) if (i < l.length) out.push(l[i]!);
    }
    this.list = out;
    return out;
  }

  nodeInfo(name: string): NodeInfo | undefined {
    const ni = this.nodes.get(name);
    return ni?.node ? ni : undefined;
  }

  nodeCount(): number { return this.nodeInfos().length; }

  // Pods

  /** The scheduling cycle chose `node` for the pod: count it there now. */
  assumePod(pod: Pod, node: string): Pod {
    const assumed = { ...pod, spec: { ...pod.spec, nodeName: node } };
    const uid = podUid(pod);
    if (this.podStates.has(uid)) throw new Error(`pod ${uid} is in the cache, so can't be assumed`);
    // what the cycle already worked out of the pod (requests, affinity, ports) holds for its assumed copy
    this.addPodToNode(assumed, { ...podInfoOf(pod), pod: assumed });
    this.podStates.set(uid, { pod: assumed, assumed: true, bindingFinished: false });
    return assumed;
  }

  /** The binding call returned: the assumed pod expires after the TTL unless the informer confirms it. */
  finishBinding(pod: Pod): void {
    const st = this.podStates.get(podUid(pod));
    if (!st?.assumed) return;
    st.bindingFinished = true;
    st.deadline = this.clock.now() + this.assumedTtlMs;
  }

  /** The binding failed: the assumed pod leaves its node. */
  forgetPod(pod: Pod): void {
    const uid = podUid(pod);
    const st = this.podStates.get(uid);
    if (!st?.assumed) return;
    this.removePodFromNode(st.pod);
    this.podStates.delete(uid);
  }

  isAssumed(pod: Pod): boolean { return this.podStates.get(podUid(pod))?.assumed ?? false; }

  /** An assigned pod seen by the informer (confirms an assumed one). */
  addPod(pod: Pod): void {
    const uid = podUid(pod);
    const st = this.podStates.get(uid);
    // what the last version worked out (requests, ports, affinity, claims) holds while its inputs are the same: a
    // pod's updates are mostly its status
    const prev = st ? this.nodes.get(st.pod.spec?.nodeName as string)?.pods.get(uid) : undefined;
    const reused = prev && sameSchedulingInputs(prev.pod, pod) ? { ...prev, pod } : undefined;
    if (st) this.removePodFromNode(st.pod);
    this.addPodToNode(pod, reused);
    this.podStates.set(uid, { pod, assumed: false, bindingFinished: false });
  }

  updatePod(_old: Pod, pod: Pod): void { this.addPod(pod); }

  removePod(pod: Pod): void {
    const uid = podUid(pod);
    const st = this.podStates.get(uid);
    if (!st) return;
    this.removePodFromNode(st.pod);
    this.podStates.delete(uid);
  }

  getPod(pod: Pod): Pod | undefined { return this.podStates.get(podUid(pod))?.pod; }

  podCount(): number { return this.podStates.size; }

  /** Drops assumed pods whose binding finished more than the TTL ago without a confirmation; returns them. */
  cleanupExpired(): Pod[] {
    const now = this.clock.now();
    const expired: Pod[] = [];
    for (const [uid, st] of this.podStates) {
      if (!st.assumed || !st.bindingFinished || st.deadline === undefined || st.deadline > now) continue;
      this.removePodFromNode(st.pod);
      this.podStates.delete(uid);
      expired.push(st.pod);
    }
    return expired;
  }

  private addPodToNode(pod: Pod, pi: PodInfo = podInfoOf(pod)): void {
    if (!isAssigned(pod)) return;
    const name = pod.spec.nodeName as string;
    let ni = this.nodes.get(name);
    if (!ni) this.nodes.set(name, ni = new NodeInfo());
    ni.addPodInfo(pi);
    if (pi.hasAffinity) this.podsWithAffinity++;
    if (pi.hasRequiredAntiAffinity) this.podsWithRequiredAntiAffinity++;
    for (const c of pi.claims) this.claimUsers.set(c, (this.claimUsers.get(c) ?? 0) + 1);
  }

  private removePodFromNode(pod: Pod): void {
    const name = pod.spec?.nodeName as string | undefined;
    if (!name) return;
    const ni = this.nodes.get(name);
    if (!ni) return;
    const pi = ni.pods.get(podUid(pod));
    if (pi && ni.removePod(pod)) {
      if (pi.hasAffinity) this.podsWithAffinity--;
      if (pi.hasRequiredAntiAffinity) this.podsWithRequiredAntiAffinity--;
      for (const c of pi.claims) {
        const n = (this.claimUsers.get(c) ?? 1) - 1;
        if (n > 0) this.claimUsers.set(c, n);
        else this.claimUsers.delete(c);
      }
    }
    if (!ni.node && ni.pods.size === 0) this.dropNode(name, ni);
  }

  private dropNode(name: string, ni: NodeInfo): void {
    this.nodes.delete(name);
    ni.release();
  }

  private addImages(node: Node): void {
    for (const img of (node.status?.images ?? []) as { names?: string[]; sizeBytes?: number }[]) {
      for (const n of img.names ?? []) {
        const key = normalizeImage(n);
        let st = this.images.get(key);
        if (!st) this.images.set(key, st = { size: img.sizeBytes ?? 0, nodes: new Set() });
        st.nodes.add(nodeName(node));
      }
    }
  }

  private removeImages(node: Node | undefined): void {
    if (!node) return;
    for (const img of (node.status?.images ?? []) as { names?: string[] }[]) {
      for (const n of img.names ?? []) {
        const key = normalizeImage(n);
        const st = this.images.get(key);
        st?.nodes.delete(nodeName(node));
        if (st && st.nodes.size === 0) this.images.delete(key);
      }
    }
  }
}

export { normalizeImage };
