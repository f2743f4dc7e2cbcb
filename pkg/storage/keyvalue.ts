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

/**
 * The JSON of an object that is kept (cached, in the watch history), in an allocation of its own. Buffer.from gives
 * a string under 4 KB (most objects) a slice of a shared 8 KB pool, and a slice keeps its whole pool alive: cached
 * objects outlive most of their pool-mates (responses, request bodies, older versions), so a few MB of cached
 * events and pods held ten times that (a soak of deployments coming and going grew the apiserver ~1 MB a minute).
 */
export function storedBytes(json: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(json));
  bytes.write(json);
  return bytes;
}

/** storedBytes for bytes read from somewhere: a copy of their own, not a slice of a larger buffer or of the pool. */
export function storedCopy(from: Buffer): Buffer {
  const bytes = Buffer.allocUnsafeSlow(from.length);
  from.copy(bytes);
  return bytes;
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
  return new StoredKeyValue(key, bytes, modRevision, createRevision, parsed ? new WeakRef(parsed) : undefined, undefined);
}

/**
 * One heap object per stored state: the watch cache keeps one for every object, and the closure-and-accessor
 * literal this was before cost ~700 bytes and five objects for V8's major GC to mark (a dictionary of properties
 * among them); with 70,000 objects cached that marking took a quarter of the server's CPU while it ran.
 */
class StoredKeyValue implements HeldKeyValue {
  #ref: WeakRef<KubeObject> | undefined;
  #held: KubeObject | undefined;
  #read = false;

  constructor(
    readonly key: string,
    readonly bytes: Buffer,
    readonly modRevision: number,
    readonly createRevision: number,
    ref: WeakRef<KubeObject> | undefined,
    held: KubeObject | undefined,
  ) {
    this.#ref = ref;
    this.#held = held;
  }

  get object(): KubeObject {
    if (this.#held) {
      this.#read = true;
      return this.#held;
    }
    let o = this.#ref?.deref();
    if (!o) {
      o = JSON.parse(this.bytes.toString()) as KubeObject;
      if (freezeStored) deepFreeze(o);
      this.#ref = new WeakRef(o);
    }
    return o;
  }

  release(): void {
    if (this.#held && this.#read) this.#ref = new WeakRef(this.#held);
    this.#held = undefined;
  }
}

const stamp = (object: KubeObject, revision: number): KubeObject => ({ ...object, metadata: { ...object.metadata, resourceVersion: String(revision) } });

/** The stored form of `object` at `revision`: the input is not mutated, its metadata is copied shallowly. */
export function stampKeyValue(key: string, object: KubeObject, revision: number, createRevision: number): KeyValue {
  const stamped = stamp(object, revision);
  return keyValueOf(key, storedBytes(JSON.stringify(stamped)), revision, createRevision, stamped);
}

/** stampKeyValue's form for a write on its way to the watchers: the caller must `release()` it once dispatched. */
export function stampHeldKeyValue(key: string, object: KubeObject, revision: number, createRevision: number): HeldKeyValue {
  const stamped = stamp(object, revision);
  if (freezeStored) deepFreeze(stamped);
  return new StoredKeyValue(key, storedBytes(JSON.stringify(stamped)), revision, createRevision, undefined, stamped);
}
