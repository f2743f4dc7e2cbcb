// A view of a resource's storage at one served version (a custom resource's versions; a built-in kind served in two
// versions): a Store whose reads (get, list, watch events) come converted to that version and defaulted, and whose
// writes are converted to the storage version first.
// A Cacher over it is the version's watch cache, so every read path (get, list, watch, Table) sees the version
// the client asked for without the generic registry knowing about conversion. Webhook conversions are async:
// watch events are converted in order and progress is reported only after the events before it.
import type { KubeObject } from '../../../api/types.js';
import type { KeyValue, Store, StoreEvent, Watcher } from '../../storage/interface.js';

export interface ViewCodec {
  /** The stored object as this version serves it (may return the same object when nothing changes). */
  toView(obj: KubeObject): KubeObject | Promise<KubeObject>;
  /** An object of this version as the storage version keeps it. */
  toStorage(obj: KubeObject): KubeObject | Promise<KubeObject>;
  /** A conversion failed while following the store (the event is then served with apiVersion rewritten only). */
  onError?(err: unknown): void;
  fallback(obj: KubeObject): KubeObject;
}

const isPromise = <T>(v: T | Promise<T>): v is Promise<T> => typeof (v as Promise<T>)?.then === 'function';

function viewKv(codec: ViewCodec, kv: KeyValue): KeyValue | Promise<KeyValue> {
  const wrap = (o: KubeObject): KeyValue => (o === kv.object ? kv : { ...kv, object: o, bytes: Buffer.from(JSON.stringify(o)) });
  const o = codec.toView(kv.object);
  return isPromise(o) ? o.then(wrap) : wrap(o);
}

export function convertingStore(inner: Store, codec: ViewCodec): Store {
  const view = async (kv: KeyValue): Promise<KeyValue> => viewKv(codec, kv);
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
      // Events stay in order: once one needs an async conversion, the ones after it wait their turn.
      let chain: Promise<void> | undefined;
      const safeView = (kv: KeyValue): KeyValue | Promise<KeyValue> => {
        try {
          const r = viewKv(codec, kv);
          return isPromise(r) ? r.catch((err: unknown) => fallbackKv(err, kv)) : r;
        } catch (err) {
          return fallbackKv(err, kv);
        }
      };
      const fallbackKv = (err: unknown, kv: KeyValue): KeyValue => {
        codec.onError?.(err);
        const o = codec.fallback(kv.object);
        return { ...kv, object: o, bytes: Buffer.from(JSON.stringify(o)) };
      };
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
      inner.watch(prefix, opts, {
        onEvent: (ev: StoreEvent) => enqueue(() => {
          const kv = safeView(ev.kv);
          const prev = ev.prev && safeView(ev.prev);
          if (!isPromise(kv) && !isPromise(prev)) return watcher.onEvent({ ...ev, kv, prev });
          return Promise.all([kv, prev]).then(([k, p]) => watcher.onEvent({ ...ev, kv: k, prev: p }));
        }),
        onProgress: (revision) => enqueue(() => watcher.onProgress?.(revision)),
        onClose: (err) => enqueue(() => watcher.onClose(err)),
      });
    },
    revision: () => inner.revision(),
    compactedRevision: () => inner.compactedRevision(),
    compact: (revision) => inner.compact(revision),
    // The view does not own the store.
    close: async () => {},
  };
}
