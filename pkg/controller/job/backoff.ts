// The pod failure backoff of a Job (upstream backoff_utils.go): its consecutive failures since the last success and
// when the last one happened, kept in memory per Job and fed from the pods each sync finds newly finished, so the
// delay survives failed pods leaving the API (deleted, or removed by the pod GC) once they are counted.
import type { Pod } from '../shared/controller-utils-pods.js';
import { backoffDelay, finishTime } from './job-util.js';

export interface BackoffRecord {
  failuresAfterLastSuccess: number;
  lastFailureTime?: number;
  /** uids already recorded: a pod cache not yet showing a released finalizer must not count a failure twice. */
  recorded: Set<string>;
}

const byFinish = (pods: Pod[]): Pod[] => [...pods].sort((a, b) => finishTime(a) - finishTime(b));

export class PodBackoffStore {
  private readonly records = new Map<string, BackoffRecord>();

  /**
   * The Job's record once this sync's newly finished pods are in (upstream newBackoffRecord): a success starts the
   * count again from the failures that finished after it. Nothing is stored until commit().
   */
  next(key: string, succeeded: Pod[], failed: Pod[], withFinalizer: Set<string>): BackoffRecord {
    const old = this.records.get(key);
    // a uid the cache shows without the finalizer (or not at all) can no more come back as newly finished
    const recorded = new Set([...(old?.recorded ?? [])].filter((u) => withFinalizer.has(u)));
    const isNew = (p: Pod): boolean => !recorded.has(p.metadata!.uid!);
    const ok = byFinish(succeeded.filter(isNew));
    const ko = byFinish(failed.filter(isNew));
    for (const p of [...ok, ...ko]) recorded.add(p.metadata!.uid!);
    if (!ok.length) {
      if (!ko.length) return { failuresAfterLastSuccess: old?.failuresAfterLastSuccess ?? 0, lastFailureTime: old?.lastFailureTime, recorded };
      return { failuresAfterLastSuccess: (old?.failuresAfterLastSuccess ?? 0) + ko.length, lastFailureTime: finishTime(ko[ko.length - 1]!), recorded };
    }
    const lastSuccess = finishTime(ok[ok.length - 1]!);
    const after = ko.filter((p) => finishTime(p) > lastSuccess);
    return { failuresAfterLastSuccess: after.length, lastFailureTime: after.length ? finishTime(after[after.length - 1]!) : undefined, recorded };
  }

  commit(key: string, record: BackoffRecord): void { this.records.set(key, record); }

  /** A deleted or finished Job's record goes (upstream removeBackoffRecord). */
  remove(key: string): void { this.records.delete(key); }
}

/** How long pod creation still waits (upstream getRemainingTime): 10 s doubling per failure, at most 10 min. */
export const remainingBackoff = (r: Pick<BackoffRecord, 'failuresAfterLastSuccess' | 'lastFailureTime'>, nowMs: number): number =>
  r.failuresAfterLastSuccess <= 0 || r.lastFailureTime === undefined ? 0 : Math.max(0, r.lastFailureTime + backoffDelay(r.failuresAfterLastSuccess) - nowMs);
