// ReplicaSet status (upstream replica_set_utils.go): counts of the claimed pods and the ReplicaFailure condition.
import type { KubeObject } from '../../../api/types.js';
import { labelSelectorAsSelector, selectorFromSet } from '../../apimachinery/labels.js';
import { formatTime } from '../../client/index.js';
import { deepEqual, getCondition, removeCondition, withoutEmpty, type Condition } from '../shared/controller-utils.js';
import { isPodAvailable, isPodReady, type Pod } from '../shared/controller-utils-pods.js';

export interface ReplicaSetStatus {
  replicas: number;
  fullyLabeledReplicas: number;
  readyReplicas: number;
  availableReplicas: number;
  observedGeneration?: number;
  conditions?: Condition[];
}

export function calculateStatus(rs: KubeObject, pods: Pod[], manageError: unknown, nowMs: number): ReplicaSetStatus {
  const templateLabels = rs.spec?.template?.metadata?.labels as Record<string, string> | undefined;
  const fullSel = templateLabels ? selectorFromSet(templateLabels) : labelSelectorAsSelector({});
  const minReady = rs.spec?.minReadySeconds ?? 0;
  const status: ReplicaSetStatus = {
    replicas: pods.length,
    fullyLabeledReplicas: pods.filter((p) => fullSel.matches(p.metadata?.labels)).length,
    readyReplicas: pods.filter(isPodReady).length,
    availableReplicas: pods.filter((p) => isPodAvailable(p, minReady, nowMs)).length,
    observedGeneration: rs.metadata?.generation,
  };
  let conds = (rs.status?.conditions ?? []) as Condition[];
  const failure = getCondition(conds, 'ReplicaFailure');
  if (manageError && !failure) {
    const want = rs.spec?.replicas ?? 1;
    const reason = pods.length < want ? 'FailedCreate' : 'FailedDelete';
    conds = [...conds, { type: 'ReplicaFailure', status: 'True', reason, message: (manageError as Error).message, lastTransitionTime: formatTime(nowMs) }];
  } else if (!manageError && failure) {
    conds = removeCondition(conds, 'ReplicaFailure');
  }
  if (conds.length) status.conditions = conds;
  return status;
}

/** ReplicaSetStatus's (and ReplicationControllerStatus's) omitempty fields: replicas is always written. */
const OMITEMPTY = ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'];

/** The status as written: replicas always, the other counts only when not 0. */
export const writtenStatus = (s: ReplicaSetStatus): Partial<ReplicaSetStatus> => withoutEmpty(s, OMITEMPTY);

/** Whether the stored status `a` already says what `b` (a writtenStatus) does. */
export const statusEqual = (a: unknown, b: Partial<ReplicaSetStatus>): boolean =>
  deepEqual(withoutEmpty({ replicas: 0, ...(a as object ?? {}) }, OMITEMPTY), b);
