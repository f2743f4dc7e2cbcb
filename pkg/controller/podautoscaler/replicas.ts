// The replica count a Resource metric asks for (upstream podautoscaler/replica_calculator.go): the pods' average
// usage against their requests (Utilization) or the raw average (AverageValue), scaled from the ready pods with a
// 10% tolerance; pods without metrics or not yet ready are left out, as upstream does for a first estimate.
import { parseQuantity } from '../../apimachinery/quantity.js';

/** A quantity as a plain number (cores, bytes). */
export const quantityNumber = (s: string): number => Number(parseQuantity(s).nanos) / 1e9;

export const TOLERANCE = 0.1;

export interface PodUsage {
  /** Usage of the resource by the pod's containers (cores or bytes). */
  usage: number;
  /** Sum of the containers' requests of the resource; 0 when one of them requests none. */
  request: number;
}

export interface ResourceTarget { averageUtilization?: number; averageValue?: string }

export interface Recommendation {
  replicas: number;
  /** The current value to report: averageUtilization (percent) or averageValue (a quantity string). */
  utilization?: number;
  averageValue?: number;
}

/** Fails like upstream when a Utilization target meets a pod without requests. */
export function replicasForResource(resource: string, currentReplicas: number, pods: PodUsage[], target: ResourceTarget): Recommendation {
  if (pods.length === 0) throw new Error(`did not receive metrics for targeted pods (pods might be unready)`);
  const usage = pods.reduce((a, p) => a + p.usage, 0);
  if (target.averageUtilization !== undefined) {
    if (pods.some((p) => p.request === 0)) throw new Error(`missing request for ${resource}`);
    const requests = pods.reduce((a, p) => a + p.request, 0);
    const utilization = Math.floor((usage * 100) / requests);
    const ratio = utilization / target.averageUtilization;
    const replicas = Math.abs(1 - ratio) <= TOLERANCE ? currentReplicas : Math.ceil(ratio * pods.length);
    return { replicas, utilization };
  }
  const targetValue = quantityNumber(target.averageValue ?? '0');
  const average = usage / pods.length;
  const ratio = targetValue > 0 ? average / targetValue : 1;
  const replicas = Math.abs(1 - ratio) <= TOLERANCE ? currentReplicas : Math.ceil(usage / targetValue);
  return { replicas, averageValue: average };
}
