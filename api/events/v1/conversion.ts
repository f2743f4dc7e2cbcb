// events.k8s.io/v1 Events are core/v1 Events seen another way (upstream serves both from one storage): one object,
// with the newer names for the same fields. Writing through either version and reading through the other loses nothing.
import type { StorageConversion } from '../../types.js';

type Obj = Record<string, any>;

/** events.k8s.io/v1 name → core/v1 name, for the fields that differ. */
const RENAMED: [string, string][] = [
  ['regarding', 'involvedObject'], ['note', 'message'], ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'], ['deprecatedFirstTimestamp', 'firstTimestamp'], ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];

function rename(obj: Obj, apiVersion: string, pairs: [string, string][]): Obj {
  const out: Obj = { ...obj, apiVersion, kind: 'Event' };
  for (const [from, to] of pairs) {
    delete out[from];
    if (obj[from] !== undefined) out[to] = obj[from];
  }
  return out;
}

const TO_EVENTS_V1 = RENAMED.map(([a, b]): [string, string] => [b, a]);

/** A core/v1 Event as the events.k8s.io/v1 view of it (also what the core validation reads back). */
export const toCoreEvent = (e: Obj): Obj => rename(e, 'v1', RENAMED);

export const eventConversion: StorageConversion = {
  storageVersion: 'v1',
  toStorage: toCoreEvent,
  fromStorage: (e) => rename(e, 'events.k8s.io/v1', TO_EVENTS_V1),
};
