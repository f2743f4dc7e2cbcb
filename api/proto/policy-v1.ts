// Protobuf field numbers of policy/v1 messages, by definition name. Generated; see ./index.ts.
import type { ProtoFields } from './types.js';

export const policyV1: ProtoFields = {
  'io.k8s.api.policy.v1.Eviction': { 1: 'metadata', 2: 'deleteOptions' },
  'io.k8s.api.policy.v1.PodDisruptionBudget': { 1: 'metadata', 2: 'spec', 3: 'status' },
  'io.k8s.api.policy.v1.PodDisruptionBudgetList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.policy.v1.PodDisruptionBudgetSpec': {
    1: 'minAvailable', 2: 'selector', 3: 'maxUnavailable', 4: 'unhealthyPodEvictionPolicy*',
  },
  'io.k8s.api.policy.v1.PodDisruptionBudgetStatus': {
    1: 'observedGeneration', 2: 'disruptedPods', 3: 'disruptionsAllowed*', 4: 'currentHealthy*', 5: 'desiredHealthy*',
    6: 'expectedPods*', 7: 'conditions',
  },
};
