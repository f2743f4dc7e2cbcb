// Protobuf field numbers of autoscaling/v1 messages, by definition name. Generated; see ./index.ts.
import type { ProtoFields } from './types.js';

export const autoscalingV1: ProtoFields = {
  'io.k8s.api.autoscaling.v1.Scale': { 1: 'metadata', 2: 'spec', 3: 'status' },
  'io.k8s.api.autoscaling.v1.ScaleSpec': { 1: 'replicas' },
  'io.k8s.api.autoscaling.v1.ScaleStatus': { 1: 'replicas*', 2: 'selector' },
  'io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler': { 1: 'metadata', 2: 'spec', 3: 'status' },
  'io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerSpec': { 1: 'scaleTargetRef', 2: 'minReplicas*', 3: 'maxReplicas*', 4: 'targetCPUUtilizationPercentage*' },
  'io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerStatus': { 1: 'observedGeneration*', 2: 'lastScaleTime', 3: 'currentReplicas*', 4: 'desiredReplicas*', 5: 'currentCPUUtilizationPercentage*' },
  'io.k8s.api.autoscaling.v1.CrossVersionObjectReference': { 1: 'kind*', 2: 'name*', 3: 'apiVersion' },
};
