// A pod's phase and conditions as upstream's podutil reads and sets them.
import type { KubeObject } from '../../types.js';

export interface PodCondition {
  type: string;
  status: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

const conditionsOf = (pod: KubeObject): PodCondition[] => (pod.status?.conditions ?? []) as PodCondition[];

/** Succeeded or Failed: its containers will not run again (podutil.IsPodTerminal). */
export const isPodTerminal = (pod: KubeObject): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

/** Its Ready condition is True (podutil.IsPodReady). */
export const isPodReady = (pod: KubeObject): boolean => conditionsOf(pod).some((c) => c.type === 'Ready' && c.status === 'True');

/**
 * The conditions with `c` set (podutil.UpdatePodCondition): added, or replacing the one of its type with its transition
 * time kept while the status stays; the probe time is Go's zero time (null). `now` is RFC 3339.
 */
export function withPodCondition(conditions: readonly PodCondition[] | undefined, c: Omit<PodCondition, 'lastProbeTime' | 'lastTransitionTime'>, now: string): PodCondition[] {
  const list = [...(conditions ?? [])];
  const i = list.findIndex((x) => x.type === c.type);
  const old = i >= 0 ? list[i] : undefined;
  const next: PodCondition = { type: c.type, status: c.status, lastProbeTime: null, lastTransitionTime: old && old.status === c.status ? old.lastTransitionTime : now };
  if (c.reason !== undefined) next.reason = c.reason;
  if (c.message !== undefined) next.message = c.message;
  if (i >= 0) list[i] = next;
  else list.push(next);
  return list;
}
