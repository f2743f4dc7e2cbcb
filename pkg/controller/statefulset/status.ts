// StatefulSet pod states and status counts (upstream stateful_set_utils.go, computeReplicaStatus and
// completeRollingUpdate of stateful_set_control.go).
import type { KubeObject } from '../../../api/types.js';
import { isPodAvailable, isPodReady, type Pod } from '../shared/controller-utils-pods.js';
import { CONTROLLER_REVISION_HASH } from '../controllerhistory/history.js';

/** The apiserver gives every pod it stores a phase: one without is not created yet. */
export const isCreated = (p: Pod): boolean => !!p.status?.phase;
export const isTerminating = (p: Pod): boolean => !!p.metadata?.deletionTimestamp;
export const isTerminal = (p: Pod): boolean => p.status?.phase === 'Failed' || p.status?.phase === 'Succeeded';
export const runningAndReady = (p: Pod): boolean => p.status?.phase === 'Running' && isPodReady(p);
export const isHealthy = (p: Pod): boolean => runningAndReady(p) && !isTerminating(p);

export interface ReplicaCounts {
  replicas: number;
  readyReplicas: number;
  availableReplicas: number;
  currentReplicas: number;
  updatedReplicas: number;
}

/**
 * Counts over every pod of the set, those beyond the replica count (condemned) included: created pods (failed and
 * succeeded ones too) as replicas, Running and Ready ones as ready, available ones among those; only created pods
 * that are not terminating count at the current or the update revision.
 */
export function replicaCounts(pods: Pod[], minReadySeconds: number, nowMs: number, currentRevision: string, updateRevision: string): ReplicaCounts {
  const c: ReplicaCounts = { replicas: 0, readyReplicas: 0, availableReplicas: 0, currentReplicas: 0, updatedReplicas: 0 };
  for (const p of pods) {
    if (isCreated(p)) c.replicas++;
    if (runningAndReady(p)) {
      c.readyReplicas++;
      if (isPodAvailable(p, minReadySeconds, nowMs)) c.availableReplicas++;
    }
    if (isCreated(p) && !isTerminating(p)) {
      const rev = p.metadata?.labels?.[CONTROLLER_REVISION_HASH];
      if (rev === currentRevision) c.currentReplicas++;
      if (rev === updateRevision) c.updatedReplicas++;
    }
  }
  return c;
}

/**
 * A RollingUpdate whose every replica is updated and ready is complete: the update revision becomes the current
 * one. OnDelete never completes (its pods change only when someone deletes them).
 */
export function completeRollingUpdate(set: KubeObject, status: ReplicaCounts & { currentRevision?: string; updateRevision?: string }): void {
  const replicas: number = set.spec?.replicas ?? 1;
  if ((set.spec?.updateStrategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return;
  if (status.updatedReplicas !== replicas || status.readyReplicas !== replicas || status.replicas !== replicas) return;
  status.currentReplicas = status.updatedReplicas;
  status.currentRevision = status.updateRevision;
}
