// Admission on the node, as upstream's lifecycle predicate admit handler (generalFilter): the scheduler's
// AdmissionCheck run again when a pod arrives, in its order (resources, node affinity and selector, node name, host
// ports), then the NoExecute taints the pod does not tolerate (static pods exempt). Only the first failure is
// reported; a rejected pod is Failed with upstream's reason and message. The checks are the scheduler's own
// (pkg/scheduler), as upstream's kubelet imports the scheduler's.
import type { KubeObject } from '../client/index.js';
import { podMatchesNodeSelectorAndAffinity } from '../scheduler/affinity.js';
import { podInfoOf, portsConflict, type HostPort } from '../scheduler/node-info.js';
import { CPU, MEMORY, PODS, podRequests, toResources, type Resources } from '../scheduler/resources.js';
import { tolerationsTolerate, type Taint, type Toleration } from '../scheduler/types.js';

export interface Rejection { reason: string; message: string }

/** What an admitted pod holds on its node. Its containers' resources and ports never change, so it is taken once. */
export interface Footprint {
  requests: Resources;
  hostPorts: HostPort[];
}

type Container = { resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> } };

/**
 * Requests default to limits. The apiserver's defaulting did so for pods from the API; static pods are read from
 * their files here without it (upstream's file source defaults them), so the kubelet applies that one rule itself.
 */
const withRequestsFromLimits = (pod: KubeObject): KubeObject => {
  const fill = (list: unknown): Container[] | undefined => (list as Container[] | undefined)?.map((c) =>
    (c.resources?.limits ? { ...c, resources: { ...c.resources, requests: { ...c.resources.limits, ...c.resources.requests } } } : c));
  return { ...pod, spec: { ...pod.spec, containers: fill(pod.spec?.containers), initContainers: fill(pod.spec?.initContainers) } };
};

export const footprintOf = (pod: KubeObject): Footprint => ({ requests: podRequests(withRequestsFromLimits(pod)), hostPorts: podInfoOf(pod).ports });

/** Upstream's IsExtendedResourceName: a domain-prefixed name outside kubernetes.io. */
const isExtended = (r: string): boolean => r.includes('/') && !r.includes('kubernetes.io/') && !r.startsWith('requests.');

/** Upstream's IsScalarResourceName: what NodeResourcesFit checks besides cpu, memory, ephemeral-storage and pods. */
const isScalar = (r: string): boolean => r.includes('/') || r.startsWith('hugepages-') || r.startsWith('attachable-volumes-');

const EPHEMERAL_STORAGE = 'ephemeral-storage';

const rejected = (predicate: string, why: string): Rejection => ({ reason: predicate, message: `Pod was rejected: Predicate ${predicate} failed: ${why}` });

/**
 * Upstream's noderesources.Fits: too many pods first, then cpu, memory, ephemeral storage and the scalar resources
 * (extended resources the node does not have left out, as upstream's removeMissingExtendedResources); the first
 * shortfall.
 */
const insufficient = (want: Resources, admitted: Footprint[], allocatable: Resources): Rejection | undefined => {
  const allowedPods = allocatable[PODS] ?? 0;
  const short = (r: string, requested: number, used: number, capacity: number): Rejection =>
    ({ reason: `OutOf${r}`, message: `Pod was rejected: Node didn't have enough resource: ${r}, requested: ${requested}, used: ${used}, capacity: ${capacity}` });
  if (admitted.length + 1 > allowedPods) return short(PODS, 1, admitted.length, allowedPods);
  const used = (r: string): number => admitted.reduce((a, f) => a + (f.requests[r] ?? 0), 0);
  const named = [CPU, MEMORY, EPHEMERAL_STORAGE];
  // Go ranges over the scalar resources in no set order: sorted here, so that the first reported is always the same
  const scalars = Object.keys(want).filter((r) => isScalar(r) && !(isExtended(r) && !(r in allocatable))).sort();
  for (const r of [...named, ...scalars]) {
    const v = want[r] ?? 0;
    if (v > 0 && v > (allocatable[r] ?? 0) - used(r)) return short(r, v, used(r), allocatable[r] ?? 0);
  }
  return undefined;
};

/** Upstream's IsStaticPod: a pod whose config source is not the apiserver. */
const isStatic = (pod: KubeObject): boolean => {
  const source = pod.metadata?.annotations?.['kubernetes.io/config.source'];
  return source !== undefined && source !== 'api';
};

/**
 * Whether the node can take `pod` (of footprint `own`) next to `admitted` (the footprints of the pods it already
 * runs). `node`: the Node as the kubelet has it (its labels, spec.taints and status.allocatable).
 */
export const admitPod = (pod: KubeObject, own: Footprint, admitted: Footprint[], node: KubeObject): Rejection | undefined => {
  const lacking = insufficient(own.requests, admitted, toResources(node.status?.allocatable as Record<string, unknown> | undefined));
  if (lacking) return lacking;
  if (!podMatchesNodeSelectorAndAffinity(pod, node)) return rejected('NodeAffinity', "node(s) didn't match Pod's node affinity/selector");
  const nodeName = pod.spec?.nodeName as string | undefined;
  if (nodeName && nodeName !== node.metadata?.name) return rejected('NodeName', "node(s) didn't match the requested node name");
  const used = admitted.flatMap((f) => f.hostPorts);
  if (own.hostPorts.some((p) => used.some((u) => portsConflict(u, p)))) {
    return rejected('NodePorts', "node(s) didn't have free ports for the requested pod ports");
  }
  // the kubelet minds only the NoExecute taints (the scheduler saw to NoSchedule); static pods are exempt
  if (!isStatic(pod)) {
    const tolerations = pod.spec?.tolerations as Toleration[] | undefined;
    const taints = ((node.spec?.taints ?? []) as Taint[]).filter((t) => t.effect === 'NoExecute');
    if (taints.some((t) => !tolerationsTolerate(tolerations, t))) {
      return rejected('TaintToleration', "node(s) had taints that the pod didn't tolerate");
    }
  }
  return undefined;
};
