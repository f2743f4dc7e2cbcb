// autoscaling/v2: HorizontalPodAutoscalers (the version kubectl and charts use; upstream also serves them as
// autoscaling/v1, a lossy view of the same objects, which is not served here yet).
import { enumStr, int32, int64, kind, listKind, mapList, obj, arr, ref, str } from '../../schema.js';
import { ALL_VERBS, type Defaulter, type GroupVersion, type ResourceType } from '../../types.js';

const A = 'io.k8s.api.autoscaling.v2.';
const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const gvk = (k: string) => ({ group: 'autoscaling', version: 'v2', kind: k });
const METRIC_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];

/** upstream's defaults: at least one replica, 80% average CPU without metrics, and the default scaling rules. */
const horizontalPodAutoscaler: Defaulter = (o) => {
  const spec = (o.spec ??= {});
  spec.minReplicas ??= 1;
  if (!spec.metrics?.length) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  }
  const behavior = spec.behavior;
  if (!behavior) return;
  const up = (behavior.scaleUp ??= {});
  up.stabilizationWindowSeconds ??= 0;
  up.selectPolicy ??= 'Max';
  up.policies ??= [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }];
  const down = (behavior.scaleDown ??= {});
  down.stabilizationWindowSeconds ??= 300;
  down.selectPolicy ??= 'Max';
  down.policies ??= [{ type: 'Percent', value: 100, periodSeconds: 15 }];
};

const sourceAndStatus = (name: string, fields: Record<string, ReturnType<typeof ref>>, description: string) => ({
  [`${A}${name}MetricSource`]: obj({ ...fields, target: ref(`${A}MetricTarget`, 'The target value of the metric.') }, `How to scale on ${description}.`, { required: [...Object.keys(fields).filter((f) => f !== 'container'), 'target'] }),
  [`${A}${name}MetricStatus`]: obj({ ...fields, current: ref(`${A}MetricValueStatus`, 'The current value of the metric.') }, `The current value of ${description}.`, { required: [...Object.keys(fields).filter((f) => f !== 'container'), 'current'] }),
});

/** The resource as each autoscaling version serves it. */
export const horizontalPodAutoscalerResource = (version: string): ResourceType => ({
  group: 'autoscaling', version, kind: 'HorizontalPodAutoscaler', plural: 'horizontalpodautoscalers',
  singular: 'horizontalpodautoscaler', namespaced: true, verbs: ALL_VERBS, shortNames: ['hpa'], categories: ['all'],
  subresources: [{ name: 'status', group: 'autoscaling', version, kind: 'HorizontalPodAutoscaler', verbs: ['get', 'patch', 'update'] }],
  definition: `io.k8s.api.autoscaling.${version}.HorizontalPodAutoscaler`,
});

export const crossVersionObjectReference = obj({
  apiVersion: str('API version of the referent.'),
  kind: str('Kind of the referent.', { default: '' }),
  name: str('Name of the referent.', { default: '' }),
}, 'Identifies the referred resource.', { required: ['kind', 'name'], 'x-kubernetes-map-type': 'atomic' });

export const groupVersion: GroupVersion = {
  group: 'autoscaling',
  version: 'v2',
  resources: [horizontalPodAutoscalerResource('v2')],
  definitions: {
    [`${A}HorizontalPodAutoscaler`]: kind(gvk('HorizontalPodAutoscaler'), {
      spec: ref(`${A}HorizontalPodAutoscalerSpec`, 'The behaviour of the autoscaler.'),
      status: ref(`${A}HorizontalPodAutoscalerStatus`, 'The current information about the autoscaler.'),
    }, 'Manages the replica count of a resource with a scale subresource from the metrics it follows.'),
    [`${A}HorizontalPodAutoscalerList`]: listKind(gvk('HorizontalPodAutoscalerList'), `${A}HorizontalPodAutoscaler`),
    [`${A}HorizontalPodAutoscalerSpec`]: obj({
      behavior: ref(`${A}HorizontalPodAutoscalerBehavior`, 'Scaling behaviour up and down (defaults when unset).'),
      maxReplicas: int32('The most replicas the autoscaler scales up to; not below minReplicas.', { default: 0 }),
      metrics: arr(ref(`${A}MetricSpec`), 'The metrics the replica count follows (the largest count wins); 80% average CPU when unset.'),
      minReplicas: int32('The fewest replicas the autoscaler scales down to; 1 when unset.'),
      scaleTargetRef: ref(`${A}CrossVersionObjectReference`, 'The resource to scale; its pods give the metrics.'),
    }, 'Desired behaviour of a HorizontalPodAutoscaler.', { required: ['scaleTargetRef', 'maxReplicas'] }),
    [`${A}CrossVersionObjectReference`]: crossVersionObjectReference,
    [`${A}HorizontalPodAutoscalerBehavior`]: obj({
      scaleDown: ref(`${A}HPAScalingRules`, 'Scaling down: to minReplicas with a 300 s stabilization window by default.'),
      scaleUp: ref(`${A}HPAScalingRules`, 'Scaling up: the higher of 4 pods or doubling per 15 s by default.'),
    }, 'Scaling behaviour in both directions.'),
    [`${A}HPAScalingRules`]: obj({
      policies: arr(ref(`${A}HPAScalingPolicy`), 'Possible scaling policies.'),
      selectPolicy: enumStr(['Disabled', 'Max', 'Min'], 'Which policy applies: Max (default), Min or Disabled.'),
      stabilizationWindowSeconds: int32('Seconds of past recommendations considered (0 to 3600).'),
      tolerance: ref(QUANTITY, 'Tolerance on the metric ratio (alpha, HPAConfigurableTolerance).'),
    }, 'Scaling rules for one direction.'),
    [`${A}HPAScalingPolicy`]: obj({
      periodSeconds: int32('The window the policy holds for (1 to 1800).', { default: 0 }),
      type: enumStr(['Percent', 'Pods'], 'Pods or Percent.', { default: '' }),
      value: int32('The change the policy permits; greater than zero.', { default: 0 }),
    }, 'One scaling policy.', { required: ['type', 'value', 'periodSeconds'] }),
    [`${A}MetricSpec`]: obj({
      containerResource: ref(`${A}ContainerResourceMetricSource`, 'A resource metric of one container of each pod.'),
      external: ref(`${A}ExternalMetricSource`, 'A metric not tied to any Kubernetes object.'),
      object: ref(`${A}ObjectMetricSource`, 'A metric describing one object.'),
      pods: ref(`${A}PodsMetricSource`, 'A metric describing each pod, averaged.'),
      resource: ref(`${A}ResourceMetricSource`, 'A resource metric (CPU, memory) of each pod.'),
      type: enumStr(METRIC_TYPES, 'The metric source type.', { default: '' }),
    }, 'How to scale on one metric.', { required: ['type'] }),
    [`${A}MetricStatus`]: obj({
      containerResource: ref(`${A}ContainerResourceMetricStatus`, 'A resource metric of one container of each pod.'),
      external: ref(`${A}ExternalMetricStatus`, 'A metric not tied to any Kubernetes object.'),
      object: ref(`${A}ObjectMetricStatus`, 'A metric describing one object.'),
      pods: ref(`${A}PodsMetricStatus`, 'A metric describing each pod, averaged.'),
      resource: ref(`${A}ResourceMetricStatus`, 'A resource metric (CPU, memory) of each pod.'),
      type: enumStr(METRIC_TYPES, 'The metric source type.', { default: '' }),
    }, 'The last-read state of one metric.', { required: ['type'] }),
    ...sourceAndStatus('Resource', { name: str('The resource.', { default: '' }) }, 'a resource metric of each pod'),
    ...sourceAndStatus('ContainerResource', { name: str('The resource.', { default: '' }), container: str('The container.', { default: '' }) }, 'a resource metric of one container of each pod'),
    ...sourceAndStatus('Pods', { metric: ref(`${A}MetricIdentifier`, 'The metric.') }, 'a metric describing each pod'),
    ...sourceAndStatus('External', { metric: ref(`${A}MetricIdentifier`, 'The metric.') }, 'a metric not tied to any object'),
    [`${A}ObjectMetricSource`]: obj({
      describedObject: ref(`${A}CrossVersionObjectReference`, 'The object described.'),
      metric: ref(`${A}MetricIdentifier`, 'The metric.'),
      target: ref(`${A}MetricTarget`, 'The target value of the metric.'),
    }, 'How to scale on a metric describing one object.', { required: ['describedObject', 'target', 'metric'] }),
    [`${A}ObjectMetricStatus`]: obj({
      current: ref(`${A}MetricValueStatus`, 'The current value of the metric.'),
      describedObject: ref(`${A}CrossVersionObjectReference`, 'The object described.'),
      metric: ref(`${A}MetricIdentifier`, 'The metric.'),
    }, 'The current value of a metric describing one object.', { required: ['metric', 'current', 'describedObject'] }),
    [`${A}MetricIdentifier`]: obj({
      name: str('The metric name.', { default: '' }),
      selector: ref(`${M}LabelSelector`, 'Narrows the metric down, passed to the metrics server.'),
    }, 'Names a metric.', { required: ['name'] }),
    [`${A}MetricTarget`]: obj({
      averageUtilization: int32('Target average utilization, in percent of the pods\' requests (Resource metrics).'),
      averageValue: ref(QUANTITY, 'Target average value across the pods.'),
      type: enumStr(['AverageValue', 'Utilization', 'Value'], 'Utilization, Value or AverageValue.', { default: '' }),
      value: ref(QUANTITY, 'Target value.'),
    }, 'The target of a metric.', { required: ['type'] }),
    [`${A}MetricValueStatus`]: obj({
      averageUtilization: int32('Current average utilization, in percent of the pods\' requests.'),
      averageValue: ref(QUANTITY, 'Current average value across the pods.'),
      value: ref(QUANTITY, 'Current value.'),
    }, 'The current value of a metric.'),
    [`${A}HorizontalPodAutoscalerStatus`]: obj({
      conditions: mapList(ref(`${A}HorizontalPodAutoscalerCondition`), 'type', 'Whether the autoscaler can scale its target, and why.'),
      currentMetrics: arr(ref(`${A}MetricStatus`), 'The last-read state of the metrics.'),
      currentReplicas: int32('Replicas of the target as last seen.'),
      desiredReplicas: int32('Replicas as last calculated.', { default: 0 }),
      lastScaleTime: ref(`${M}Time`, 'When the autoscaler last changed the replica count.'),
      observedGeneration: int64('The generation the autoscaler last observed.'),
    }, 'Observed state of a HorizontalPodAutoscaler.', { required: ['desiredReplicas'] }),
    [`${A}HorizontalPodAutoscalerCondition`]: obj({
      lastTransitionTime: ref(`${M}Time`, 'When the condition last changed status.'),
      message: str('Details of the transition.'),
      reason: str('Why the condition last changed.'),
      status: str('True, False or Unknown.', { default: '' }),
      type: enumStr(['AbleToScale', 'ScalingActive', 'ScalingLimited'], 'The condition.', { default: '' }),
    }, 'One condition of an autoscaler.', { required: ['type', 'status'] }),
  },
  defaulters: { [`${A}HorizontalPodAutoscaler`]: horizontalPodAutoscaler },
};
