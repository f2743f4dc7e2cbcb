// Protobuf field numbers of discovery/v1 messages, by definition name. Generated; see ./index.ts.
import type { ProtoFields } from './types.js';

export const discoveryV1: ProtoFields = {
  'io.k8s.api.discovery.v1.Endpoint': {
    1: 'addresses', 2: 'conditions', 3: 'hostname*', 4: 'targetRef', 5: 'deprecatedTopology', 6: 'nodeName*',
    7: 'zone*', 8: 'hints',
  },
  'io.k8s.api.discovery.v1.EndpointConditions': { 1: 'ready*', 2: 'serving*', 3: 'terminating*' },
  'io.k8s.api.discovery.v1.EndpointHints': { 1: 'forZones' },
  'io.k8s.api.discovery.v1.EndpointPort': { 1: 'name*', 2: 'protocol*', 3: 'port*', 4: 'appProtocol*' },
  'io.k8s.api.discovery.v1.EndpointSlice': { 1: 'metadata', 2: 'endpoints', 3: 'ports', 4: 'addressType*' },
  'io.k8s.api.discovery.v1.EndpointSliceList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.discovery.v1.ForZone': { 1: 'name*' },
};
