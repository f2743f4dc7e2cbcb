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

function coreView(e: KubeObject): CoreEventView {
  return {
    name: e.metadata?.name ?? '',
    type: e.type ?? '',
    reason: e.reason ?? '',
    message: e.message ?? '',
    involvedObject: e.involvedObject ?? {},
    source: e.source ?? {},
    reportingController: e.reportingComponent ?? '',
    reportingInstance: e.reportingInstance ?? '',
    firstTimestamp: e.firstTimestamp,
    lastTimestamp: e.lastTimestamp,
    eventTime: e.eventTime,
    count: e.count ?? 0,
    series: e.series,
  };
}

/** events.k8s.io/v1 renames the core fields; map them back. */
function eventsV1View(e: KubeObject): CoreEventView {
  return {
    name: e.metadata?.name ?? '',
    type: e.type ?? '',
    reason: e.reason ?? '',
    message: e.note ?? '',
    involvedObject: e.regarding ?? {},
    source: e.deprecatedSource ?? {},
    reportingController: e.reportingController ?? '',
    reportingInstance: e.reportingInstance ?? '',
    firstTimestamp: e.deprecatedFirstTimestamp,
    lastTimestamp: e.deprecatedLastTimestamp,
    eventTime: e.eventTime,
    count: e.deprecatedCount ?? 0,
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

export const eventPrinter: Printer = { columns, cells: (e, now) => eventCells(coreView(e), now) };

export const eventsV1Printer: Printer = { columns, cells: (e, now) => eventCells(eventsV1View(e), now) };
