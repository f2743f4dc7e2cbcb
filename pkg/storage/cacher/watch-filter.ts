// What a watcher with a predicate sees of an event, as upstream's cacheWatcher: an object that stops
// matching is DELETED (its previous content at the event's revision), one that starts matching is ADDED.
// Derived events are built once per source event and shared by every watcher.
import type { KubeObject } from '../../../api/types.js';
import type { KeyValue, StoreEvent } from '../interface.js';
import { stampKeyValue } from '../keyvalue.js';

export type Predicate = (obj: KubeObject) => boolean;

const asAdded = new WeakMap<StoreEvent, StoreEvent>();
const asDeleted = new WeakMap<StoreEvent, StoreEvent>();
const initial = new WeakMap<KeyValue, StoreEvent>();

export function filterEvent(ev: StoreEvent, predicate: Predicate | undefined): StoreEvent | undefined {
  if (!predicate) return ev;
  const was = ev.prev !== undefined && predicate(ev.prev.object);
  if (ev.type === 'DELETED') return was ? ev : undefined;
  const is = predicate(ev.kv.object);
  if (is) return was || ev.type === 'ADDED' ? ev : derivedAdded(ev);
  return was ? derivedDeleted(ev, ev.prev!) : undefined;
}

/** The synthetic ADDED of a current object, for sendInitialEvents. */
export function initialEvent(kv: KeyValue): StoreEvent {
  let ev = initial.get(kv);
  if (!ev) initial.set(kv, (ev = { type: 'ADDED', key: kv.key, revision: kv.modRevision, kv }));
  return ev;
}

function derivedAdded(ev: StoreEvent): StoreEvent {
  let out = asAdded.get(ev);
  if (!out) asAdded.set(ev, (out = { type: 'ADDED', key: ev.key, revision: ev.revision, kv: ev.kv }));
  return out;
}

function derivedDeleted(ev: StoreEvent, prev: KeyValue): StoreEvent {
  let out = asDeleted.get(ev);
  if (!out) {
    const kv = stampKeyValue(ev.key, prev.object, ev.revision, prev.createRevision);
    asDeleted.set(ev, (out = { type: 'DELETED', key: ev.key, revision: ev.revision, kv, prev }));
  }
  return out;
}
