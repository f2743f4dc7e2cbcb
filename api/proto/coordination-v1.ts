// Protobuf field numbers of coordination/v1 messages, by definition name. Generated; see ./index.ts.
import type { ProtoFields } from './types.js';

export const coordinationV1: ProtoFields = {
  'io.k8s.api.coordination.v1.Lease': { 1: 'metadata', 2: 'spec' },
  'io.k8s.api.coordination.v1.LeaseList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.coordination.v1.LeaseSpec': {
    1: 'holderIdentity*', 2: 'leaseDurationSeconds*', 3: 'acquireTime', 4: 'renewTime', 5: 'leaseTransitions*',
    6: 'strategy*', 7: 'preferredHolder*',
  },
};
