// autoscaling/v1 HorizontalPodAutoscalers are stored as autoscaling/v2 (upstream pkg/apis/autoscaling/v1/conversion.go):
// v1 keeps only the CPU utilization target; every other metric, the current metrics, the scaling behaviour and the
// conditions ride in annotations (in v1's own, v2beta1-shaped metric types), so that an object read and written
// back through v1 loses nothing.
import type { StorageConversion } from '../../types.js';
import { groupVersion as v2 } from '../v2/index.js';

type Obj = Record<string, any>;

const METRICS = 'autoscaling.alpha.kubernetes.io/metrics';
const CURRENT_METRICS = 'autoscaling.alpha.kubernetes.io/current-metrics';
const BEHAVIOR = 'autoscaling.alpha.kubernetes.io/behavior';
const CONDITIONS = 'autoscaling.alpha.kubernetes.io/conditions';

const compact = (o: Obj): Obj => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

const isCpuUtilization = (m: Obj): boolean => m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource?.target?.averageUtilization !== undefined;

/** A v2 MetricSpec as v1's annotation spells it. */
function specToV1(m: Obj): Obj {
  const t = (s: Obj | undefined): Obj => s?.target ?? {};
  switch (m.type) {
    case 'Object': return { type: m.type, object: compact({ target: m.object?.describedObject, metricName: m.object?.metric?.name, selector: m.object?.metric?.selector, targetValue: t(m.object).value, averageValue: t(m.object).averageValue }) };
    case 'Pods': return { type: m.type, pods: compact({ metricName: m.pods?.metric?.name, selector: m.pods?.metric?.selector, targetAverageValue: t(m.pods).averageValue }) };
    case 'External': return { type: m.type, external: compact({ metricName: m.external?.metric?.name, metricSelector: m.external?.metric?.selector, targetValue: t(m.external).value, targetAverageValue: t(m.external).averageValue }) };
    case 'Resource':
    case 'ContainerResource': {
      const key = m.type === 'Resource' ? 'resource' : 'containerResource';
      return { type: m.type, [key]: compact({ name: m[key]?.name, container: m[key]?.container, targetAverageUtilization: t(m[key]).averageUtilization, targetAverageValue: t(m[key]).averageValue }) };
    }
    default: return { type: m.type };
  }
}

const target = (value: unknown, averageValue: unknown, utilization?: unknown): Obj =>
  compact({ type: utilization !== undefined ? 'Utilization' : value !== undefined ? 'Value' : 'AverageValue', value, averageValue, averageUtilization: utilization });

function specFromV1(m: Obj): Obj {
  const metric = (name: unknown, selector: unknown): Obj => compact({ name, selector });
  switch (m.type) {
    case 'Object': return { type: m.type, object: { describedObject: m.object?.target, metric: metric(m.object?.metricName, m.object?.selector), target: target(m.object?.targetValue, m.object?.averageValue) } };
    case 'Pods': return { type: m.type, pods: { metric: metric(m.pods?.metricName, m.pods?.selector), target: target(undefined, m.pods?.targetAverageValue) } };
    case 'External': return { type: m.type, external: { metric: metric(m.external?.metricName, m.external?.metricSelector), target: target(m.external?.targetValue, m.external?.targetAverageValue) } };
    case 'Resource':
    case 'ContainerResource': {
      const key = m.type === 'Resource' ? 'resource' : 'containerResource';
      const s = m[key] ?? {};
      return { type: m.type, [key]: compact({ name: s.name, container: s.container, target: target(undefined, s.targetAverageValue, s.targetAverageUtilization) }) };
    }
    default: return { type: m.type };
  }
}

/** A v2 MetricStatus as v1's annotation spells it. */
function statusToV1(m: Obj): Obj {
  const c = (s: Obj | undefined): Obj => s?.current ?? {};
  switch (m.type) {
    case 'Object': return { type: m.type, object: compact({ target: m.object?.describedObject, metricName: m.object?.metric?.name, selector: m.object?.metric?.selector, currentValue: c(m.object).value, averageValue: c(m.object).averageValue }) };
    case 'Pods': return { type: m.type, pods: compact({ metricName: m.pods?.metric?.name, selector: m.pods?.metric?.selector, currentAverageValue: c(m.pods).averageValue }) };
    case 'External': return { type: m.type, external: compact({ metricName: m.external?.metric?.name, metricSelector: m.external?.metric?.selector, currentValue: c(m.external).value, currentAverageValue: c(m.external).averageValue }) };
    case 'Resource':
    case 'ContainerResource': {
      const key = m.type === 'Resource' ? 'resource' : 'containerResource';
      return { type: m.type, [key]: compact({ name: m[key]?.name, container: m[key]?.container, currentAverageUtilization: c(m[key]).averageUtilization, currentAverageValue: c(m[key]).averageValue }) };
    }
    default: return { type: m.type };
  }
}

function statusFromV1(m: Obj): Obj {
  const metric = (name: unknown, selector: unknown): Obj => compact({ name, selector });
  const current = (value: unknown, averageValue: unknown, averageUtilization?: unknown): Obj => compact({ value, averageValue, averageUtilization });
  switch (m.type) {
    case 'Object': return { type: m.type, object: { describedObject: m.object?.target, metric: metric(m.object?.metricName, m.object?.selector), current: current(m.object?.currentValue, m.object?.averageValue) } };
    case 'Pods': return { type: m.type, pods: { metric: metric(m.pods?.metricName, m.pods?.selector), current: current(undefined, m.pods?.currentAverageValue) } };
    case 'External': return { type: m.type, external: { metric: metric(m.external?.metricName, m.external?.metricSelector), current: current(m.external?.currentValue, m.external?.currentAverageValue) } };
    case 'Resource':
    case 'ContainerResource': {
      const key = m.type === 'Resource' ? 'resource' : 'containerResource';
      const s = m[key] ?? {};
      return { type: m.type, [key]: compact({ name: s.name, container: s.container, current: current(undefined, s.currentAverageValue, s.currentAverageUtilization) }) };
    }
    default: return { type: m.type };
  }
}

const parse = (annotations: Obj, key: string): any => {
  const text = annotations[key];
  if (text === undefined) return undefined;
  delete annotations[key];
  try { return JSON.parse(text); } catch { return undefined; }
};

export const horizontalPodAutoscalerConversion: StorageConversion = {
  storageVersion: 'v2',
  toStorage(v1) {
    const annotations: Obj = { ...(v1.metadata?.annotations ?? {}) };
    const metrics = ((parse(annotations, METRICS) ?? []) as Obj[]).map(specFromV1);
    const currentMetrics = parse(annotations, CURRENT_METRICS) as Obj[] | undefined;
    const behavior = parse(annotations, BEHAVIOR) as Obj | undefined;
    const conditions = parse(annotations, CONDITIONS) as Obj[] | undefined;
    const { targetCPUUtilizationPercentage: cpu, ...spec } = v1.spec ?? {};
    if (cpu !== undefined) metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: cpu } } });
    const { currentCPUUtilizationPercentage: _cpuNow, ...status } = v1.status ?? {};
    const metadata = { ...v1.metadata, annotations };
    if (!Object.keys(annotations).length) delete metadata.annotations;
    const stored: Obj = {
      ...v1, apiVersion: 'autoscaling/v2', metadata,
      spec: compact({ ...spec, metrics: metrics.length ? metrics : undefined, behavior }),
      ...(v1.status ? { status: compact({ ...status, currentMetrics: currentMetrics?.map(statusFromV1), conditions }) } : {}),
    };
    // what v2 reads back: no metrics means 80% CPU, a behavior gets its default rules
    v2.defaulters!['io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler']!(stored);
    return stored;
  },
  fromStorage(v2) {
    const annotations: Obj = { ...(v2.metadata?.annotations ?? {}) };
    const { metrics = [], behavior, ...spec } = v2.spec ?? {};
    const cpu = (metrics as Obj[]).find(isCpuUtilization);
    const others = (metrics as Obj[]).filter((m) => !isCpuUtilization(m));
    if (others.length) annotations[METRICS] = JSON.stringify(others.map(specToV1));
    if (behavior) annotations[BEHAVIOR] = JSON.stringify(behavior);
    const { currentMetrics, conditions, ...status } = v2.status ?? {};
    if (currentMetrics?.length) annotations[CURRENT_METRICS] = JSON.stringify((currentMetrics as Obj[]).map(statusToV1));
    if (conditions?.length) annotations[CONDITIONS] = JSON.stringify(conditions);
    const cpuNow = (currentMetrics as Obj[] | undefined)?.find((m) => m.type === 'Resource' && m.resource?.name === 'cpu')?.resource?.current?.averageUtilization;
    return {
      ...v2, apiVersion: 'autoscaling/v1',
      metadata: { ...v2.metadata, ...(Object.keys(annotations).length ? { annotations } : {}) },
      spec: compact({ ...spec, targetCPUUtilizationPercentage: cpu?.resource.target.averageUtilization }),
      ...(v2.status ? { status: compact({ ...status, currentCPUUtilizationPercentage: cpuNow }) } : {}),
    };
  },
};
