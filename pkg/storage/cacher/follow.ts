// The apiserver's own consumers of a watch cache (RBAC, admission webhooks and policies, APIServices, CRDs) follow
// it as a reflector follows the API: a list, then a watch from the list's revision. When the cache ends their
// watch because it lost its store watch and rebuilds, they list again once it is ready, get what changed meanwhile
// as events (DELETED for what went away), and watch on; a watch it ends cleanly (the cache stopped) ends here too.
import type { KeyValue, StoreEvent } from '../interface.js';
import type { Cacher } from './cacher.js';

const RETRY_MIN_MS = 50;
const RETRY_MAX_MS = 2_000;

export interface FollowOptions {
  /** An ADDED for every object there at the start (default: only changes from now on). */
  initialEvents?: boolean;
  /** Told about each re-list after the cache ended the watch (for a log line). */
  onResync?: (err: Error) => void;
}

/** Calls `onEvent` for every change under `prefix` until the returned function is called. */
export function followCache(cacher: Cacher, prefix: string, onEvent: (ev: StoreEvent) => void, opts: FollowOptions = {}): () => void {
  let known = new Map<string, KeyValue>();
  let unsubscribe: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const deliver = (ev: StoreEvent): void => {
    if (ev.type === 'DELETED') known.delete(ev.key);
    else known.set(ev.key, ev.kv);
    onEvent(ev);
  };

  /** Lists, tells the difference from what was known (when asked to), and watches from the list's revision. */
  const start = (tell: boolean): void => {
    const { items, revision } = cacher.list({ prefix });
    const previous = known;
    known = new Map(items.map((kv) => [kv.key, kv]));
    if (tell) {
      for (const [key, kv] of previous) {
        if (!known.has(key)) onEvent({ type: 'DELETED', key, revision, kv, prev: kv });
      }
      for (const [key, kv] of known) {
        const prev = previous.get(key);
        if (!prev) onEvent({ type: 'ADDED', key, revision: kv.modRevision, kv });
        else if (prev.modRevision !== kv.modRevision) onEvent({ type: 'MODIFIED', key, revision: kv.modRevision, kv, prev });
      }
    }
    unsubscribe = cacher.watch({ prefix, fromRevision: revision }, {
      onEvent: deliver,
      onClose: (err) => {
        unsubscribe = undefined;
        if (!stopped && err) {
          opts.onResync?.(err);
          retry(RETRY_MIN_MS);
        }
      },
    });
  };

  /** Waits for the cache to be rebuilt (it refuses watches meanwhile), backing off. */
  const retry = (delayMs: number): void => {
    timer = setTimeout(() => {
      if (stopped) return;
      if (!cacher.isReady()) return retry(Math.min(delayMs * 2, RETRY_MAX_MS));
      try {
        start(true);
      } catch {
        retry(Math.min(delayMs * 2, RETRY_MAX_MS));
      }
    }, delayMs);
    timer.unref();
  };

  start(opts.initialEvents ?? false); // from nothing known, the difference is an ADDED per object
  return () => {
    stopped = true;
    clearTimeout(timer);
    unsubscribe?.();
  };
}
