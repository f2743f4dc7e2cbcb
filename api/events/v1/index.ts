// events.k8s.io/v1: Events, the newer shape of core/v1 Events and kept as them (see ./conversion.ts).
import { int32, kind, listKind, obj, ref, str } from '../../schema.js';
import { ALL_VERBS, type GroupVersion } from '../../types.js';
import { eventConversion } from './conversion.js';

const E = 'io.k8s.api.events.v1.';
const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const gvk = (k: string) => ({ group: 'events.k8s.io', version: 'v1', kind: k });
const objectRef = (description: string) => ref('io.k8s.api.core.v1.ObjectReference', description);

export const groupVersion: GroupVersion = {
  group: 'events.k8s.io',
  version: 'v1',
  resources: [{
    group: 'events.k8s.io', version: 'v1', kind: 'Event', plural: 'events', singular: 'event', namespaced: true,
    verbs: ALL_VERBS, shortNames: ['ev'], definition: `${E}Event`, storageGroup: '',
  }],
  conversions: { events: eventConversion },
  definitions: {
    [`${E}Event`]: kind(gvk('Event'), {
      action: str('What action was taken or failed on the regarding object.'),
      deprecatedCount: int32('Deprecated core/v1 count field.'),
      deprecatedFirstTimestamp: ref(`${M}Time`, 'Deprecated core/v1 firstTimestamp field.'),
      deprecatedLastTimestamp: ref(`${M}Time`, 'Deprecated core/v1 lastTimestamp field.'),
      deprecatedSource: ref('io.k8s.api.core.v1.EventSource', 'Deprecated core/v1 source field.'),
      eventTime: ref(`${M}MicroTime`, 'When the event was first observed.'),
      note: str('Human-readable description of the status of this operation.'),
      reason: str('Why the action was taken.'),
      regarding: objectRef('The object this event is about.'),
      related: objectRef('A secondary object involved.'),
      reportingController: str('Name of the controller that emitted the event.'),
      reportingInstance: str('ID of the controller instance that emitted the event.'),
      series: ref(`${E}EventSeries`, 'Data about the series this event belongs to, if it recurs.'),
      type: str('Normal or Warning.'),
    }, 'A report of an occurrence somewhere in the cluster.', { required: ['eventTime'] }),
    [`${E}EventList`]: listKind(gvk('EventList'), `${E}Event`),
    [`${E}EventSeries`]: obj({
      count: int32('Occurrences in this series up to lastObservedTime.', { default: 0 }),
      lastObservedTime: ref(`${M}MicroTime`, 'When the last occurrence was observed.'),
    }, 'A series of recurring events.', { required: ['count', 'lastObservedTime'] }),
  },
};
