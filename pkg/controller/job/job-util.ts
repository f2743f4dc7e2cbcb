// Job helpers (upstream pkg/controller/job: indexed_job_utils.go, pod_failure_policy.go, backoff_utils.go): pod
// labels, completion indexes and their interval text, the pod failure policy, and the exponential pod backoff.
import type { KubeObject } from '../../../api/types.js';
import { parseTime } from '../shared/controller-utils.js';
import type { Pod } from '../shared/controller-utils-pods.js';

export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
export const CONTROLLER_UID = 'batch.kubernetes.io/controller-uid';
export const JOB_NAME = 'batch.kubernetes.io/job-name';
export const COMPLETION_INDEX = 'batch.kubernetes.io/job-completion-index';
export const LEGACY_CONTROLLER_UID = 'controller-uid';
export const LEGACY_JOB_NAME = 'job-name';
/** Upstream DefaultJobPodFailureBackOff and MaxJobPodFailureBackOff. */
export const BACKOFF_BASE_MS = 10_000;
export const BACKOFF_MAX_MS = 10 * 60_000;

export const isIndexed = (job: KubeObject): boolean => job.spec?.completionMode === 'Indexed';

export const completionIndexOf = (p: Pod): number | undefined => {
  const v = p.metadata?.annotations?.[COMPLETION_INDEX] ?? p.metadata?.labels?.[COMPLETION_INDEX];
  if (v === undefined || !/^\d+$/.test(v)) return undefined;
  return Number(v);
};

export const hasFinalizer = (p: Pod): boolean => (p.metadata?.finalizers ?? []).includes(JOB_TRACKING_FINALIZER);

/** "1,3-5,7,8" from a set of indexes (upstream orderedIntervals.String(): a run of two is written "7,8"). */
export const formatIndexes = (xs: Iterable<number>): string => {
  const sorted = [...new Set(xs)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(i === j ? String(sorted[i]) : `${sorted[i]}${j === i + 1 ? ',' : '-'}${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
};

export const parseIndexes = (s: string | undefined, completions: number): Set<number> => {
  const out = new Set<number>();
  for (const part of (s ?? '').split(',').filter(Boolean)) {
    const [a, b] = part.split('-').map(Number);
    for (let i = a!; i <= (b ?? a!); i++) if (i < completions) out.add(i);
  }
  return out;
};

interface TerminatedStatus { name?: string; state?: { terminated?: { finishedAt?: string } } }

/**
 * When the pod ended (upstream getFinishedTime): the latest finishedAt once every container (and restartable init
 * container) has terminated; else the time its Ready condition turned False; else the moment it was deleted
 * (deletionTimestamp less the grace period), as for pods the pod GC removed; else its creation.
 */
export const finishTime = (p: Pod): number => {
  const sidecars = new Set(((p.spec?.initContainers ?? []) as { name: string; restartPolicy?: string }[])
    .filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
  const statuses = [
    ...((p.status?.containerStatuses ?? []) as TerminatedStatus[]),
    ...((p.status?.initContainerStatuses ?? []) as TerminatedStatus[]).filter((c) => sidecars.has(c.name ?? '')),
  ];
  const ends = statuses.map((c) => parseTime(c.state?.terminated?.finishedAt));
  if (ends.length && ends.every((x) => x !== undefined)) return Math.max(...(ends as number[]));
  const ready = (p.status?.conditions as { type: string; status?: string; lastTransitionTime?: string }[] | undefined)?.find((c) => c.type === 'Ready');
  const readyFalse = ready?.status === 'False' ? parseTime(ready.lastTransitionTime) : undefined;
  if (readyFalse !== undefined) return readyFalse;
  const deleted = parseTime(p.metadata?.deletionTimestamp);
  if (deleted !== undefined) return deleted - (p.metadata?.deletionGracePeriodSeconds ?? 0) * 1000;
  return parseTime(p.metadata?.creationTimestamp ?? undefined) ?? 0;
};

/**
 * Whether the container restarts of the Job's running and pending pods have used up backoffLimit (upstream
 * pastBackoffLimitOnFailure): with restartPolicy OnFailure a failing container restarts in place, so no pod ever
 * fails and status.failed never grows. A limit of 0 is reached by the first restart.
 */
export const pastBackoffLimitOnFailure = (job: KubeObject, pods: Pod[]): boolean => {
  if (job.spec?.template?.spec?.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const p of pods) {
    if (p.status?.phase !== 'Running' && p.status?.phase !== 'Pending') continue;
    for (const cs of [...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])] as { restartCount?: number }[]) {
      restarts += cs.restartCount ?? 0;
    }
  }
  const limit: number = job.spec?.backoffLimit ?? 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
};

/** Delay before the next pod after `failures` consecutive failures (10 s doubling, at most 10 min). */
export const backoffDelay = (failures: number): number =>
  failures <= 0 ? 0 : Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.min(failures - 1, 30));

export interface PolicyMatch { action: 'FailJob' | 'FailIndex' | 'Ignore' | 'Count'; message: string }

/** The first podFailurePolicy rule a failed pod matches (upstream matchPodFailurePolicy). */
export const matchPodFailurePolicy = (job: KubeObject, p: Pod): PolicyMatch | undefined => {
  const rules = (job.spec?.podFailurePolicy?.rules ?? []) as any[];
  const statuses = [...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])] as any[];
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i];
    if (r.onExitCodes) {
      const { containerName, operator, values } = r.onExitCodes;
      const hit = statuses.find((cs) => {
        if (containerName && cs.name !== containerName) return false;
        const code = cs.state?.terminated?.exitCode;
        if (code === undefined || code === 0) return false;
        return operator === 'In' ? values.includes(code) : !values.includes(code);
      });
      if (hit) return { action: r.action, message: `Container ${hit.name} for pod ${p.metadata!.namespace}/${p.metadata!.name} failed with exit code ${hit.state.terminated.exitCode} matching ${r.action} rule at index ${i}` };
    }
    for (const pat of (r.onPodConditions ?? []) as { type: string; status?: string }[]) {
      const c = (p.status?.conditions as { type: string; status: string }[] | undefined)?.find((x) => x.type === pat.type && x.status === (pat.status ?? 'True'));
      if (c) return { action: r.action, message: `Pod ${p.metadata!.namespace}/${p.metadata!.name} has condition ${c.type} matching ${r.action} rule at index ${i}` };
    }
  }
  return undefined;
};
