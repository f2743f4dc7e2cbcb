// The Store semantics shared by every backend: one global revision, compare-and-swap on an in-memory
// index, group commit through a Journal, watch from the kept event log. A backend only persists.
import type { KubeObject } from '../../../api/types.js';
import { StorageError } from '../errors.js';
import type { KeyValue, ListResult, Store, StoreEvent, WatchEventType, Watcher, WatchOptions } from '../interface.js';
import { stampHeldKeyValue, stampKeyValue, type HeldKeyValue } from '../keyvalue.js';
import { EventLog } from './event-log.js';
import { GroupCommit } from './group-commit.js';
import type { CompactionOptions, Journal, RecoveredState } from './journal.js';
import { type ReplaySource, WatchHub } from './watch-hub.js';

interface DurableWaiter {
  revision: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

export class RevisionedStore implements Store {
  /** Latest state including writes still in the group-commit queue: CAS and revisions are decided here. */
  private readonly latest: Map<string, KeyValue>;
  /** Durable state: what reads see. */
  private readonly durable: Map<string, KeyValue>;
  private lastAssigned: number;
  private durableRevision: number;
  private compacted: number;
  private readonly log: EventLog;
  private readonly hub = new WatchHub();
  private readonly replaySource: ReplaySource;
  private readonly commits: GroupCommit;
  private durableWaiters: DurableWaiter[] = [];
  private failure: Error | undefined;
  private closed = false;
  /** Compactions reach the journal one after another, so the persisted compacted revision only grows. */
  private compacting: Promise<void> = Promise.resolve();
  private readonly compactor: NodeJS.Timeout | undefined;
  private readonly keepRevisions: number | undefined;

  constructor(
    private readonly journal: Journal,
    state: RecoveredState,
    compaction?: CompactionOptions,
  ) {
    this.durable = state.objects;
    this.latest = new Map(state.objects);
    this.lastAssigned = this.durableRevision = state.revision;
    this.compacted = state.compacted;
    this.log = new EventLog(state.events);
    this.replaySource = { log: this.log, compacted: () => this.compacted, revision: () => this.durableRevision };
    this.commits = new GroupCommit(
      (batch) => this.journal.append(batch),
      (batch) => this.applyDurable(batch),
      (err) => this.fail(err),
    );
    if (compaction) {
      this.keepRevisions = compaction.keepRevisions;
      this.compactor = setInterval(() => this.autoCompact(), compaction.intervalMs);
      this.compactor.unref();
    }
  }

  async get(key: string): Promise<KeyValue | undefined> {
    return this.durable.get(key);
  }

  async list(prefix: string): Promise<ListResult> {
    const items: KeyValue[] = [];
    for (const [key, kv] of this.durable) if (key.startsWith(prefix)) items.push(kv);
    items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { items, revision: this.durableRevision };
  }

  async create(key: string, object: KubeObject): Promise<KeyValue> {
    this.assertWritable(key);
    // with the newest revision, as notFound and conflict: the object in the way may not have reached the cache yet
    if (this.latest.has(key)) throw new StorageError('KeyExists', key, `key ${key} already exists`, this.lastAssigned);
    return this.write('ADDED', key, object, undefined);
  }

  async guaranteedUpdate(
    key: string,
    tryUpdate: (current: KeyValue | undefined) => KubeObject | Promise<KubeObject>,
    opts: { ignoreNotFound?: boolean; expectedRevision?: number } = {},
  ): Promise<KeyValue> {
    for (;;) {
      this.assertWritable(key);
      const current = this.latest.get(key);
      if (!current && !opts.ignoreNotFound) throw this.notFound(key);
      if (current && opts.expectedRevision !== undefined && current.modRevision !== opts.expectedRevision) {
        throw this.conflict(key, opts.expectedRevision, current.modRevision);
      }
      // awaited only when it waits: a binding's or a status write's update is mostly synchronous
      const computed = tryUpdate(current);
      const next = computed instanceof Promise ? await computed : computed;
      // Another write to the key landed while tryUpdate ran: run it again on the fresh state.
      if (this.latest.get(key) !== current) continue;
      this.assertWritable(key);
      if (current && next === current.object) {
        await this.untilDurable(current.modRevision);
        return current;
      }
      return this.write(current ? 'MODIFIED' : 'ADDED', key, next, current);
    }
  }

  async delete(key: string, opts: { expectedRevision?: number; precondition?: (current: KeyValue) => void } = {}): Promise<KeyValue> {
    this.assertWritable(key);
    const current = this.latest.get(key);
    if (!current) throw this.notFound(key);
    if (opts.expectedRevision !== undefined && current.modRevision !== opts.expectedRevision) {
      throw this.conflict(key, opts.expectedRevision, current.modRevision);
    }
    opts.precondition?.(current);
    return this.write('DELETED', key, current.object, current);
  }

  watch(prefix: string, opts: WatchOptions, watcher: Watcher): void {
    if (this.closed) throw new StorageError('Unavailable', prefix, 'store is closed');
    if (opts.fromRevision > 0 && opts.fromRevision < this.compacted) {
      throw new StorageError('Compacted', prefix, `revision ${opts.fromRevision} has been compacted (oldest kept: ${this.compacted})`, this.compacted);
    }
    // "From now on" means after what is durable at this call, even if the replay step runs a little later.
    const after = opts.fromRevision > 0 ? opts.fromRevision : this.durableRevision;
    this.hub.subscribe(prefix, after, opts.signal, watcher, this.replaySource);
  }

  revision(): number {
    return this.durableRevision;
  }

  compactedRevision(): number {
    return this.compacted;
  }

  async compact(revision: number): Promise<void> {
    const target = Math.min(revision, this.durableRevision);
    if (target <= this.compacted) return;
    const from = this.compacted;
    // Raised before the records go, so that no new watch starts inside the range being deleted.
    this.compacted = target;
    this.log.compact(target);
    const run = this.compacting.catch(() => undefined).then(() => this.journal.compact(from, target));
    this.compacting = run;
    await run;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.compactor) clearInterval(this.compactor);
    await this.commits.idle();
    await this.compacting.catch(() => undefined);
    this.hub.closeAll();
    await this.journal.close();
  }

  private write(type: WatchEventType, key: string, object: KubeObject, prev: KeyValue | undefined): Promise<KeyValue> {
    const revision = ++this.lastAssigned;
    // a new object's parsed form is held only until its event has been dispatched (HeldKeyValue)
    const kv = type === 'ADDED' ? stampHeldKeyValue(key, object, revision, revision) : stampKeyValue(key, object, revision, prev ? prev.createRevision : revision);
    if (type === 'DELETED') this.latest.delete(key);
    else this.latest.set(key, kv);
    const ev: StoreEvent = prev ? { type, key, revision, kv, prev } : { type, key, revision, kv };
    return this.commits.submit(ev);
  }

  /** A durable batch becomes visible: reads, the kept log, watchers, then a progress notify. */
  private applyDurable(batch: readonly StoreEvent[]): void {
    for (const ev of batch) {
      if (ev.type === 'DELETED') this.durable.delete(ev.key);
      else this.durable.set(ev.key, ev.kv);
      this.log.push(ev);
      this.durableRevision = ev.revision;
      this.hub.dispatch(ev);
      if (ev.type === 'ADDED') (ev.kv as HeldKeyValue).release();
    }
    this.hub.progress(this.durableRevision);
    // Kept events live in memory too: under a heavy write rate, do not wait for the timer to bound them.
    if (this.keepRevisions !== undefined && this.durableRevision - this.compacted > 2 * this.keepRevisions) this.autoCompact();
    if (this.durableWaiters.length > 0) {
      const waiting: DurableWaiter[] = [];
      for (const w of this.durableWaiters) {
        if (w.revision <= this.durableRevision) w.resolve();
        else waiting.push(w);
      }
      this.durableWaiters = waiting;
    }
  }

  private untilDurable(revision: number): Promise<void> {
    if (revision <= this.durableRevision) return Promise.resolve();
    return new Promise((resolve, reject) => this.durableWaiters.push({ revision, resolve, reject }));
  }

  private fail(err: Error): void {
    this.failure = err;
    for (const w of this.durableWaiters) w.reject(err);
    this.durableWaiters = [];
    this.hub.closeAll(err);
  }

  /**
   * Refusals carry the newest revision assigned: the state that refused the write may still be on its way to
   * disk, and a caller that read the cache must wait for that revision before it looks again (or spin forever).
   */
  private notFound(key: string): StorageError {
    return new StorageError('KeyNotFound', key, `key ${key} not found`, this.lastAssigned);
  }

  private conflict(key: string, expected: number, actual: number): StorageError {
    return new StorageError('Conflict', key, `revision mismatch for ${key}: expected ${expected}, current ${actual}`, this.lastAssigned);
  }

  private assertWritable(key: string): void {
    if (this.failure) throw this.failure;
    if (this.closed) throw new StorageError('Unavailable', key, 'store is closed');
  }

  private autoCompact(): void {
    const target = this.durableRevision - this.keepRevisions!;
    // A failed compaction leaves the records in place; the next interval tries again.
    if (target > this.compacted) this.compact(target).catch(() => undefined);
  }
}
