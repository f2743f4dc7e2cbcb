// Core events (the events.k8s.io group has its own).
import { int32, kind, listKind, obj, ref, str, type Definitions } from '../../schema.js';
import { core, meta, v1 } from './names.js';

export const eventDefinitions: Definitions = {
  [core('Event')]: kind(v1('Event'), {
    action: str('What was done, or failed, about the regarding object.'),
    count: int32('Times this event has occurred.'),
    eventTime: ref(meta('MicroTime'), 'When the event was first observed, in microseconds.'),
    firstTimestamp: ref(meta('Time'), 'When the event was first recorded.'),
    involvedObject: ref(core('ObjectReference'), 'The object this event is about.'),
    lastTimestamp: ref(meta('Time'), 'When the event was most recently recorded.'),
    message: str('Human-readable description of the event.'),
    reason: str("Short machine-readable reason for the object's transition."),
    related: ref(core('ObjectReference'), 'A second object, for more complex actions.'),
    reportingComponent: str('Controller that emitted the event, such as kubernetes.io/kubelet.'),
    reportingInstance: str('ID of the controller instance, such as kubelet-xyzf.'),
    series: ref(core('EventSeries'), 'Data about the series this event belongs to, if any.'),
    source: ref(core('EventSource'), 'Component reporting the event.'),
    type: str('Type of the event: Normal or Warning.'),
  }, 'A report of an event somewhere in the cluster.', { required: ['metadata', 'involvedObject'] }),
  [core('EventList')]: listKind(v1('EventList'), core('Event')),
  [core('EventSeries')]: obj({
    count: int32('Occurrences in the series so far.'),
    lastObservedTime: ref(meta('MicroTime'), 'When the last occurrence was observed.'),
  }, 'A series of events recurring in a short time.'),
  [core('EventSource')]: obj({
    component: str('Component that generated the event.'),
    host: str('Node that generated the event.'),
  }, 'The component that reports an event.'),
};
