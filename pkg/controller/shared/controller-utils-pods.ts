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

/** The pod-deletion-cost annotation as an int32; 0 when absent or not a plain decimal (no '+', no leading zeros). */
export const deletionCost = (p: Pod): number => {
  const v = p.metadata?.annotations?.[DELETION_COST];
  if (v === undefined || !/^(-\d+|0|[1-9]\d*)$/.test(v)) return 0;
  const n = Number(v);
  return n >= -2147483648 && n <= 2147483647 ? n : 0;
};

/** floor(log2(ns)) of a positive duration, -1 otherwise: the bucket a timestamp falls in seen from now. */
const logBucket = (ms: number): number => {
  const ns = ms * 1e6;
  if (!(ns > 0)) return -1;
  let r = Math.floor(Math.log2(ns));
  // Math.log2 may be off by one ulp next to a power of two
  if (2 ** r > ns) r--;
  else if (2 ** (r + 1) <= ns) r++;
  return r;
};

/**
 * Which of two timestamps (ms, undefined for none) goes first, the later one preferred: a missing time counts as the
 * latest. With `nowMs`, times in the same power-of-two bucket of age tie and the pods' UIDs decide, so that pods of
 * one age are picked at random rather than strictly newest first (upstream LogarithmicScaleDown).
 */
const laterFirst = (a: Pod, b: Pod, ta: number | undefined, tb: number | undefined, nowMs: number | undefined): number => {
  if (ta === tb) return 0;
  if (nowMs === undefined || ta === undefined || tb === undefined) {
    if (ta === undefined || tb === undefined) return ta === undefined ? -1 : 1;
    return tb - ta;
  }
  const diff = logBucket(nowMs - ta) - logBucket(nowMs - tb);
  if (diff !== 0) return diff;
  const ua = a.metadata?.uid ?? '', ub = b.metadata?.uid ?? '';
  return ua < ub ? -1 : ua > ub ? 1 : 0;
};

/**
 * Upstream's ActivePodsWithRanks: the pods to delete first sort first. Unassigned before assigned; Pending before
 * Unknown before Running; not ready before ready; lower pod-deletion-cost first; more related pods on the same node
 * first (rank); ready for less time first; more restarts first; newer first. `nowMs` is the reference of the
 * logarithmic comparison of ready and creation times; without it they compare exactly.
 */
export const compareForDeletion = (rank: Map<Pod, number> = new Map(), nowMs?: number) => (a: Pod, b: Pod): number => {
  const an = a.spec?.nodeName ?? '', bn = b.spec?.nodeName ?? '';
  if (an !== bn && (!an || !bn)) return an ? 1 : -1;
  const ap = PHASE_RANK[a.status?.phase as string] ?? 0, bp = PHASE_RANK[b.status?.phase as string] ?? 0;
  if (ap !== bp) return ap - bp;
  const ar = isPodReady(a), br = isPodReady(b);
  if (ar !== br) return ar ? 1 : -1;
  const ac = deletionCost(a), bc = deletionCost(b);
  if (ac !== bc) return ac - bc;
  const ark = rank.get(a) ?? 0, brk = rank.get(b) ?? 0;
  if (ark !== brk) return brk - ark;
  if (ar && br) {
    const byReady = laterFirst(a, b, parseTime(readyCondition(a)?.lastTransitionTime), parseTime(readyCondition(b)?.lastTransitionTime), nowMs);
    if (byReady !== 0) return byReady;
  }
  const arr = restarts(a), brr = restarts(b);
  if (arr !== brr) return brr - arr;
  return laterFirst(a, b, parseTime(a.metadata?.creationTimestamp ?? undefined), parseTime(b.metadata?.creationTimestamp ?? undefined), nowMs);
};

/**
 * Ranks each pod by how many active pods of `related` share its node (upstream getPodsRankedByRelatedPodsOnSameNode);
 * `related` are the pods of every ReplicaSet with the same controller, so other workloads on the node do not count.
 */
export const rankByRelatedOnSameNode = (pods: Pod[], related: Pod[]): Map<Pod, number> => {
  const perNode = new Map<string, number>();
  for (const p of related) if (isPodActive(p)) perNode.set(p.spec?.nodeName ?? '', (perNode.get(p.spec?.nodeName ?? '') ?? 0) + 1);
  return new Map(pods.map((p) => [p, perNode.get(p.spec?.nodeName ?? '') ?? 0]));
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
