// A view of a resource's storage at one served version (a custom resource's versions; a built-in kind served in two
// versions): a Store whose reads (get, list, watch events) come converted to that version and defaulted, and whose
// writes are converted to the storage version first.
// A Cacher over it is the version's watch cache, so every read path (get, list, watch, Table) sees the version
// the client asked for without the generic registry knowing about conversion. Webhook conversions are async:
// watch events are converted in order and progress is reported only after the events before it.
// A conversion that fails is an error, never an object served half-converted: get and list fail whole (upstream's
// storage decodes every object it returns), and a watch holds the event it cannot convert, and every event after
// it, retrying with backoff or when asked (retryHeld), so a cache over the view stays consistent at the revision
// before it.
import type { KubeObject } from '../../../api/types.js';
import type { KeyValue, Store, StoreEvent, Watcher } from '../../storage/interface.js';
import { keyValueOf, storedBytes } from '../../storage/keyvalue.js';

export interface ViewCodec {
  /** The stored object as this version serves it (may return the same object when nothing changes). */
  toView(obj: KubeObject): KubeObject | Promise<KubeObject>;
  /** An object of this version as the storage version keeps it. */
  toStorage(obj: KubeObject): KubeObject | Promise<KubeObject>;
  /**
   * Every stored object is served as it is (the only version, nothing defaulted on read): reads and events pass
   * through without their objects being looked at, which would parse again what the store no longer holds parsed.
   */
  identity?: boolean;
  /**
   * toView is synchronous and never fails (a built-in kind's conversion): an event's object is converted when first
   * read. The view's watch cache takes in every write of the resource, and most are never read at that version.
   */
  lazy?: boolean;
}

export interface ConvertingStore extends Store {
  /** Whether a watch of the view is held at an event it could not convert. */
  held(): boolean;
  /**
   * Retries now every held watch's conversion: resolves once they moved on, rejects with the conversion's error
   * when it fails again.
   */
  retryHeld(): Promise<void>;
}

/** Backoff between a held watch event's own retries. */
export const heldRetry = { minMs: 1_000, maxMs: 30_000 };

const isPromise = <T>(v: T | Promise<T>): v is Promise<T> => typeof (v as Promise<T>)?.then === 'function';

/** A stored state seen through a lazy codec: converted, and serialized, on the first read of either. */
class LazyViewKeyValue implements KeyValue {
  readonly key: string;
  readonly modRevision: number;
  readonly createRevision: number;
  #source: KeyValue | undefined;
  #codec: ViewCodec | undefined;
  #view: KeyValue | undefined;

  constructor(source: KeyValue, codec: ViewCodec) {
    this.key = source.key;
    this.modRevision = source.modRevision;
    this.createRevision = source.createRevision;
    this.#source = source;
    this.#codec = codec;
  }

  get object(): KubeObject { return this.#resolve().object; }
  get bytes(): Buffer { return this.#resolve().bytes; }

  #resolve(): KeyValue {
    if (this.#view) return this.#view;
    const source = this.#source!;
    const o = this.#codec!.toView(source.object);
    if (isPromise(o)) throw new Error('a lazy view codec converted asynchronously');
    this.#view = o === source.object ? source : keyValueOf(this.key, storedBytes(JSON.stringify(o)), this.modRevision, this.createRevision, o);
    this.#source = this.#codec = undefined;
    return this.#view;
  }
}

function viewKv(codec: ViewCodec, kv: KeyValue): KeyValue | Promise<KeyValue> {
  if (codec.identity) return kv;
  const wrap = (o: KubeObject): KeyValue => (o === kv.object ? kv : { ...kv, object: o, bytes: storedBytes(JSON.stringify(o)) });
  const o = codec.toView(kv.object);
  return isPromise(o) ? o.then(wrap) : wrap(o);
}

/**
 * An event with its object (and previous object) converted; a sync conversion answers (or throws) at once, a lazy
 * one when read. (What a write or a read returns is read at once, while the store still holds it parsed.)
 */
function viewEvent(codec: ViewCodec, ev: StoreEvent): StoreEvent | Promise<StoreEvent> {
  if (codec.identity) return ev;
  if (codec.lazy) {
    // Read now, while the store holds a new object parsed: it keeps it (weakly) past the dispatch only if read, and
    // the write's own caller converts it for its response next.
    void ev.kv.object;
    return { ...ev, kv: new LazyViewKeyValue(ev.kv, codec), prev: ev.prev && new LazyViewKeyValue(ev.prev, codec) };
  }
  const kv = viewKv(codec, ev.kv);
  const prev = ev.prev && viewKv(codec, ev.prev);
  if (!isPromise(kv) && !isPromise(prev)) return { ...ev, kv, prev };
  return Promise.all([kv, prev]).then(([k, p]) => ({ ...ev, kv: k, prev: p }));
}

interface Held {
  /** Ends the wait before the next attempt; resolves or rejects with that attempt. */
  retry(): Promise<void>;
}

export function convertingStore(inner: Store, codec: ViewCodec): ConvertingStore {
  const view = async (kv: KeyValue): Promise<KeyValue> => viewKv(codec, kv);
  const holds = new Set<Held>();

  /**
   * Delivers an event whose conversion failed once it converts: attempts after a backoff, or at once when asked;
   * each attempt settles the askers waiting for it.
   */
  const hold = async (ev: StoreEvent, err: unknown, signal: AbortSignal, deliver: (ev: StoreEvent) => void): Promise<void> => {
    let askers: { resolve(): void; reject(err: unknown): void }[] = [];
    let wake = (): void => {};
    const held: Held = { retry: () => new Promise<void>((resolve, reject) => { askers.push({ resolve, reject }); wake(); }) };
    const settle = (e?: unknown): void => {
      const waiting = askers;
      askers = [];
      for (const a of waiting) {
        if (e === undefined) a.resolve();
        else a.reject(e);
      }
    };
    holds.add(held);
    try {
      for (let delay = heldRetry.minMs; !signal.aborted; delay = Math.min(delay * 2, heldRetry.maxMs)) {
        if (!askers.length) {
          await new Promise<void>((resolve) => {
            const done = (): void => {
              clearTimeout(timer);
              signal.removeEventListener('abort', done);
              wake = () => {};
              resolve();
            };
            const timer = setTimeout(done, delay);
            timer.unref();
            wake = done;
            signal.addEventListener('abort', done, { once: true });
          });
        }
        if (signal.aborted) break;
        let out: StoreEvent;
        try {
          out = await viewEvent(codec, ev);
        } catch (e) {
          err = e;
          settle(e);
          continue;
        }
        holds.delete(held);
        if (!signal.aborted) deliver(out);
        settle();
        return;
      }
      settle(err);
    } finally {
      holds.delete(held);
    }
  };

  return {
    async get(key) {
      const kv = await inner.get(key);
      return kv && view(kv);
    },
    async list(prefix) {
      const res = await inner.list(prefix);
      return { revision: res.revision, items: await Promise.all(res.items.map(view)) };
    },
    async create(key, object) {
      return view(await inner.create(key, await codec.toStorage(object)));
    },
    async guaranteedUpdate(key, tryUpdate, opts) {
      const kv = await inner.guaranteedUpdate(key, async (cur) => {
        const seen = cur && (await view(cur));
        const next = await tryUpdate(seen);
        if (cur && seen && next === seen.object) return cur.object;
        return codec.toStorage(next);
      }, opts);
      return view(kv);
    },
    async delete(key, opts) {
      return view(await inner.delete(key, opts));
    },
    watch(prefix, opts, watcher: Watcher) {
      // Events stay in order: once one needs an async conversion (or is held), the ones after it wait their turn.
      let chain: Promise<void> | undefined;
      const enqueue = (step: () => void | Promise<void>): void => {
        if (!chain) {
          const r = step();
          if (isPromise(r)) chain = r.finally(() => { if (chain === tail) chain = undefined; });
          const tail = chain;
          return;
        }
        const next: Promise<void> = chain.then(step).finally(() => { if (chain === next) chain = undefined; });
        chain = next;
      };
      const deliver = (ev: StoreEvent): void => watcher.onEvent(ev);
      inner.watch(prefix, opts, {
        onEvent: (ev: StoreEvent) => enqueue(() => {
          let out: StoreEvent | Promise<StoreEvent>;
          try {
            out = viewEvent(codec, ev);
          } catch (err) {
            return hold(ev, err, opts.signal, deliver);
          }
          if (!isPromise(out)) return deliver(out);
          return out.then(deliver, (err: unknown) => hold(ev, err, opts.signal, deliver));
        }),
        onProgress: (revision) => enqueue(() => watcher.onProgress?.(revision)),
        onClose: (err) => enqueue(() => watcher.onClose(err)),
      });
    },
    held: () => holds.size > 0,
    async retryHeld() {
      await Promise.all([...holds].map((h) => h.retry()));
    },
    revision: () => inner.revision(),
    compactedRevision: () => inner.compactedRevision(),
    compact: (revision) => inner.compact(revision),
    // The view does not own the store.
    close: async () => {},
  };
}
