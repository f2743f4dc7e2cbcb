// Events, core/v1 and events.k8s.io/v1 alike (both are one resource upstream, printed by one printer):
// LAST SEEN TYPE REASON OBJECT MESSAGE, wide SUBOBJECT SOURCE FIRST SEEN COUNT NAME.
import type { KubeObject } from '../../../api/types.js';
import { column, type Printer, wideColumn } from './types.js';
import { parseTime, since } from './duration.js';

/** The fields the printer reads, named as core/v1 names them. */
interface CoreEventView {
  name: string;
  type: string;
  reason: string;
  message: string;
  involvedObject: { kind?: string; name?: string; fieldPath?: string };
  source: { component?: string; host?: string };
  reportingController: string;
  reportingInstance: string;
  firstTimestamp?: string;
  lastTimestamp?: string;
  eventTime?: string;
  count: number;
  series?: { count?: number; lastObservedTime?: string };
}

/** Where the fields that differ by version sit: events.k8s.io/v1 renamed them, or kept them as deprecated. */
type FieldNames = Record<'message' | 'involvedObject' | 'source' | 'reportingController' | 'firstTimestamp' | 'lastTimestamp' | 'count', string>;

const CORE_V1: FieldNames = {
  message: 'message', involvedObject: 'involvedObject', source: 'source', reportingController: 'reportingComponent',
  firstTimestamp: 'firstTimestamp', lastTimestamp: 'lastTimestamp', count: 'count',
};
const EVENTS_V1: FieldNames = {
  message: 'note', involvedObject: 'regarding', source: 'deprecatedSource', reportingController: 'reportingController',
  firstTimestamp: 'deprecatedFirstTimestamp', lastTimestamp: 'deprecatedLastTimestamp', count: 'deprecatedCount',
};

function view(e: KubeObject, at: FieldNames): CoreEventView {
  return {
    name: e.metadata?.name ?? '',
    type: e.type ?? '',
    reason: e.reason ?? '',
    message: e[at.message] ?? '',
    involvedObject: e[at.involvedObject] ?? {},
    source: e[at.source] ?? {},
    reportingController: e[at.reportingController] ?? '',
    reportingInstance: e.reportingInstance ?? '',
    firstTimestamp: e[at.firstTimestamp],
    lastTimestamp: e[at.lastTimestamp],
    eventTime: e.eventTime,
    count: e[at.count] ?? 0,
    series: e.series,
  };
}

/** "component, host", using the reporting controller/instance when the source leaves them empty. */
function formatSource(e: CoreEventView): string {
  const component = e.source.component || e.reportingController;
  const instance = e.source.host || e.reportingInstance;
  return instance ? `${component}, ${instance}` : component;
}

function eventCells(e: CoreEventView, now: Date): unknown[] {
  const first = parseTime(e.firstTimestamp) !== undefined ? since(e.firstTimestamp, now) : since(e.eventTime, now);
  let last = parseTime(e.lastTimestamp) !== undefined ? since(e.lastTimestamp, now) : first;
  let count = e.count;
  if (e.series) {
    last = since(e.series.lastObservedTime, now);
    count = e.series.count ?? 0;
  } else if (count === 0) {
    count = 1; // singleton events of the new API carry no count
  }
  const kind = (e.involvedObject.kind ?? '').toLowerCase();
  const target = e.involvedObject.name ? `${kind}/${e.involvedObject.name}` : kind;
  return [
    last,
    e.type,
    e.reason,
    target,
    e.involvedObject.fieldPath ?? '',
    formatSource(e),
    e.message.trim(),
    first,
    count,
    e.name,
  ];
}

const columns = [
  column('Last Seen', 'How long ago the event was last observed.'),
  column('Type', 'The type of the event: Normal or Warning.'),
  column('Reason', 'A short machine-readable reason for the event.'),
  column('Object', 'The object the event is about.'),
  wideColumn('Subobject', 'The part of the object the event is about, such as a container.'),
  wideColumn('Source', 'The component (and host) that reported the event.'),
  column('Message', 'A human-readable description of the event.'),
  wideColumn('First Seen', 'How long ago the event was first observed.'),
  wideColumn('Count', 'How many times the event was observed.'),
  { ...wideColumn('Name', 'The name of the event object.'), format: 'name' },
];

export const eventPrinter: Printer = { columns, cells: (e, now) => eventCells(view(e, CORE_V1), now) };

export const eventsV1Printer: Printer = { columns, cells: (e, now) => eventCells(view(e, EVENTS_V1), now) };
