// The replica count a metric asks for, as upstream's replica_calculator.go: the pods' usage against the target,
// scaled from the pods that count. Pods being deleted or failed are left out; pending pods, and (for CPU) pods not
// yet ready or ready for less than a metric window while they initialize, are unready; running pods without a
// sample are missing. Unready pods weigh 0% on a scale-up and missing ones 0% on a scale-up and 100% on a
// scale-down, and a proposal that would turn the direction around keeps the current count.
// Values are milli-units (Go's Quantity.MilliValue), as upstream computes them.
import type { KubeObject } from '../../../api/types.js';
import { isPodReady } from '../../../api/core/v1/pod-conditions.js';
import { parseQuantity, quantityMilliValue } from '../../apimachinery/quantity.js';

/** A quantity in milli-units, rounded up as Go's MilliValue. */
export const milliValue = (s: string): number => quantityMilliValue(parseQuantity(s));

export interface PodMetric {
  /** When the sample was taken (ms since the epoch). */
  timestamp: number;
  /** The window the sample covers (ms). */
  windowMs: number;
  /** Milli-units. */
  value: number;
}

/** Samples by pod name. */
export type PodMetrics = Map<string, PodMetric>;

export interface CalculatorConfig {
  tolerance: number;
  cpuInitializationPeriodMs: number;
  delayOfInitialReadinessStatusMs: number;
  now: number;
}

interface Groups { ready: number; unready: Set<string>; missing: Set<string>; ignored: Set<string> }

function groupPods(pods: KubeObject[], metrics: PodMetrics, resource: string, cfg: CalculatorConfig): Groups {
  const g: Groups = { ready: 0, unready: new Set(), missing: new Set(), ignored: new Set() };
  for (const pod of pods) {
    const name = pod.metadata!.name!;
    if (pod.metadata?.deletionTimestamp || pod.status?.phase === 'Failed') { g.ignored.add(name); continue; }
    if (pod.status?.phase === 'Pending') { g.unready.add(name); continue; }
    const metric = metrics.get(name);
    if (!metric) { g.missing.add(name); continue; }
    if (resource === 'cpu' && cpuSampleUnready(pod, metric, cfg)) { g.unready.add(name); continue; }
    g.ready++;
  }
  return g;
}

/** Whether a CPU sample of `pod` may still be its start-up's rather than its work's. */
function cpuSampleUnready(pod: KubeObject, metric: PodMetric, cfg: CalculatorConfig): boolean {
  const ready = (pod.status?.conditions as { type: string; status: string; lastTransitionTime?: string }[] | undefined)?.find((c) => c.type === 'Ready');
  const started = pod.status?.startTime ? Date.parse(pod.status.startTime as string) : NaN;
  if (!ready || Number.isNaN(started)) return true;
  const transition = ready.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : 0;
  if (started + cfg.cpuInitializationPeriodMs > cfg.now) {
    return ready.status === 'False' || metric.timestamp < transition + metric.windowMs;
  }
  // past initialization: skipped only if it is unready and has never been ready
  return ready.status === 'False' && started + cfg.delayOfInitialReadinessStatusMs > transition;
}

/** The summed requests of each pod (its containers and sidecars, or only `container`), or upstream's error for one missing. */
function podRequests(pods: KubeObject[], container: string, resource: string): Map<string, number> {
  const out = new Map<string, number>();
  type Container = { name: string; restartPolicy?: string; resources?: { requests?: Record<string, string> } };
  for (const pod of pods) {
    const containers = [
      ...((pod.spec?.containers ?? []) as Container[]),
      ...((pod.spec?.initContainers ?? []) as Container[]).filter((c) => c.restartPolicy === 'Always'),
    ];
    let sum = 0;
    for (const c of containers) {
      if (container && c.name !== container) continue;
      const request = c.resources?.requests?.[resource];
      if (request === undefined) throw new Error(`missing request for ${resource} in container ${c.name} of Pod ${pod.metadata!.name!}`);
      sum += milliValue(request);
    }
    out.set(pod.metadata!.name!, sum);
  }
  return out;
}

function utilizationRatio(metrics: PodMetrics, requests: Map<string, number>, target: number): { ratio: number; utilization: number; rawAverage: number } {
  let used = 0;
  let requested = 0;
  let entries = 0;
  for (const [name, m] of metrics) {
    const request = requests.get(name);
    if (request === undefined) continue; // a sample of a pod not selected
    used += m.value;
    requested += request;
    entries++;
  }
  if (requested === 0) throw new Error('no metrics returned matched known pods');
  const utilization = Math.trunc((used * 100) / requested);
  return { ratio: utilization / target, utilization, rawAverage: Math.trunc(used / entries) };
}

function usageRatio(metrics: PodMetrics, target: number): { ratio: number; usage: number } {
  let total = 0;
  for (const m of metrics.values()) total += m.value;
  const usage = Math.trunc(total / metrics.size);
  return { ratio: usage / target, usage };
}

/** The sample set once the pods that do not count are out; throws when none is left. */
function countedMetrics(pods: KubeObject[], metrics: PodMetrics, resource: string, cfg: CalculatorConfig): { g: Groups; metrics: PodMetrics } {
  if (!pods.length) throw new Error('no pods returned by selector while calculating replica count');
  const g = groupPods(pods, metrics, resource, cfg);
  const counted = new Map(metrics);
  for (const name of [...g.ignored, ...g.unready]) counted.delete(name);
  if (!counted.size) throw new Error('did not receive metrics for targeted pods (pods might be unready)');
  return { g, metrics: counted };
}

/**
 * The count once the missing and unready pods are given their conservative values: `fillMissing` is what a missing
 * pod weighs on a scale-down; `ratioOf` recomputes the usage ratio.
 */
function rebalanced(current: number, ratio: number, g: Groups, metrics: PodMetrics, tolerance: number,
  fillMissing: (name: string) => number, ratioOf: (m: PodMetrics) => number): number {
  const scaleUpWithUnready = g.unready.size > 0 && ratio > 1;
  if (!scaleUpWithUnready && !g.missing.size) {
    return Math.abs(1 - ratio) <= tolerance ? current : Math.ceil(ratio * g.ready);
  }
  const filled = new Map(metrics);
  const sample = (value: number): PodMetric => ({ timestamp: 0, windowMs: 0, value });
  if (ratio < 1) for (const name of g.missing) filled.set(name, sample(fillMissing(name)));
  else if (ratio > 1) for (const name of g.missing) filled.set(name, sample(0));
  if (scaleUpWithUnready) for (const name of g.unready) filled.set(name, sample(0));
  const next = ratioOf(filled);
  // too small a change, or one that turns the direction around, keeps the current count
  if (Math.abs(1 - next) <= tolerance || (ratio < 1 && next > 1) || (ratio > 1 && next < 1)) return current;
  const replicas = Math.ceil(next * filled.size);
  if ((next < 1 && replicas > current) || (next > 1 && replicas < current)) return current;
  return replicas;
}

/** A Resource / ContainerResource metric with an averageUtilization target (percent of the pods' requests). */
export function resourceUtilizationReplicas(current: number, target: number, resource: string, container: string, pods: KubeObject[], samples: PodMetrics, cfg: CalculatorConfig): { replicas: number; utilization: number; rawAverage: number } {
  const { g, metrics } = countedMetrics(pods, samples, resource, cfg);
  const requests = podRequests(pods, container, resource);
  const { ratio, utilization, rawAverage } = utilizationRatio(metrics, requests, target);
  const fallback = Math.max(100, target); // a missing pod weighs its whole request on a scale-down (or the target if above 100%)
  const replicas = rebalanced(current, ratio, g, metrics, cfg.tolerance, (name) => Math.trunc(((requests.get(name) ?? 0) * fallback) / 100),
    (m) => utilizationRatio(m, requests, target).ratio);
  return { replicas, utilization, rawAverage };
}

/** A per-pod average value target (Resource averageValue, Pods metrics): milli-units per pod. */
export function averageValueReplicas(current: number, target: number, resource: string, pods: KubeObject[], samples: PodMetrics, cfg: CalculatorConfig): { replicas: number; usage: number } {
  const { g, metrics } = countedMetrics(pods, samples, resource, cfg);
  const { ratio, usage } = usageRatio(metrics, target);
  const replicas = rebalanced(current, ratio, g, metrics, cfg.tolerance, () => target, (m) => usageRatio(m, target).ratio);
  return { replicas, usage };
}

/** The pods Running and Ready (what an object or external metric's value target divides among). */
export function readyPodCount(pods: KubeObject[]): number {
  if (!pods.length) throw new Error('no pods returned by selector while calculating replica count');
  return pods.filter((p) => p.status?.phase === 'Running' && isPodReady(p)).length;
}

/**
 * A value target on one number for the whole target (Object value, External value): the ready pods scaled by the
 * ratio; from zero replicas, the ratio alone (scale from and to zero).
 */
export function valueReplicas(current: number, ratio: number, tolerance: number, readyPods: () => number): number {
  if (current === 0) return Math.ceil(ratio);
  if (Math.abs(1 - ratio) <= tolerance) return current;
  return Math.ceil(ratio * readyPods());
}

/** An averageValue target on one number for the whole target (Object, External averageValue): per status replica. */
export function perPodValueReplicas(statusReplicas: number, total: number, target: number, tolerance: number): { replicas: number; usage: number } {
  const ratio = total / (target * statusReplicas);
  const replicas = Math.abs(1 - ratio) > tolerance ? Math.ceil(total / target) : statusReplicas;
  return { replicas, usage: Math.ceil(total / statusReplicas) };
}
