// Horizontal pod autoscalers: REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE. TARGETS pairs each metric's
// current value with its target ("cpu: 40%/80%"), at most two, then " + N more...".
// autoscaling/v1 objects carry only the CPU utilization fields; they are read as the one Resource metric
// they convert to.
import type { KubeObject } from '../../../api/types.js';
import { column, simplePrinter } from './types.js';

interface MetricValue {
  value?: string;
  averageValue?: string;
  averageUtilization?: number;
}

interface MetricSource {
  name?: string;
  target?: MetricValue;
  current?: MetricValue;
}

interface Metric {
  type: string;
  external?: MetricSource;
  object?: MetricSource;
  pods?: MetricSource;
  resource?: MetricSource;
  containerResource?: MetricSource;
}

const UNKNOWN = '<unknown>';
/** A nil Quantity prints as "<nil>" upstream. */
const quantity = (q: string | undefined): string => q ?? '<nil>';
const percent = (n: number | undefined): string | undefined => (n === undefined || n === null ? undefined : `${n}%`);

/** External and Object metrics: an average value "(avg)" or a plain value. */
function valueMetric(spec: MetricSource, status: MetricSource | undefined): string {
  const target = spec.target ?? {};
  if (target.averageValue !== undefined) {
    const current = status?.current?.averageValue ?? UNKNOWN;
    return `${current}/${target.averageValue} (avg)`;
  }
  const current = status ? quantity(status.current?.value) : UNKNOWN;
  return `${current}/${quantity(target.value)}`;
}

/** Resource and ContainerResource metrics: "name: current/target" in values or utilization percentages. */
function resourceMetric(spec: MetricSource, status: MetricSource | undefined): string {
  const target = spec.target ?? {};
  if (target.averageValue !== undefined) {
    const current = status ? quantity(status.current?.averageValue) : UNKNOWN;
    return `${spec.name}: ${current}/${target.averageValue}`;
  }
  const current = percent(status?.current?.averageUtilization) ?? UNKNOWN;
  return `${spec.name}: ${current}/${percent(target.averageUtilization) ?? '<auto>'}`;
}

function formatMetric(spec: Metric, status: Metric | undefined): string {
  switch (spec.type) {
    case 'External':
      return valueMetric(spec.external ?? {}, status?.external);
    case 'Object':
      return valueMetric(spec.object ?? {}, status?.object);
    case 'Pods': {
      const current = status?.pods ? quantity(status.pods.current?.averageValue) : UNKNOWN;
      return `${current}/${quantity(spec.pods?.target?.averageValue)}`;
    }
    case 'Resource':
      return resourceMetric(spec.resource ?? {}, status?.resource);
    case 'ContainerResource':
      return resourceMetric(spec.containerResource ?? {}, status?.containerResource);
    default:
      return '<unknown type>';
  }
}

/** The metrics of a v2 object, or the CPU utilization metric a v1 object converts to. */
function metricsOf(hpa: KubeObject): { specs: Metric[]; statuses: Metric[] } {
  if (hpa.apiVersion !== 'autoscaling/v1') return { specs: hpa.spec?.metrics ?? [], statuses: hpa.status?.currentMetrics ?? [] };
  const cpu = (side: 'target' | 'current', utilization: number | undefined): Metric[] =>
    typeof utilization === 'number'
      ? [{ type: 'Resource', resource: { name: 'cpu', [side]: { averageUtilization: utilization } } }]
      : [];
  return {
    specs: cpu('target', hpa.spec?.targetCPUUtilizationPercentage),
    statuses: cpu('current', hpa.status?.currentCPUUtilizationPercentage),
  };
}

export function formatHPAMetrics(hpa: KubeObject): string {
  const { specs, statuses } = metricsOf(hpa);
  if (specs.length === 0) return '<none>';
  const list = specs.map((spec, i) => formatMetric(spec, statuses[i]));
  const shown = list.slice(0, 2).join(', ');
  return list.length > 2 ? `${shown} + ${list.length - 2} more...` : shown;
}

export const horizontalPodAutoscalerPrinter = simplePrinter(
  [
    column('Reference', 'The scaled object, as Kind/name.'),
    column('Targets', 'Current and target values of the metrics the autoscaler follows.'),
    column('MinPods', 'The fewest replicas the autoscaler scales down to.'),
    column('MaxPods', 'The most replicas the autoscaler scales up to.'),
    column('Replicas', 'The current number of replicas.'),
  ],
  (hpa) => [
    `${hpa.spec?.scaleTargetRef?.kind ?? ''}/${hpa.spec?.scaleTargetRef?.name ?? ''}`,
    formatHPAMetrics(hpa),
    typeof hpa.spec?.minReplicas === 'number' ? String(hpa.spec.minReplicas) : '<unset>',
    hpa.spec?.maxReplicas ?? 0,
    hpa.status?.currentReplicas ?? 0,
  ],
);

/** autoscaling/v1 Scale, what `kubectl get <resource> NAME --subresource=scale` prints: DESIRED AVAILABLE. */
export const scalePrinter = simplePrinter(
  [
    column('Desired', 'The desired number of instances (spec.replicas).', 'integer'),
    column('Available', 'The actual number of observed instances (status.replicas).', 'integer'),
  ],
  (scale) => [scale.spec?.replicas ?? 0, scale.status?.replicas ?? 0],
);
