// The store's watchers: replay from the kept log, then live fan-out of durable events.
// Replay and going live happen in one synchronous step (a microtask after watch()), and events are
// dispatched synchronously once durable, so nothing can slip between the two: no gap, no duplicate.
import { StorageError } from '../errors.js';
import type { StoreEvent, Watcher } from '../interface.js';
import type { EventLog } from './event-log.js';

/** What a new subscription replays from, read when the replay runs. */
export interface ReplaySource {
  log: EventLog;
  compacted(): number;
  revision(): number;
}

interface Subscription {
  prefix: string;
  watcher: Watcher;
  /** Deliver only events with a higher revision. */
  after: number;
  /** Replayed and receiving live events. */
  live: boolean;
  done: boolean;
  detach?: () => void;
}

export class WatchHub {
  private readonly subs = new Set<Subscription>();
  /**
   * The subscriptions by prefix when it ends with '/' (a resource's, a namespace's: all the cachers'), found from an
   * event's key by its slashes instead of trying every prefix; the others are tried one by one.
   */
  private readonly byPrefix = new Map<string, Set<Subscription>>();
  private readonly unindexed = new Set<Subscription>();

  /**
   * Subscribe from `after` (already validated against compaction; checked again when the replay runs, as a
   * compaction may have happened in between). Once live, the watcher gets a progress notify at once.
   */
  subscribe(prefix: string, after: number, signal: AbortSignal, watcher: Watcher, source: ReplaySource): void {
    const sub: Subscription = { prefix, watcher, after, live: false, done: false };
    this.subs.add(sub);
    this.indexOf(prefix, true)?.add(sub);
    const onAbort = (): void => this.close(sub);
    signal.addEventListener('abort', onAbort, { once: true });
    sub.detach = () => signal.removeEventListener('abort', onAbort);
    queueMicrotask(() => {
      if (sub.done) return;
      if (signal.aborted) return this.close(sub);
      const compacted = source.compacted();
      if (after < compacted) {
        return this.close(sub, new StorageError('Compacted', prefix, `revision ${after} has been compacted`, compacted));
      }
      for (const ev of source.log.since(after)) {
        if (ev.key.startsWith(prefix)) this.deliver(sub, ev);
        if (sub.done) return;
      }
      sub.live = true;
      this.notify(sub, source.revision());
    });
  }

  dispatch(ev: StoreEvent): void {
    const key = ev.key;
    for (let slash = key.indexOf('/'); slash >= 0; slash = key.indexOf('/', slash + 1)) {
      const subs = this.byPrefix.get(key.slice(0, slash + 1));
      if (subs) for (const sub of subs) this.offer(sub, ev);
    }
    for (const sub of this.unindexed) if (key.startsWith(sub.prefix)) this.offer(sub, ev);
  }

  private offer(sub: Subscription, ev: StoreEvent): void {
    if (sub.live && ev.revision > sub.after) this.deliver(sub, ev);
  }

  /** The set a subscription with `prefix` belongs in (made when `create`). */
  private indexOf(prefix: string, create = false): Set<Subscription> | undefined {
    if (!prefix.endsWith('/')) return this.unindexed;
    let subs = this.byPrefix.get(prefix);
    if (!subs && create) this.byPrefix.set(prefix, (subs = new Set()));
    return subs;
  }

  progress(revision: number): void {
    for (const sub of this.subs) if (sub.live) this.notify(sub, revision);
  }

  closeAll(err?: Error): void {
    for (const sub of [...this.subs]) this.close(sub, err);
  }

  private deliver(sub: Subscription, ev: StoreEvent): void {
    try {
      sub.watcher.onEvent(ev);
    } catch (err) {
      // A failing watcher is cut off; the others keep their stream.
      this.close(sub, err as Error);
    }
  }

  private notify(sub: Subscription, revision: number): void {
    if (!sub.watcher.onProgress) return;
    try {
      sub.watcher.onProgress(revision);
    } catch (err) {
      this.close(sub, err as Error);
    }
  }

  private close(sub: Subscription, err?: Error): void {
    if (sub.done) return;
    sub.done = true;
    this.subs.delete(sub);
    const subs = this.indexOf(sub.prefix);
    subs?.delete(sub);
    if (subs?.size === 0 && subs !== this.unindexed) this.byPrefix.delete(sub.prefix);
    sub.detach?.();
    sub.watcher.onClose(err);
  }
}
