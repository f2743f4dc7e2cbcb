// Admission on the node, as upstream's lifecycle predicate admit handler runs the scheduler's general predicates
// again when a pod arrives: node name, nodeSelector, host ports free, and resources (cpu, memory, pods) within
// allocatable given the pods already admitted. A rejected pod is Failed with upstream's reason and message.
import type { KubeObject } from '../client/index.js';
import { parseQuantity, quantityMilliValue, quantityValue } from '../apimachinery/quantity.js';

export interface Rejection { reason: string; message: string }

interface SpecContainer { resources?: { requests?: Record<string, string>; limits?: Record<string, string> }; ports?: { hostPort?: number; protocol?: string; hostIP?: string }[]; restartPolicy?: string }

const parse = (v: string | undefined, milli: boolean): number => {
  if (!v) return 0;
  try { const q = parseQuantity(v); return milli ? quantityMilliValue(q) : quantityValue(q); } catch { return 0; }
};

/** Effective requests as upstream computes them: max(sum of containers, each init container), plus overhead. */
export const podRequests = (pod: KubeObject): { cpu: number; memory: number } => {
  const req = (c: SpecContainer, r: string): string | undefined => c.resources?.requests?.[r] ?? c.resources?.limits?.[r];
  const containers = (pod.spec?.containers ?? []) as SpecContainer[];
  const inits = (pod.spec?.initContainers ?? []) as SpecContainer[];
  const sidecars = inits.filter((c) => c.restartPolicy === 'Always');
  const sum = (list: SpecContainer[], r: string, milli: boolean): number => list.reduce((a, c) => a + parse(req(c, r), milli), 0);
  const one = (r: string, milli: boolean): number => {
    let total = sum(containers, r, milli) + sum(sidecars, r, milli);
    for (const c of inits) if (c.restartPolicy !== 'Always') total = Math.max(total, parse(req(c, r), milli));
    return total + parse((pod.spec?.overhead as Record<string, string> | undefined)?.[r], milli);
  };
  return { cpu: one('cpu', true), memory: one('memory', false) };
};

const hostPorts = (pod: KubeObject): string[] => [...((pod.spec?.initContainers ?? []) as SpecContainer[]), ...((pod.spec?.containers ?? []) as SpecContainer[])]
  .flatMap((c) => c.ports ?? []).filter((p) => p.hostPort).map((p) => `${p.protocol ?? 'TCP'}/${p.hostPort}`);

/** What an admitted pod holds on its node. Its containers' resources and ports never change, so it is taken once. */
export interface Footprint {
  requests: { cpu: number; memory: number };
  hostPorts: string[];
}

export const footprintOf = (pod: KubeObject): Footprint => ({ requests: podRequests(pod), hostPorts: hostPorts(pod) });

/** Whether the node can take `pod` (of footprint `own`) next to `admitted` (the footprints of the pods it already runs). */
export const admitPod = (pod: KubeObject, own: Footprint, admitted: Footprint[], node: { labels: Record<string, string>; allocatable: { cpu: string; memory: string; pods: number } }): Rejection | undefined => {
  const selector = (pod.spec?.nodeSelector ?? {}) as Record<string, string>;
  if (Object.entries(selector).some(([k, v]) => node.labels[k] !== v)) {
    return { reason: 'NodeAffinity', message: "Pod was rejected: Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector" };
  }
  const used = new Set(admitted.flatMap((f) => f.hostPorts));
  if (own.hostPorts.some((p) => used.has(p))) {
    return { reason: 'NodePorts', message: "Pod was rejected: Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports" };
  }
  if (admitted.length + 1 > node.allocatable.pods) {
    return { reason: 'OutOfpods', message: `Pod was rejected: Node didn't have enough resource: pods, requested: 1, used: ${admitted.length}, capacity: ${node.allocatable.pods}` };
  }
  const want = own.requests;
  const have = admitted.map((f) => f.requests).reduce((a, r) => ({ cpu: a.cpu + r.cpu, memory: a.memory + r.memory }), { cpu: 0, memory: 0 });
  const cap = { cpu: parse(node.allocatable.cpu, true), memory: parse(node.allocatable.memory, false) };
  for (const r of ['cpu', 'memory'] as const) {
    if (want[r] > 0 && have[r] + want[r] > cap[r]) {
      return { reason: `OutOf${r}`, message: `Pod was rejected: Node didn't have enough resource: ${r}, requested: ${want[r]}, used: ${have[r]}, capacity: ${cap[r]}` };
    }
  }
  return undefined;
};
