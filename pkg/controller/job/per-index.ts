// backoffLimitPerIndex for Indexed Jobs (upstream indexed_job_utils.go, KEP-3850): each pod carries how often its
// index failed before it (batch.kubernetes.io/job-index-failure-count; failures a podFailurePolicy Ignore rule
// matched go to ...-ignored-failure-count); an index whose failed pod had already used backoffLimitPerIndex
// retries, or matched a FailIndex rule, is failed for good (status.failedIndexes) and never started again.
import type { KubeObject } from '../../../api/types.js';
import { isPodActive, type Pod } from '../shared/controller-utils-pods.js';
import { backoffDelay, completionIndexOf, finishTime, hasFinalizer, matchPodFailurePolicy } from './job-util.js';

export const INDEX_FAILURE_COUNT = 'batch.kubernetes.io/job-index-failure-count';
export const INDEX_IGNORED_FAILURE_COUNT = 'batch.kubernetes.io/job-index-ignored-failure-count';

export const hasBackoffLimitPerIndex = (job: KubeObject): boolean => job.spec?.completionMode === 'Indexed' && job.spec?.backoffLimitPerIndex != null;

/** An annotation as a non-negative int32; anything else (missing, garbage, out of range) is 0, as upstream. */
const countOf = (p: Pod, key: string): number => {
  const v = p.metadata?.annotations?.[key];
  if (v === undefined || !/^\d+$/.test(v)) return 0;
  const n = Number(v);
  return n > 2147483647 ? 0 : n;
};

export const indexFailureCount = (p: Pod): number => countOf(p, INDEX_FAILURE_COUNT);
const absoluteFailureCount = (p: Pod): number => countOf(p, INDEX_FAILURE_COUNT) + countOf(p, INDEX_IGNORED_FAILURE_COUNT);

/** Whether this failed pod fails its index (upstream isIndexFailed). */
export const failsIndex = (job: KubeObject, p: Pod): boolean => {
  const m = matchPodFailurePolicy(job, p);
  if (m?.action === 'FailIndex') return true;
  if (m?.action === 'Ignore') return false;
  return indexFailureCount(p) >= job.spec!.backoffLimitPerIndex;
};

/**
 * The failed pod of each index a replacement pod takes its failure counts from (upstream
 * getPodsWithDelayedDeletionPerIndex): the latest, most failed of the pods still holding the finalizer, of an index
 * neither done nor running. Its finalizer stays until the replacement runs, so deleting it loses no count.
 */
export const podsWithDelayedDeletion = (pods: Pod[], isFailed: (p: Pod) => boolean, skip: (ix: number) => boolean): Map<number, Pod> => {
  const last = new Map<number, Pod>();
  const running = new Set(pods.filter(isPodActive).map(completionIndexOf));
  for (const p of pods) {
    const ix = completionIndexOf(p);
    if (ix === undefined || !hasFinalizer(p) || !isFailed(p) || skip(ix) || running.has(ix)) continue;
    const prev = last.get(ix);
    if (!prev || (absoluteFailureCount(prev) <= absoluteFailureCount(p) && finishTime(p) >= finishTime(prev))) last.set(ix, p);
  }
  return last;
};

/** The failure-count annotations of the pod replacing `replaced` (upstream getNewIndexFailureCounts). */
export const replacementAnnotations = (job: KubeObject, replaced: Pod | undefined): Record<string, string> => {
  let failed = replaced ? indexFailureCount(replaced) : 0;
  let ignored = replaced ? countOf(replaced, INDEX_IGNORED_FAILURE_COUNT) : 0;
  if (replaced) {
    if (matchPodFailurePolicy(job, replaced)?.action === 'Ignore') ignored++;
    else failed++;
  }
  return { [INDEX_FAILURE_COUNT]: String(failed), ...(ignored > 0 ? { [INDEX_IGNORED_FAILURE_COUNT]: String(ignored) } : {}) };
};

/**
 * How long an index still waits after its last failure (upstream getRemainingTimePerIndex): exponential in all its
 * failures, those an Ignore rule matched too, so an ignored failure is not retried in a tight loop.
 */
export const indexBackoffLeft = (replaced: Pod | undefined, nowMs: number): number => {
  if (!replaced) return 0;
  return Math.max(0, finishTime(replaced) + backoffDelay(absoluteFailureCount(replaced) + 1) - nowMs);
};
