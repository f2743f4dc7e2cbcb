// The objects the scheduler reads, as plain JSON (KubeObject) plus the few helpers every part shares.
import type { KubeObject } from '../client/index.js';

export type Pod = KubeObject;
export type Node = KubeObject;

export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

/** namespace/name: the key of a pod in queue and cache. */
export const podKey = (pod: Pod): string => `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;

/** The key the cache keeps pods under (uid when there is one: a re-created pod of the same name is another pod). */
export const podUid = (pod: Pod): string => pod.metadata?.uid || podKey(pod);

export const podPriority = (pod: Pod): number => (typeof pod.spec?.priority === 'number' ? pod.spec.priority : 0);

export const nodeName = (node: Node): string => node.metadata?.name ?? '';

export const isTerminal = (pod: Pod): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

export const isAssigned = (pod: Pod): boolean => typeof pod.spec?.nodeName === 'string' && pod.spec.nodeName !== '';

export const schedulerNameOf = (pod: Pod): string => pod.spec?.schedulerName || DEFAULT_SCHEDULER_NAME;

export interface Toleration { key?: string; operator?: string; value?: string; effect?: string; tolerationSeconds?: number }
export interface Taint { key: string; value?: string; effect: string }

/** Upstream's Toleration.ToleratesTaint. */
export const tolerates = (t: Toleration, taint: Taint): boolean => {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  if (!t.key && t.operator !== 'Exists') return false;
  if (t.operator === 'Exists') return true;
  return (t.value ?? '') === (taint.value ?? '');
};

export const tolerationsTolerate = (tolerations: Toleration[] | undefined, taint: Taint): boolean =>
  (tolerations ?? []).some((t) => tolerates(t, taint));

const NO_TAINTS: Taint[] = [];
export const nodeTaints = (node: Node): Taint[] => (node.spec?.taints ?? NO_TAINTS) as Taint[];
