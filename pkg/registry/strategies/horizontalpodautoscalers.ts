// HorizontalPodAutoscalers: upstream's ValidateHorizontalPodAutoscaler (pkg/apis/autoscaling/validation) for the
// fields a user gets wrong: replica bounds, the scale target, each metric naming the source its type says and a
// usable target, and the scaling rules' ranges.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden, invalidValue, notSupported, required } from '../../apimachinery/field.js';
import type { Strategy } from '../strategy.js';

const SOURCE_OF: Record<string, string> = {
  Object: 'object', Pods: 'pods', Resource: 'resource', ContainerResource: 'containerResource', External: 'external',
};

interface Target { type?: string; value?: string; averageValue?: string; averageUtilization?: number }
type Metric = Record<string, unknown> & { type?: string };

function validateTarget(at: string, t: Target | undefined, source: string): StatusCause[] {
  if (!t) return [required(at, 'must specify a metric target')];
  const causes: StatusCause[] = [];
  if (!t.type) causes.push(required(`${at}.type`, 'must specify a metric target type'));
  else if (!['Utilization', 'Value', 'AverageValue'].includes(t.type)) causes.push(notSupported(`${at}.type`, t.type, ['AverageValue', 'Utilization', 'Value']));
  if (t.type === 'Utilization' && t.averageUtilization === undefined) causes.push(required(`${at}.averageUtilization`, 'must set either a target raw value or a target utilization'));
  if (t.type === 'Value' && t.value === undefined) causes.push(required(`${at}.value`, 'must set a target value'));
  if (t.type === 'AverageValue' && t.averageValue === undefined) causes.push(required(`${at}.averageValue`, 'must set a target average value'));
  if (t.averageUtilization !== undefined && t.averageUtilization < 1) causes.push(invalidValue(`${at}.averageUtilization`, t.averageUtilization, 'must be greater than 0'));
  if (t.averageUtilization !== undefined && source !== 'resource' && source !== 'containerResource') {
    causes.push(forbidden(`${at}.averageUtilization`, 'may not be set for this metric source'));
  }
  return causes;
}

function validateMetric(at: string, m: Metric): StatusCause[] {
  if (!m.type) return [required(`${at}.type`, 'must specify a metric source type')];
  const source = SOURCE_OF[m.type];
  if (!source) return [notSupported(`${at}.type`, m.type, Object.keys(SOURCE_OF).sort())];
  const causes: StatusCause[] = [];
  for (const other of Object.values(SOURCE_OF)) {
    if (other !== source && m[other] !== undefined) causes.push(forbidden(`${at}.${other}`, 'must populate the given metric source only'));
  }
  const s = m[source] as Record<string, unknown> | undefined;
  if (!s) return [...causes, required(`${at}.${source}`, 'must populate information for the given metric source')];
  if ((source === 'resource' || source === 'containerResource') && !s.name) causes.push(required(`${at}.${source}.name`, 'must specify a resource name'));
  if (source === 'containerResource' && !s.container) causes.push(required(`${at}.${source}.container`, 'must specify a container'));
  if (source !== 'resource' && source !== 'containerResource' && !(s.metric as { name?: string } | undefined)?.name) {
    causes.push(required(`${at}.${source}.metric.name`, 'must specify a metric name'));
  }
  return [...causes, ...validateTarget(`${at}.${source}.target`, s.target as Target | undefined, source)];
}

function validateRules(at: string, r: Record<string, any> | undefined): StatusCause[] {
  if (!r) return [];
  const causes: StatusCause[] = [];
  const w = r.stabilizationWindowSeconds;
  if (w !== undefined && (w < 0 || w > 3600)) causes.push(invalidValue(`${at}.stabilizationWindowSeconds`, w, 'must be less than or equal to 3600'));
  if (r.selectPolicy !== undefined && !['Max', 'Min', 'Disabled'].includes(r.selectPolicy)) causes.push(notSupported(`${at}.selectPolicy`, r.selectPolicy, ['Disabled', 'Max', 'Min']));
  if (Array.isArray(r.policies) && r.policies.length === 0) causes.push(required(`${at}.policies`, 'must specify at least one Policy'));
  for (const [i, p] of ((r.policies ?? []) as Record<string, any>[]).entries()) {
    const pat = `${at}.policies[${i}]`;
    if (!['Pods', 'Percent'].includes(p.type)) causes.push(notSupported(`${pat}.type`, p.type, ['Percent', 'Pods']));
    if (!(p.value > 0)) causes.push(invalidValue(`${pat}.value`, p.value, 'must be greater than zero'));
    if (!(p.periodSeconds > 0)) causes.push(invalidValue(`${pat}.periodSeconds`, p.periodSeconds, 'must be greater than zero'));
    else if (p.periodSeconds > 1800) causes.push(invalidValue(`${pat}.periodSeconds`, p.periodSeconds, 'must be less than or equal to 1800'));
  }
  return causes;
}

export function validateHorizontalPodAutoscaler(hpa: KubeObject): StatusCause[] {
  const spec = hpa.spec ?? {};
  const causes: StatusCause[] = [];
  const min = spec.minReplicas as number | undefined;
  const max = spec.maxReplicas as number;
  if (min !== undefined && min < 1) causes.push(invalidValue('spec.minReplicas', min, 'must be greater than or equal to 1'));
  if (max < 1) causes.push(invalidValue('spec.maxReplicas', max, 'must be greater than 0'));
  if (min !== undefined && max < min) causes.push(invalidValue('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  const ref = spec.scaleTargetRef ?? {};
  if (!ref.kind) causes.push(required('spec.scaleTargetRef.kind'));
  if (!ref.name) causes.push(required('spec.scaleTargetRef.name'));
  for (const [i, m] of ((spec.metrics ?? []) as Metric[]).entries()) causes.push(...validateMetric(`spec.metrics[${i}]`, m));
  causes.push(...validateRules('spec.behavior.scaleUp', spec.behavior?.scaleUp), ...validateRules('spec.behavior.scaleDown', spec.behavior?.scaleDown));
  return causes;
}

export const horizontalPodAutoscalerStrategy: Strategy = {
  validate: validateHorizontalPodAutoscaler,
};
