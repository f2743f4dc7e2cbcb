// Building the shared KeyValue of a write: stamp the revision into a shallow copy and serialize once.
// The watch cache holds every object; its JSON bytes are what most readers want (get, list, watch as JSON),
// so a KeyValue keeps the parsed object only weakly and parses the bytes again when it was collected: a
// parsed pod costs the heap ~4x its JSON, and 10,000 of them held for good would double the server's RSS.
import type { KubeObject } from '../../api/types.js';
import type { KeyValue } from './interface.js';

// Stored objects are shared by every reader (cache, watchers, the next update's builder) and must never be
// written into. MINI_KUBE_FREEZE_STORED=1 (the test suite sets it) deep-freezes them so a write throws.
const freezeStored = process.env.MINI_KUBE_FREEZE_STORED === '1';

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

/** A KeyValue over `bytes`; `parsed` (the same object, already in memory) spares the first parse. */
export function keyValueOf(key: string, bytes: Buffer, modRevision: number, createRevision: number, parsed?: KubeObject): KeyValue {
  if (freezeStored && parsed) deepFreeze(parsed);
  let ref = parsed ? new WeakRef(parsed) : undefined;
  return {
    key, bytes, modRevision, createRevision,
    get object(): KubeObject {
      let o = ref?.deref();
      if (!o) {
        o = JSON.parse(bytes.toString()) as KubeObject;
        if (freezeStored) deepFreeze(o);
        ref = new WeakRef(o);
      }
      return o;
    },
  };
}

/** The stored form of `object` at `revision`: the input is not mutated, its metadata is copied shallowly. */
export function stampKeyValue(key: string, object: KubeObject, revision: number, createRevision: number): KeyValue {
  const stamped: KubeObject = { ...object, metadata: { ...object.metadata, resourceVersion: String(revision) } };
  return keyValueOf(key, Buffer.from(JSON.stringify(stamped)), revision, createRevision, stamped);
}
