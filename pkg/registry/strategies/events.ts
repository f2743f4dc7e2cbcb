// Events (upstream: pkg/apis/core/validation/events.go). Every write passes the legacy checks; writes through
// events.k8s.io/v1 pass the strict ones too. Both run on the core shape the event is kept in, so the messages name
// core fields (involvedObject, message) as upstream's do, whichever version the client wrote.
import { isDeepStrictEqual } from 'node:util';
import { toCoreEvent } from '../../../api/events/v1/conversion.js';
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue, required } from '../../apimachinery/field.js';
import { isQualifiedName } from '../../apimachinery/names.js';
import type { Strategy } from '../strategy.js';

const LIMITS = { reportingInstance: 128, action: 128, reason: 128, message: 1024 };

const atMost = (field: keyof typeof LIMITS): StatusCause => invalidValue(field, '', `can have at most ${LIMITS[field]} characters`);

/** What any client may write: a namespace matching the involved object's; new-style events name who reports them. */
function legacy(e: KubeObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const ns = e.metadata?.namespace ?? '';
  const objectNs: string = e.involvedObject?.namespace ?? '';
  const mismatch = (): number => causes.push(invalidValue('involvedObject.namespace', objectNs, 'does not match event.namespace'));
  if (!e.eventTime) {
    if (objectNs ? ns !== objectNs : ns !== '' && ns !== 'default') mismatch();
    return causes;
  }
  if (!objectNs && ns !== 'default' && ns !== 'kube-system') mismatch();
  const controller: string = e.reportingComponent ?? '';
  if (!controller) causes.push(required('reportingController'));
  for (const msg of isQualifiedName(controller)) causes.push(invalidValue('reportingController', controller, msg));
  for (const field of ['reportingInstance', 'action', 'reason'] as const) {
    const value: string = e[field] ?? '';
    if (!value) causes.push(required(field));
    if (value.length > LIMITS[field]) causes.push(atMost(field));
  }
  if ((e.message ?? '').length > LIMITS.message) causes.push(atMost('message'));
  return causes;
}

function series(e: KubeObject): StatusCause[] {
  if (!e.series) return [];
  const causes: StatusCause[] = [];
  if ((e.series.count ?? 0) < 2) causes.push(invalidValue('series.count', '', 'should be at least 2'));
  if (!e.series.lastObservedTime) causes.push(required('series.lastObservedTime'));
  return causes;
}

/** events.k8s.io/v1 creates: new-style only, none of the deprecated core fields (eventTime is the schema's required). */
function strictCreate(e: KubeObject): StatusCause[] {
  const causes = series(e);
  if (e.type !== 'Normal' && e.type !== 'Warning') causes.push(invalidValue('type', '', `has invalid value: ${e.type ?? ''}`));
  for (const field of ['firstTimestamp', 'lastTimestamp']) if (e[field]) causes.push(invalidValue(field, '', 'needs to be unset'));
  if (e.count) causes.push(invalidValue('count', '', 'needs to be unset'));
  if (e.source?.component || e.source?.host) causes.push(invalidValue('source', '', 'needs to be unset'));
  return causes;
}

/** Core field → the name upstream's messages use (its internal type's). */
const IMMUTABLE: [string, string][] = [
  ['involvedObject', 'involvedObject'], ['reason', 'reason'], ['message', 'message'], ['source', 'source'],
  ['firstTimestamp', 'firstTimestamp'], ['lastTimestamp', 'lastTimestamp'], ['count', 'count'], ['type', 'type'],
  ['eventTime', 'eventTime'], ['action', 'action'], ['related', 'related'], ['reportingComponent', 'reportingController'],
  ['reportingInstance', 'reportingInstance'],
];

/** events.k8s.io/v1 updates: only the series (and metadata) may change. */
function strictUpdate(e: KubeObject, old: KubeObject): StatusCause[] {
  const causes = isDeepStrictEqual(e.series, old.series) ? [] : series(e);
  for (const [field, path] of IMMUTABLE) {
    if (!isDeepStrictEqual(e[field], old[field])) causes.push(invalidValue(path, e[field] ?? '', 'field is immutable'));
  }
  return causes;
}

export const coreEventStrategy: Strategy = {
  validate: (e) => legacy(e),
  validateUpdate: (e) => legacy(e),
};

export const eventsV1Strategy: Strategy = {
  // upstream's ValidateEventUpdate: legacy checks and immutability, not the strict create checks
  updateValidationIsComplete: true,
  validate: (e) => {
    const core = toCoreEvent(e);
    return [...legacy(core), ...strictCreate(core)];
  },
  validateUpdate: (e, old) => {
    const core = toCoreEvent(e);
    return [...legacy(core), ...strictUpdate(core, toCoreEvent(old))];
  },
};
