// Protobuf field numbers of scheduling/v1 messages, by definition name. Generated; see ./index.ts.
import type { ProtoFields } from './types.js';

export const schedulingV1: ProtoFields = {
  'io.k8s.api.scheduling.v1.PriorityClass': {
    1: 'metadata', 2: 'value*', 3: 'globalDefault', 4: 'description', 5: 'preemptionPolicy*',
  },
  'io.k8s.api.scheduling.v1.PriorityClassList': { 1: 'metadata', 2: 'items' },
};
