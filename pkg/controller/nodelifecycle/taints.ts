// Taints and tolerations as the node lifecycle controllers use them (upstream pkg/apis/core/v1/helper and
// pkg/controller/nodelifecycle): the well-known taint keys, which conditions set which NoSchedule taint, and
// toleration matching, and writing a node's taints.
import type { KubeObject } from '../../../api/types.js';
import { isConflict } from '../../client/index.js';

export interface Taint { key: string; value?: string; effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute'; timeAdded?: string }
export interface Toleration { key?: string; operator?: 'Exists' | 'Equal'; value?: string; effect?: string; tolerationSeconds?: number }
export interface NodeCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
}

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

/** Condition type -> status -> the NoSchedule taint it implies (upstream nodeConditionToTaintKeyStatusMap). */
const CONDITION_TAINTS: Record<string, Partial<Record<NodeCondition['status'], string>>> = {
  Ready: { False: TAINT_NOT_READY, Unknown: TAINT_UNREACHABLE },
  MemoryPressure: { True: 'node.kubernetes.io/memory-pressure' },
  DiskPressure: { True: 'node.kubernetes.io/disk-pressure' },
  NetworkUnavailable: { True: 'node.kubernetes.io/network-unavailable' },
  PIDPressure: { True: 'node.kubernetes.io/pid-pressure' },
};

export const NO_SCHEDULE_KEYS = new Set([...Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m)), TAINT_UNSCHEDULABLE]);

/** The NoSchedule taint keys a node's conditions and spec.unschedulable call for. */
export function noScheduleTaintKeys(conditions: NodeCondition[], unschedulable: boolean): string[] {
  const keys = conditions.map((c) => CONDITION_TAINTS[c.type]?.[c.status]).filter((k): k is string => !!k);
  if (unschedulable) keys.push(TAINT_UNSCHEDULABLE);
  return [...new Set(keys)].sort();
}

export const tolerates = (t: Toleration, taint: Taint): boolean => {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.operator === 'Exists') return !t.key || t.key === taint.key;
  return t.key === taint.key && (t.value ?? '') === (taint.value ?? '');
};

/**
 * How long a pod may stay on a node with these NoExecute taints: undefined when one is not tolerated, the smallest
 * tolerationSeconds of the first toleration matching each taint, or Infinity when every match tolerates forever.
 */
export function tolerationTimeMs(tolerations: Toleration[], taints: Taint[]): number | undefined {
  let min = Infinity;
  for (const taint of taints) {
    const t = tolerations.find((x) => tolerates(x, taint)); // upstream GetMatchingTolerations: the first match
    if (!t) return undefined;
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null) min = Math.min(min, Math.max(0, t.tolerationSeconds) * 1000);
  }
  return min;
}

/** Reads and writes Nodes (the client's, in the controller). */
export interface NodeWriter {
  get(name: string): Promise<KubeObject>;
  update(node: KubeObject): Promise<KubeObject>;
}

/** Upstream's UpdateTaintBackoff: five tries, 100 ms apart (upstream adds up to as much again of jitter). */
const TAINT_UPDATE_TRIES = 5;
const TAINT_RETRY_MS = 100;

/**
 * Writes the node's taints as `change` makes them from the ones it has (undefined: nothing to do), as upstream's
 * AddOrUpdateTaintOnNode and RemoveTaintOffNode: a conflict is retried at once on the node read again, within this
 * call, so within the rate limiter's token the NoExecute taint was given (not at the next token, seconds later).
 * Returns the node as written (or as last read, when it needed no change).
 */
export async function updateNodeTaints(w: NodeWriter, node: KubeObject, change: (taints: Taint[]) => Taint[] | undefined,
  sleep: (ms: number) => Promise<unknown>): Promise<KubeObject> {
  let current = node;
  for (let attempt = 1; ; attempt++) {
    const taints = change((current.spec?.taints ?? []) as Taint[]);
    if (!taints) return current;
    try {
      return await w.update({ ...current, spec: { ...current.spec, taints } });
    } catch (e) {
      if (!isConflict(e) || attempt >= TAINT_UPDATE_TRIES) throw e;
    }
    await sleep(TAINT_RETRY_MS);
    current = await w.get(node.metadata!.name!);
  }
}
