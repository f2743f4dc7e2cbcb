// --event-ttl: Events live that long after their last write. Upstream attaches an etcd lease of the TTL to every
// write of an Event, so one nobody touches for an hour is gone and its watchers see DELETED; without it a busy
// cluster's Events (probes, CronJobs, back-offs) would fill the store and the watch cache for good. Here the
// apiserver keeps each Event's deadline and deletes it from the store when it passes, as a lease's expiry does:
// no admission, no audit, no finalizers. Events already stored at start count from their last write.
import type { Logger } from 'pino';
import type { KubeObject } from '../../api/types.js';
import { isStorageError } from '../storage/errors.js';
import { followCache } from '../storage/cacher/follow.js';
import type { Registry } from '../registry/generic/registry.js';
import { resourcePrefix } from '../registry/keys.js';

/** How often deadlines are checked: a tenth of the TTL, within [100 ms, 10 s] (etcd's leases are no finer). */
const sweepEveryMs = (ttlMs: number): number => Math.min(10_000, Math.max(100, Math.floor(ttlMs / 10)));

/** When an Event found at start was last written (ms): the newest of its managed fields' times and its own; -Infinity without any. */
export const lastWriteMs = (ev: KubeObject): number => Math.max(...[
  ...((ev.metadata?.managedFields ?? []) as { time?: unknown }[]).map((m) => m.time),
  ev.series?.lastObservedTime, ev.lastTimestamp, ev.eventTime, ev.metadata?.creationTimestamp,
].filter((t): t is string => typeof t === 'string').map((t) => Date.parse(t)).filter((t) => !Number.isNaN(t)));

export function startEventExpiry(events: Registry, ttlMs: number, logger: Logger, now: () => number = Date.now): () => void {
  const deadlines = new Map<string, { at: number; revision: number }>();
  let starting = true;
  const stopFollowing = followCache(events.deps.cacher, resourcePrefix(events.rt), (ev) => {
    if (ev.type === 'DELETED') {
      deadlines.delete(ev.key);
      return;
    }
    const seen = starting ? lastWriteMs(ev.kv.object) : NaN;
    deadlines.set(ev.key, { at: (Number.isFinite(seen) ? Math.min(seen, now()) : now()) + ttlMs, revision: ev.kv.modRevision });
  }, { initialEvents: true });
  starting = false;

  let sweeping = false;
  const sweep = async (): Promise<void> => {
    const t = now();
    for (const [key, d] of deadlines) {
      if (d.at > t) continue;
      deadlines.delete(key);
      try {
        // written again since: its MODIFIED has set a new deadline, and this one no longer applies
        await events.deps.store.delete(key, { expectedRevision: d.revision });
      } catch (err) {
        if (!isStorageError(err, 'Conflict') && !isStorageError(err, 'KeyNotFound')) logger.warn({ err, key }, 'expired event not deleted');
      }
    }
  };
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    void sweep().finally(() => { sweeping = false; });
  }, sweepEveryMs(ttlMs));
  timer.unref();
  return () => {
    clearInterval(timer);
    stopFollowing();
  };
}
