// Protobuf field numbers of autoscaling/v2 messages, by definition name (k8s.io/api autoscaling/v2 generated.proto).
import type { ProtoFields } from './types.js';

const A = 'io.k8s.api.autoscaling.v2.';

export const autoscalingV2: ProtoFields = {
  [`${A}HorizontalPodAutoscaler`]: { 1: 'metadata', 2: 'spec', 3: 'status' },
  [`${A}HorizontalPodAutoscalerList`]: { 1: 'metadata', 2: 'items' },
  [`${A}HorizontalPodAutoscalerSpec`]: { 1: 'scaleTargetRef', 2: 'minReplicas*', 3: 'maxReplicas*', 4: 'metrics', 5: 'behavior' },
  [`${A}CrossVersionObjectReference`]: { 1: 'kind*', 2: 'name*', 3: 'apiVersion' },
  [`${A}HorizontalPodAutoscalerBehavior`]: { 1: 'scaleUp', 2: 'scaleDown' },
  [`${A}HPAScalingRules`]: { 1: 'selectPolicy*', 2: 'policies', 3: 'stabilizationWindowSeconds*', 4: 'tolerance' },
  [`${A}HPAScalingPolicy`]: { 1: 'type*', 2: 'value*', 3: 'periodSeconds*' },
  [`${A}MetricSpec`]: { 1: 'type*', 2: 'object', 3: 'pods', 4: 'resource', 5: 'external', 7: 'containerResource' },
  [`${A}MetricStatus`]: { 1: 'type*', 2: 'object', 3: 'pods', 4: 'resource', 5: 'external', 7: 'containerResource' },
  [`${A}ContainerResourceMetricSource`]: { 1: 'name*', 2: 'target', 3: 'container*' },
  [`${A}ContainerResourceMetricStatus`]: { 1: 'name*', 2: 'current', 3: 'container*' },
  [`${A}ExternalMetricSource`]: { 1: 'metric', 2: 'target' },
  [`${A}ExternalMetricStatus`]: { 1: 'metric', 2: 'current' },
  [`${A}ObjectMetricSource`]: { 1: 'describedObject', 2: 'target', 3: 'metric' },
  [`${A}ObjectMetricStatus`]: { 1: 'metric', 2: 'current', 3: 'describedObject' },
  [`${A}PodsMetricSource`]: { 1: 'metric', 2: 'target' },
  [`${A}PodsMetricStatus`]: { 1: 'metric', 2: 'current' },
  [`${A}ResourceMetricSource`]: { 1: 'name*', 2: 'target' },
  [`${A}ResourceMetricStatus`]: { 1: 'name*', 2: 'current' },
  [`${A}MetricIdentifier`]: { 1: 'name*', 2: 'selector' },
  [`${A}MetricTarget`]: { 1: 'type*', 2: 'value', 3: 'averageValue', 4: 'averageUtilization*' },
  [`${A}MetricValueStatus`]: { 1: 'value', 2: 'averageValue', 3: 'averageUtilization*' },
  [`${A}HorizontalPodAutoscalerStatus`]: { 1: 'observedGeneration*', 2: 'lastScaleTime', 3: 'currentReplicas', 4: 'desiredReplicas*', 5: 'currentMetrics', 6: 'conditions' },
  [`${A}HorizontalPodAutoscalerCondition`]: { 1: 'type*', 2: 'status*', 3: 'lastTransitionTime', 4: 'reason', 5: 'message' },
};
