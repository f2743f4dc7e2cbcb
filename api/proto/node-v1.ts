// Protobuf field numbers of node.k8s.io/v1 messages, by definition name (k8s.io/api node/v1 generated.proto).
import type { ProtoFields } from './types.js';

const N = 'io.k8s.api.node.v1.';

export const nodeV1: ProtoFields = {
  [`${N}RuntimeClass`]: { 1: 'metadata', 2: 'handler*', 3: 'overhead', 4: 'scheduling' },
  [`${N}RuntimeClassList`]: { 1: 'metadata', 2: 'items' },
  [`${N}Overhead`]: { 1: 'podFixed' },
  [`${N}Scheduling`]: { 1: 'nodeSelector', 2: 'tolerations' },
};
