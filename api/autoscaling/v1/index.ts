// autoscaling/v1: the Scale kind spoken by the scale subresources, and HorizontalPodAutoscalers with a CPU
// utilization target only (stored as autoscaling/v2; see ./conversion.ts).
import { int32, int64, kind, listKind, obj, ref, str } from '../../schema.js';
import type { GroupVersion } from '../../types.js';
import { crossVersionObjectReference, horizontalPodAutoscalerResource } from '../v2/index.js';
import { horizontalPodAutoscalerConversion } from './conversion.js';

const S = 'io.k8s.api.autoscaling.v1.';
const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const gvk = (k: string) => ({ group: 'autoscaling', version: 'v1', kind: k });

export const groupVersion: GroupVersion = {
  group: 'autoscaling',
  version: 'v1',
  resources: [horizontalPodAutoscalerResource('v1')],
  conversions: { horizontalpodautoscalers: horizontalPodAutoscalerConversion },
  definitions: {
    [`${S}Scale`]: kind(gvk('Scale'), {
      spec: ref(`${S}ScaleSpec`, 'Desired scale of the resource.'),
      status: ref(`${S}ScaleStatus`, 'Current scale of the resource.'),
    }, 'Scale of a scalable resource.'),
    [`${S}ScaleSpec`]: obj({
      replicas: int32('Desired number of instances.'),
    }, 'Desired scale.'),
    [`${S}ScaleStatus`]: obj({
      replicas: int32('Observed number of instances.', { default: 0 }),
      selector: str('Label query over the pods counted, in string form.'),
    }, 'Observed scale.', { required: ['replicas'] }),
    [`${S}HorizontalPodAutoscaler`]: kind(gvk('HorizontalPodAutoscaler'), {
      spec: ref(`${S}HorizontalPodAutoscalerSpec`, 'The behaviour of the autoscaler.'),
      status: ref(`${S}HorizontalPodAutoscalerStatus`, 'The current information about the autoscaler.'),
    }, 'Configuration of a horizontal pod autoscaler.'),
    [`${S}HorizontalPodAutoscalerList`]: listKind(gvk('HorizontalPodAutoscalerList'), `${S}HorizontalPodAutoscaler`),
    [`${S}HorizontalPodAutoscalerSpec`]: obj({
      maxReplicas: int32('The most replicas the autoscaler scales up to; not below minReplicas.', { default: 0 }),
      minReplicas: int32('The fewest replicas the autoscaler scales down to; 1 when unset.'),
      scaleTargetRef: ref(`${S}CrossVersionObjectReference`, 'The resource to scale.'),
      targetCPUUtilizationPercentage: int32('Target average CPU utilization over all the pods, in percent of their requests.'),
    }, 'Specification of a horizontal pod autoscaler.', { required: ['scaleTargetRef', 'maxReplicas'] }),
    [`${S}HorizontalPodAutoscalerStatus`]: obj({
      currentCPUUtilizationPercentage: int32('Current average CPU utilization over all the pods, in percent of their requests.'),
      currentReplicas: int32('Replicas of the target as last seen.', { default: 0 }),
      desiredReplicas: int32('Replicas as last calculated.', { default: 0 }),
      lastScaleTime: ref(`${M}Time`, 'When the autoscaler last changed the replica count.'),
      observedGeneration: int64('The generation the autoscaler last observed.'),
    }, 'Current status of a horizontal pod autoscaler.', { required: ['currentReplicas', 'desiredReplicas'] }),
    [`${S}CrossVersionObjectReference`]: crossVersionObjectReference,
  },
  defaulters: {
    [`${S}HorizontalPodAutoscaler`]: (o) => { (o.spec ??= {}).minReplicas ??= 1; },
  },
};
