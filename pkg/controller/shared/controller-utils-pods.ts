// Pod helpers of the workload controllers: activity, readiness and availability, upstream's deletion ranking, and
// the pod a controller creates from its template.
import { isPodReady } from '../../../api/core/v1/pod-conditions.js';
import type { KubeObject, OwnerReference } from '../../../api/types.js';
import { parseTime } from './controller-utils.js';
import { cloneJson } from '../../apimachinery/json-clone.js';

export type Pod = KubeObject;

export const isPodActive = (p: Pod): boolean =>
  p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed' && !p.metadata?.deletionTimestamp;

export const isPodTerminating = (p: Pod): boolean => !!p.metadata?.deletionTimestamp;

const readyCondition = (p: Pod): { status?: string; lastTransitionTime?: string } | undefined =>
  (p.status?.conditions as { type: string; status?: string; lastTransitionTime?: string }[] | undefined)?.find((c) => c.type === 'Ready');

export { isPodReady };

/** Ready for at least minReadySeconds at `nowMs` (upstream podutil.IsPodAvailable). */
export const isPodAvailable = (p: Pod, minReadySeconds: number, nowMs: number): boolean => {
  const c = readyCondition(p);
  if (c?.status !== 'True') return false;
  if (!minReadySeconds) return true;
  const since = parseTime(c.lastTransitionTime);
  return since !== undefined && since + minReadySeconds * 1000 <= nowMs;
};

/** Ms until a ready pod becomes available, or undefined. */
export const msUntilAvailable = (p: Pod, minReadySeconds: number, nowMs: number): number | undefined => {
  const c = readyCondition(p);
  if (c?.status !== 'True' || !minReadySeconds) return undefined;
  const since = parseTime(c.lastTransitionTime);
  return since === undefined ? undefined : Math.max(0, since + minReadySeconds * 1000 - nowMs);
};

const PHASE_RANK: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };
const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

const restarts = (p: Pod): number =>
  Math.max(0, ...((p.status?.containerStatuses as { restartCount?: number }[] | undefined) ?? []).map((c) => c.restartCount ?? 0));

/**
 * Upstream's ActivePodsWithRanks: the pods to delete first sort first. Unassigned before assigned; Pending before
 * Unknown before Running; not ready before ready; lower pod-deletion-cost first; more pods on the same node first
 * (rank); ready for less time first; more restarts first; newer first.
 */
export const compareForDeletion = (rank: Map<Pod, number> = new Map()) => (a: Pod, b: Pod): number => {
  const an = !!a.spec?.nodeName, bn = !!b.spec?.nodeName;
  if (an !== bn) return an ? 1 : -1;
  const ap = PHASE_RANK[a.status?.phase as string] ?? 0, bp = PHASE_RANK[b.status?.phase as string] ?? 0;
  if (ap !== bp) return ap - bp;
  const ar = isPodReady(a), br = isPodReady(b);
  if (ar !== br) return ar ? 1 : -1;
  const ac = Number(a.metadata?.annotations?.[DELETION_COST] ?? 0) || 0, bc = Number(b.metadata?.annotations?.[DELETION_COST] ?? 0) || 0;
  if (ac !== bc) return ac - bc;
  const ark = rank.get(a) ?? 0, brk = rank.get(b) ?? 0;
  if (ark !== brk) return brk - ark;
  if (ar && br) {
    const at = parseTime(readyCondition(a)?.lastTransitionTime) ?? 0, bt = parseTime(readyCondition(b)?.lastTransitionTime) ?? 0;
    if (at !== bt) return bt - at;
  }
  const arr = restarts(a), brr = restarts(b);
  if (arr !== brr) return brr - arr;
  const act = parseTime(a.metadata?.creationTimestamp ?? undefined) ?? 0, bct = parseTime(b.metadata?.creationTimestamp ?? undefined) ?? 0;
  return bct - act;
};

/** Ranks each pod by how many of `related` share its node (upstream getPodsRankedByRelatedPodsOnSameNode). */
export const rankByRelatedOnSameNode = (pods: Pod[], related: Pod[]): Map<Pod, number> => {
  const perNode = new Map<string, number>();
  for (const p of related) if (p.spec?.nodeName && isPodActive(p)) perNode.set(p.spec.nodeName, (perNode.get(p.spec.nodeName) ?? 0) + 1);
  return new Map(pods.map((p) => [p, p.spec?.nodeName ? perNode.get(p.spec.nodeName) ?? 0 : 0]));
};

/** The pod a controller creates from its template (upstream GetPodFromTemplate). */
export const podFromTemplate = (template: KubeObject | undefined, owner: OwnerReference | undefined, extra: { name?: string; generateName?: string; labels?: Record<string, string>; annotations?: Record<string, string>; namespace?: string } = {}): Pod => {
  const t = cloneJson(template ?? {});
  const meta = (t.metadata ?? {}) as KubeObject['metadata'] & object;
  const pod: Pod = {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      ...(extra.name ? { name: extra.name } : { generateName: extra.generateName }),
      ...(extra.namespace ? { namespace: extra.namespace } : {}),
      labels: { ...(meta.labels ?? {}), ...(extra.labels ?? {}) },
      annotations: { ...(meta.annotations ?? {}), ...(extra.annotations ?? {}) },
      ...(meta.finalizers?.length ? { finalizers: [...meta.finalizers] } : {}),
      ...(owner ? { ownerReferences: [owner] } : {}),
    },
    spec: t.spec ?? {},
  };
  if (Object.keys(pod.metadata!.annotations!).length === 0) delete pod.metadata!.annotations;
  return pod;
};

export const podReadyTime = (p: Pod): number | undefined => (isPodReady(p) ? parseTime(readyCondition(p)?.lastTransitionTime) : undefined);
