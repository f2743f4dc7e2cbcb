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

/** A KeyValue whose parsed object is held until its write has been dispatched to the watchers. */
export interface HeldKeyValue extends KeyValue {
  /**
   * The write is dispatched: the parsed object stays (weakly, as any KeyValue's) if something read it by now, else
   * only the bytes do. A new object nobody filtered is mostly not read again soon, and even a weak reference keeps
   * it through V8's young-generation collections: under a stream of creates that copying and promoting was a tenth
   * of the server's CPU.
   */
  release(): void;
}

/** A KeyValue over `bytes`; `parsed` (the same object, already in memory) spares the first parse. */
export function keyValueOf(key: string, bytes: Buffer, modRevision: number, createRevision: number, parsed?: KubeObject): KeyValue {
  if (freezeStored && parsed) deepFreeze(parsed);
  return lazyKeyValue(key, bytes, modRevision, createRevision, parsed ? new WeakRef(parsed) : undefined, undefined);
}

function lazyKeyValue(key: string, bytes: Buffer, modRevision: number, createRevision: number, ref: WeakRef<KubeObject> | undefined, held: KubeObject | undefined): KeyValue & Partial<HeldKeyValue> {
  let read = false;
  // only a held one has a release (an undefined property is none to toEqual, and costs no closure)
  const release = held ? (): void => {
    if (held && read) ref = new WeakRef(held);
    held = undefined;
  } : undefined;
  return {
    key, bytes, modRevision, createRevision,
    get object(): KubeObject {
      if (held) {
        read = true;
        return held;
      }
      let o = ref?.deref();
      if (!o) {
        o = JSON.parse(bytes.toString()) as KubeObject;
        if (freezeStored) deepFreeze(o);
        ref = new WeakRef(o);
      }
      return o;
    },
    release,
  };
}

const stamp = (object: KubeObject, revision: number): KubeObject => ({ ...object, metadata: { ...object.metadata, resourceVersion: String(revision) } });

/** The stored form of `object` at `revision`: the input is not mutated, its metadata is copied shallowly. */
export function stampKeyValue(key: string, object: KubeObject, revision: number, createRevision: number): KeyValue {
  const stamped = stamp(object, revision);
  return keyValueOf(key, Buffer.from(JSON.stringify(stamped)), revision, createRevision, stamped);
}

/** stampKeyValue's form for a write on its way to the watchers: the caller must `release()` it once dispatched. */
export function stampHeldKeyValue(key: string, object: KubeObject, revision: number, createRevision: number): HeldKeyValue {
  const stamped = stamp(object, revision);
  if (freezeStored) deepFreeze(stamped);
  return lazyKeyValue(key, Buffer.from(JSON.stringify(stamped)), revision, createRevision, undefined, stamped) as HeldKeyValue;
}
