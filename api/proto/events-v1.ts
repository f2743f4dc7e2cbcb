// Protobuf field numbers of events/v1 messages, by definition name. Generated; see ./index.ts.
import type { ProtoFields } from './types.js';

export const eventsV1: ProtoFields = {
  'io.k8s.api.events.v1.Event': {
    1: 'metadata', 2: 'eventTime', 3: 'series', 4: 'reportingController', 5: 'reportingInstance', 6: 'action',
    7: 'reason', 8: 'regarding', 9: 'related', 10: 'note', 11: 'type', 12: 'deprecatedSource',
    13: 'deprecatedFirstTimestamp', 14: 'deprecatedLastTimestamp', 15: 'deprecatedCount',
  },
  'io.k8s.api.events.v1.EventList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.events.v1.EventSeries': { 1: 'count*', 2: 'lastObservedTime' },
};
