// Protobuf field numbers of autoscaling/v1 messages, by definition name. Generated; see ./index.ts.
import type { ProtoFields } from './types.js';

export const autoscalingV1: ProtoFields = {
  'io.k8s.api.autoscaling.v1.Scale': { 1: 'metadata', 2: 'spec', 3: 'status' },
  'io.k8s.api.autoscaling.v1.ScaleSpec': { 1: 'replicas' },
  'io.k8s.api.autoscaling.v1.ScaleStatus': { 1: 'replicas*', 2: 'selector' },
};
