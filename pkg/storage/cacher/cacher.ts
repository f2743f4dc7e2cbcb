// The watch cache of one resource prefix (upstream's cacher + watchCache): filled by a list, kept current by a
// store watch, it serves get, list (with limit/continue) and watch so that thousands of watchers never touch
// the store. Everything is synchronous after start: an event updates the cache and reaches every watcher in
// one step, and watchers are never buffered (the HTTP layer closes the slow ones).
import { isStorageError, StorageError } from '../errors.js';
import type { KeyValue, Store, StoreEvent } from '../interface.js';
import { EventRing } from './event-ring.js';
import { SortedKeys } from './sorted-keys.js';
import { filterEvent, initialEvent, type Predicate } from './watch-filter.js';

/** Backoff between attempts to rebuild after the store watch died. */
const REBUILD_MIN_DELAY_MS = 50;
const REBUILD_MAX_DELAY_MS = 5_000;

export interface CacherOptions {
  /** Events kept for watches resuming from an older revision (default 10,000). */
  historySize?: number;
  /**
   * Whether a start fills the history from the events the store keeps (default true). A view that converts each
   * event through a webhook starts its history at its list instead: one historical object the webhook refuses would
   * hold the start, and a restart would call it for every kept event.
   */
  historyFromStore?: boolean;
}

export interface CacheListOptions {
  prefix: string;
  predicate?: Predicate;
  limit?: number;
  /** Start at this key (inclusive; the nextKey of the previous page and a NUL, as etcd's range start). */
  startKey?: string;
  /**
   * List the state as of this revision (a paged list's snapshot, resourceVersionMatch=Exact), rebuilt from the
   * history; throws StorageError 'Compacted' when it is older than the history kept. Default: the current state.
   */
  revision?: number;
}

export interface CacheListResult {
  items: KeyValue[];
  revision: number;
  /** Set when more items match: the last returned key, to continue from. */
  nextKey?: string;
  /** Set with nextKey: how many more items match. */
  remaining?: number;
}

export interface CacheWatchOptions {
  prefix: string;
  /** Deliver events after this revision; 0 = from now on. Ignored with sendInitialEvents. */
  fromRevision: number;
  predicate?: Predicate;
  /** First an ADDED for every current matching object, then live events. */
  sendInitialEvents?: boolean;
}

export interface CacheWatchSink {
  onEvent(ev: StoreEvent): void;
  /** Called once when the cacher ends the watch (stop, store gone, sink threw); not on unsubscribe. */
  onClose(err?: Error): void;
  /** With sendInitialEvents: the initial state has been sent, consistent at `revision` (the initial-events-end bookmark). */
  onInitialEventsEnd?(revision: number): void;
}

interface Subscription {
  prefix: string;
  predicate?: Predicate;
  sink: CacheWatchSink;
  after: number;
  live: boolean;
  done: boolean;
}

interface FreshWaiter {
  revision: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

export class Cacher {
  private objects = new Map<string, KeyValue>();
  private keys = new SortedKeys();
  private readonly historySize: number;
  private readonly historyFromStore: boolean;
  private ring: EventRing;
  /** The revision of the list the cache was last filled from: upstream's watch cache resumes no watch from before it. */
  private listed = 0;
  private rev = 0;
  private readonly subs = new Set<Subscription>();
  private readonly waiters = new Set<FreshWaiter>();
  private storeWatch: AbortController | undefined;
  private ready = false;
  private rebuildTimer: NodeJS.Timeout | undefined;
  private ended: Error | undefined;

  constructor(
    private readonly store: Store,
    readonly prefix: string,
    opts: CacherOptions = {},
  ) {
    this.historySize = opts.historySize ?? 10_000;
    this.historyFromStore = opts.historyFromStore ?? true;
    this.ring = new EventRing(this.historySize, 0);
  }

  /** Lists the prefix, then follows the store (see sync); resolves once the cache is live. */
  async start(): Promise<void> {
    for (;;) {
      try {
        return await this.follow();
      } catch (err) {
        // A compaction passed the store's oldest kept revision, where the watch was to start, before it replayed.
        if (this.ended || !isStorageError(err, 'Compacted')) throw err;
      }
    }
  }

  /**
   * sync, with the store's history when it can be replayed. Kept events the store cannot give back (a secret
   * encrypted with a key the configuration no longer has) leave the cache without that history, as before it had
   * any: revisions older than its list get 410, as upstream's reads of them from etcd fail.
   */
  private async follow(): Promise<void> {
    try {
      return await this.sync(this.historyFromStore);
    } catch (err) {
      if (this.ended || !this.historyFromStore || isStorageError(err, 'Compacted')) throw err;
      return this.sync(false);
    }
  }

  /**
   * Makes a fresh list the cache's state, then follows the store; resolves once live. The state swaps in one step,
   * so a read sees the old state or the new one, each consistent at its revision.
   *
   * With `withHistory`, the store watch starts at the oldest revision the store keeps, not at the list's: the kept
   * events up to the list become the history (its last `historySize` events), so that after a restart a continue
   * token or an Exact list at a revision from before the start is served as upstream serves it from etcd. A watch
   * does not resume from there: upstream's watch cache holds no event older than its list, and answers 410. That
   * history replaces the empty one only once complete up to the list's revision.
   */
  private async sync(withHistory: boolean): Promise<void> {
    let listed = await this.store.list(this.prefix);
    // A watch from 0 means "from now": if writes landed after an empty store's list, list again.
    while (listed.revision === 0 && this.store.revision() !== 0) listed = await this.store.list(this.prefix);
    if (this.ended) return;
    this.objects = new Map(listed.items.map((kv) => [kv.key, kv]));
    this.keys = new SortedKeys(listed.items.map((kv) => kv.key));
    this.ring = new EventRing(this.historySize, listed.revision);
    this.listed = listed.revision;
    this.advance(listed.revision);
    // 0 watches "from now": only an empty store's list has revision 0, and it has no history.
    const from = listed.revision === 0 || !withHistory ? listed.revision : Math.min(listed.revision, Math.max(this.store.compactedRevision(), 1));
    let history: EventRing | undefined = new EventRing(this.historySize, from);
    const complete = (): void => {
      if (history) this.ring = history;
      history = undefined;
    };
    const watch = new AbortController();
    this.storeWatch = watch;
    let live = false;
    await new Promise<void>((resolve, reject) => {
      this.store.watch(this.prefix, { fromRevision: from, signal: watch.signal }, {
        onEvent: (ev) => {
          // the list has it already: history only
          if (ev.revision <= listed.revision) return history?.push(ev);
          complete();
          this.apply(ev);
        },
        onProgress: (revision) => {
          if (revision >= listed.revision) complete();
          this.advance(revision);
          if (live) return;
          live = this.ready = true;
          resolve();
        },
        onClose: (err) => {
          const cause = err ?? new StorageError('Unavailable', this.prefix, 'store watch closed');
          if (live) this.lost(cause);
          else reject(cause);
        },
      });
    });
  }

  /**
   * The store watch died (an error, or compacted past its position), and events may be missing: end every watch,
   * as upstream's cacher does, so that clients look again (a resume older than the rebuilt history gets 410 and
   * re-lists), refuse new watches until rebuilt, and rebuild from a fresh list, retrying with backoff. Reads
   * meanwhile get the last state the cache had, consistent at its revision, or wait for a newer one.
   */
  private lost(err: Error): void {
    if (this.ended) return;
    this.ready = false;
    for (const sub of [...this.subs]) this.close(sub, err);
    this.rebuild(REBUILD_MIN_DELAY_MS);
  }

  private rebuild(delayMs: number): void {
    this.rebuildTimer = setTimeout(() => {
      this.follow().catch(() => {
        if (!this.ended && !this.ready) this.rebuild(Math.min(delayMs * 2, REBUILD_MAX_DELAY_MS));
      });
    }, delayMs);
    this.rebuildTimer.unref();
  }

  /** False while the cache rebuilds after losing its store watch: watches are refused (upstream: 429). */
  isReady(): boolean {
    return this.ready;
  }

  /** Ends every watch (cleanly) and stops following the store. */
  stop(): void {
    this.end(undefined);
  }

  /** The newest store revision the cache is complete up to (a bookmark's resourceVersion). */
  revision(): number {
    return this.rev;
  }

  get(key: string): KeyValue | undefined {
    return this.objects.get(key);
  }

  list(opts: CacheListOptions): CacheListResult {
    this.assertCovers(opts.prefix);
    if (opts.revision !== undefined && opts.revision < this.rev) return this.listAt(opts, opts.revision);
    const { prefix, predicate } = opts;
    const limit = opts.limit && opts.limit > 0 ? opts.limit : Infinity;
    let i = this.keys.lowerBound(prefix);
    if (opts.startKey !== undefined) i = Math.max(i, this.keys.lowerBound(opts.startKey));
    const items: KeyValue[] = [];
    for (; i < this.keys.length && items.length < limit; i++) {
      const key = this.keys.at(i);
      if (!key.startsWith(prefix)) return { items, revision: this.rev };
      const kv = this.objects.get(key)!;
      if (!predicate || predicate(kv.object)) items.push(kv);
    }
    const remaining = this.countMatching(i, prefix, predicate);
    if (remaining === 0) return { items, revision: this.rev };
    return { items, revision: this.rev, nextKey: items[items.length - 1].key, remaining };
  }

  /** How many objects are under `prefix` now (two binary searches). */
  count(prefix: string): number {
    this.assertCovers(prefix);
    // admission asks on every request, mostly about kinds with no object at all
    if (this.objects.size === 0 || prefix === this.prefix) return this.objects.size;
    return this.countMatching(this.keys.lowerBound(prefix), prefix, undefined);
  }

  /** The oldest revision whose state a list can still be served at. */
  oldestRevision(): number {
    return this.ring.oldestResumable;
  }

  /**
   * The oldest revision a watch resumes from: upstream's watchCache.getAllEventsSinceLocked starts at the revision
   * of its last list, or later once its buffer dropped events.
   */
  private oldestWatchable(): number {
    return Math.max(this.listed, this.ring.oldestResumable);
  }

  /**
   * The state at an older revision: the current objects with every change after `at` undone. The first event of
   * a key after `at` holds the key's state at `at` (its previous state, or none for an ADDED).
   */
  private listAt(opts: CacheListOptions, at: number): CacheListResult {
    if (at < this.ring.oldestResumable) throw this.compacted(opts.prefix, at, this.ring.oldestResumable);
    const { prefix, predicate, startKey } = opts;
    const limit = opts.limit && opts.limit > 0 ? opts.limit : Infinity;
    const past = new Map<string, KeyValue | undefined>();
    for (const ev of this.ring.since(at)) {
      if (ev.key.startsWith(prefix) && !past.has(ev.key)) past.set(ev.key, ev.type === 'ADDED' ? undefined : ev.prev);
    }
    const after = (key: string): boolean => startKey === undefined || key >= startKey;
    // Keys gone since `at` are not in the sorted index: merge them in.
    const removed = [...past.keys()].filter((k) => !this.objects.has(k) && after(k)).sort();
    let i = this.keys.lowerBound(prefix);
    if (startKey !== undefined) i = Math.max(i, this.keys.lowerBound(startKey));
    let j = 0;
    const items: KeyValue[] = [];
    let remaining = 0;
    for (;;) {
      const cur = i < this.keys.length && this.keys.at(i).startsWith(prefix) ? this.keys.at(i) : undefined;
      const old = j < removed.length ? removed[j] : undefined;
      if (cur === undefined && old === undefined) break;
      let key: string;
      if (old === undefined || (cur !== undefined && cur < old)) {
        key = cur!;
        i++;
      } else {
        key = old;
        j++;
      }
      const kv = past.has(key) ? past.get(key) : this.objects.get(key);
      if (!kv || (predicate && !predicate(kv.object))) continue;
      if (items.length < limit) items.push(kv);
      else remaining++;
    }
    if (remaining === 0) return { items, revision: at };
    return { items, revision: at, nextKey: items[items.length - 1].key, remaining };
  }

  /** Resolves once the cache has seen `revision`; rejects with the signal's reason if aborted first. */
  waitUntilFresh(revision: number, signal: AbortSignal): Promise<void> {
    if (this.ended) return Promise.reject(this.ended);
    if (this.rev >= revision) return Promise.resolve();
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        this.waiters.delete(waiter);
        reject(signal.reason as Error);
      };
      const waiter: FreshWaiter = {
        revision,
        resolve: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
        reject: (err) => {
          signal.removeEventListener('abort', onAbort);
          reject(err);
        },
      };
      this.waiters.add(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Watches the cache. Throws StorageError 'Compacted' (with the oldest resumable revision) when fromRevision
   * is older than the cache's list or the history kept (not with sendInitialEvents, which sends the current state).
   * Replay or initial events run in a microtask, then the watch is live. Returns the unsubscribe function.
   */
  watch(opts: CacheWatchOptions, sink: CacheWatchSink): () => void {
    this.assertCovers(opts.prefix);
    if (this.ended) throw this.ended;
    if (!this.ready) throw new StorageError('Unavailable', opts.prefix, 'storage is (re)initializing');
    if (!opts.sendInitialEvents && opts.fromRevision > 0) this.assertResumable(opts.prefix, opts.fromRevision);
    const from = opts.fromRevision > 0 ? opts.fromRevision : this.rev;
    const sub: Subscription = { prefix: opts.prefix, predicate: opts.predicate, sink, after: from, live: false, done: false };
    this.subs.add(sub);
    queueMicrotask(() => {
      if (sub.done) return;
      if (opts.sendInitialEvents) this.sendInitial(sub);
      else this.replay(sub, from);
      sub.live = !sub.done;
    });
    return () => {
      sub.done = true;
      this.subs.delete(sub);
    };
  }

  private sendInitial(sub: Subscription): void {
    for (let i = this.keys.lowerBound(sub.prefix); i < this.keys.length && !sub.done; i++) {
      const key = this.keys.at(i);
      if (!key.startsWith(sub.prefix)) break;
      const kv = this.objects.get(key)!;
      this.guard(sub, () => { if (!sub.predicate || sub.predicate(kv.object)) sub.sink.onEvent(initialEvent(kv)); });
    }
    sub.after = this.rev;
    if (!sub.done && sub.sink.onInitialEventsEnd) this.guard(sub, () => sub.sink.onInitialEventsEnd!(this.rev));
  }

  private replay(sub: Subscription, from: number): void {
    // The window may have moved past `from` since watch() checked it.
    const tooOld = this.tooOld(sub.prefix, from);
    if (tooOld) return this.close(sub, tooOld);
    for (const ev of this.ring.since(from)) {
      if (sub.done) return;
      this.offer(sub, ev);
    }
  }

  private apply(ev: StoreEvent): void {
    if (ev.type === 'DELETED') {
      this.objects.delete(ev.key);
      this.keys.remove(ev.key);
    } else {
      if (!this.objects.has(ev.key)) this.keys.insert(ev.key);
      this.objects.set(ev.key, ev.kv);
    }
    this.ring.push(ev);
    for (const sub of this.subs) if (sub.live) this.offer(sub, ev);
    this.advance(ev.revision);
  }

  private offer(sub: Subscription, ev: StoreEvent): void {
    if (ev.revision <= sub.after || !ev.key.startsWith(sub.prefix)) return;
    // A predicate that throws cuts off its own watch only: out of the guard it would end the store watch itself.
    this.guard(sub, () => {
      const out = filterEvent(ev, sub.predicate);
      if (out) sub.sink.onEvent(out);
    });
  }

  /** A sink that throws is cut off; the others keep their stream. */
  private guard(sub: Subscription, call: () => void): void {
    try {
      call();
    } catch (err) {
      this.close(sub, err as Error);
    }
  }

  private advance(revision: number): void {
    if (revision <= this.rev && this.waiters.size === 0) return;
    this.rev = Math.max(this.rev, revision);
    for (const w of this.waiters) {
      if (w.revision <= this.rev) {
        this.waiters.delete(w);
        w.resolve();
      }
    }
  }

  private countMatching(from: number, prefix: string, predicate: Predicate | undefined): number {
    // Without a predicate every key under the prefix matches: the prefix's end is a binary search away.
    if (!predicate) return Math.max(0, this.keys.lowerBound(prefixEnd(prefix)) - from);
    let n = 0;
    for (let i = from; i < this.keys.length; i++) {
      const key = this.keys.at(i);
      if (!key.startsWith(prefix)) break;
      if (predicate(this.objects.get(key)!.object)) n++;
    }
    return n;
  }

  private assertResumable(prefix: string, from: number): void {
    const tooOld = this.tooOld(prefix, from);
    if (tooOld) throw tooOld;
  }

  /** The error for a watch from `from`, when the cache cannot resume it. */
  private tooOld(prefix: string, from: number): StorageError | undefined {
    const oldest = this.oldestWatchable();
    return from < oldest ? this.compacted(prefix, from, oldest) : undefined;
  }

  private compacted(prefix: string, from: number, oldest: number): StorageError {
    return new StorageError('Compacted', prefix, `too old resource version: ${from} (${oldest})`, oldest);
  }

  private assertCovers(prefix: string): void {
    if (!prefix.startsWith(this.prefix)) throw new Error(`cacher for ${this.prefix} cannot serve ${prefix}`);
  }

  private close(sub: Subscription, err?: Error): void {
    if (sub.done) return;
    sub.done = true;
    this.subs.delete(sub);
    sub.sink.onClose(err);
  }

  private end(err: Error | undefined): void {
    if (this.ended) return;
    this.ended = err ?? new StorageError('Unavailable', this.prefix, 'watch cache stopped');
    this.ready = false;
    clearTimeout(this.rebuildTimer);
    this.storeWatch?.abort();
    for (const sub of [...this.subs]) this.close(sub, err);
    for (const w of this.waiters) w.reject(this.ended);
    this.waiters.clear();
  }
}

/** The smallest string greater than every string starting with `prefix`. */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}
