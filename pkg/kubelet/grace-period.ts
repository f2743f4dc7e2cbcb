// How long a pod's containers get to stop, as upstream 1.32's kubelet decides it: the pod workers work out the
// kill's grace period (calculateEffectiveGracePeriod), which kuberuntime's killContainer then spends on the preStop
// hook and the container's turn, leaving its stop at least minimumGracePeriodInSeconds. A container killed on its
// own (a failed probe) has setTerminationGracePeriod's.
import type { KubeObject } from '../client/index.js';

/** The least a container's stop gets between SIGTERM and SIGKILL, whatever the grace period left (upstream's minimumGracePeriodInSeconds). */
export const MIN_STOP_SECONDS = 2;

/** The grace period of an orphaned runtime pod's kill (upstream's HandlePodCleanups override, SyncTerminatingRuntimePod's). */
export const ORPHAN_GRACE_SECONDS = 1;

/**
 * The grace period of a kill of `pod`: `current` (the kill's so far, if one began) taken down by the API's
 * deletionGracePeriodSeconds, then by the kubelet's own `override` (an eviction's), each only when shorter; a
 * period still 0 then (none, or a force delete's 0) is the spec's terminationGracePeriodSeconds, so a force delete
 * is given the pod's own grace period, as 1.32's is; never below 1 s.
 */
export function effectiveGracePeriod(current: number | undefined, pod: KubeObject, override?: number): number {
  let grace = current ?? 0;
  for (const asked of [pod.metadata?.deletionGracePeriodSeconds as number | undefined, override]) {
    if (asked !== undefined && (grace === 0 || asked < grace)) grace = asked;
  }
  // the API defaults the spec's to 30 s
  if (grace === 0) grace = (pod.spec?.terminationGracePeriodSeconds as number | undefined) ?? 30;
  return Math.max(1, grace);
}

/**
 * The grace period of one container's kill outside a pod's (a failed liveness or startup probe, a failed postStart
 * hook, a changed image), as upstream's setTerminationGracePeriod: the API's deletionGracePeriodSeconds when set, else
 * the failed `probe`'s terminationGracePeriodSeconds when it has one, else the spec's.
 */
export function containerKillGrace(pod: KubeObject, probe?: { terminationGracePeriodSeconds?: number }): number {
  return (pod.metadata?.deletionGracePeriodSeconds as number | undefined) ?? probe?.terminationGracePeriodSeconds
    ?? (pod.spec?.terminationGracePeriodSeconds as number | undefined) ?? 30;
}
