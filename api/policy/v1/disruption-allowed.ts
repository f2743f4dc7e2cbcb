// The DisruptionAllowed condition of a PodDisruptionBudget, kept alike by the disruption controller and by an eviction
// that uses up the last allowed disruption (upstream's component-helpers/apps/poddisruptionbudget).
import { setStatusCondition, type Condition } from '../../meta/v1/conditions.js';

export const DISRUPTION_ALLOWED = 'DisruptionAllowed';

export interface BudgetStatus {
  disruptionsAllowed?: number;
  observedGeneration?: number;
  conditions?: Condition[];
  [field: string]: unknown;
}

/** True (SufficientPods) while a disruption is allowed, else False (InsufficientPods); `now` is RFC 3339. */
export function updateDisruptionAllowedCondition(status: BudgetStatus, now: string): void {
  const allowed = (status.disruptionsAllowed ?? 0) > 0;
  status.conditions = setStatusCondition(status.conditions, {
    type: DISRUPTION_ALLOWED, status: allowed ? 'True' : 'False', reason: allowed ? 'SufficientPods' : 'InsufficientPods', message: '',
    observedGeneration: status.observedGeneration,
  }, now);
}

/** The condition says what the status does, for the budget's current generation (ConditionsAreUpToDate). */
export function conditionsAreUpToDate(status: BudgetStatus | undefined, generation: number | undefined): boolean {
  const c = status?.conditions?.find((x) => x.type === DISRUPTION_ALLOWED);
  if (!c || status?.observedGeneration !== generation) return false;
  return (status?.disruptionsAllowed ?? 0) > 0 ? c.status === 'True' && c.reason === 'SufficientPods' : c.status === 'False' && c.reason === 'InsufficientPods';
}
