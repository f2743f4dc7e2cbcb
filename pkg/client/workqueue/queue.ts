// The work queue of client-go's util/workqueue: an item added many times before a worker takes it is processed
// once (dirty set); an item being processed that is added again waits until done() and is then queued again
// (processing set), so no two workers ever hold the same item. Items are compared as Map keys: use strings.
export type GetResult<T> = { item: T; shutdown: false } | { item: undefined; shutdown: true };

export interface WorkQueueMetrics {
  /** depth after each add or get */
  depth?(n: number): void;
  adds?(): void;
  /** ms from add to get, and from get to done */
  latency?(ms: number): void;
  workDuration?(ms: number): void;
  /** an addRateLimited (a rate-limiting queue's retry) */
  retries?(): void;
  /** Hears, once at construction, how to read the work in progress (for gauges read when scraped). */
  inProgress?(read: () => UnfinishedWork): void;
}

/** Work handed out and not done yet: the sum of its ages and the oldest, in ms (upstream's unfinished_work_seconds). */
export interface UnfinishedWork { totalMs: number; longestMs: number }

let metricsProvider: ((name: string) => WorkQueueMetrics) | undefined;

/**
 * As client-go's workqueue.SetProvider: the metrics every queue created with a name (and no metrics of its own)
 * reports to, e.g. Prometheus series labelled by that name. Set it before the queues are created.
 */
export function setWorkQueueMetricsProvider(provider: ((name: string) => WorkQueueMetrics) | undefined): void {
  metricsProvider = provider;
}

/** The metrics of a named queue: the given ones, else the provider's for its name, else none. */
export const workQueueMetricsFor = (name: string | undefined, given?: WorkQueueMetrics): WorkQueueMetrics =>
  given ?? (name !== undefined && metricsProvider ? metricsProvider(name) : {});

export class WorkQueue<T = string> {
  private queue: T[] = [];
  private head = 0;
  private readonly dirty = new Set<T>();
  private readonly processing = new Set<T>();
  private waiters: ((r: GetResult<T>) => void)[] = [];
  private drainWaiters: (() => void)[] = [];
  private shutting = false;
  private drain = false;
  private readonly addedAt = new Map<T, number>();
  private readonly startedAt = new Map<T, number>();

  constructor(protected readonly metrics: WorkQueueMetrics = {}, protected readonly now: () => number = Date.now) {
    metrics.inProgress?.(() => this.unfinishedWork());
  }

  /** The items being processed: how long in all and the longest, in ms. */
  unfinishedWork(): UnfinishedWork {
    const now = this.now();
    let totalMs = 0;
    let longestMs = 0;
    for (const at of this.startedAt.values()) {
      totalMs += now - at;
      if (now - at > longestMs) longestMs = now - at;
    }
    return { totalMs, longestMs };
  }

  /** Queues an item unless it is already waiting; an item in processing is queued again when done. */
  add(item: T): void {
    if (this.shutting || this.dirty.has(item)) return;
    this.metrics.adds?.();
    this.dirty.add(item);
    if (!this.addedAt.has(item)) this.addedAt.set(item, this.now());
    if (this.processing.has(item)) return;
    this.push(item);
  }

  private push(item: T): void {
    const w = this.waiters.shift();
    if (w) { this.take(item); w({ item, shutdown: false }); return; }
    this.queue.push(item);
    this.metrics.depth?.(this.len());
  }

  private take(item: T): void {
    this.processing.add(item);
    this.dirty.delete(item);
    const at = this.addedAt.get(item);
    if (at !== undefined) this.metrics.latency?.(this.now() - at);
    this.addedAt.delete(item);
    this.startedAt.set(item, this.now());
  }

  /** Items waiting (not counting those in processing). */
  len(): number { return this.queue.length - this.head; }

  /** The next item (waits for one); `shutdown: true` once the queue is shut down and empty. Call done(item) after. */
  get(): Promise<GetResult<T>> {
    if (this.len() > 0) {
      const item = this.queue[this.head++]!;
      if (this.head > 1024 && this.head * 2 > this.queue.length) { this.queue = this.queue.slice(this.head); this.head = 0; }
      this.take(item);
      this.metrics.depth?.(this.len());
      return Promise.resolve({ item, shutdown: false });
    }
    if (this.shutting) return Promise.resolve({ item: undefined, shutdown: true });
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Marks an item processed; if it was added meanwhile it is queued again. */
  done(item: T): void {
    if (!this.processing.delete(item)) return;
    const started = this.startedAt.get(item);
    if (started !== undefined) this.metrics.workDuration?.(this.now() - started);
    this.startedAt.delete(item);
    if (this.dirty.has(item)) this.push(item);
    else if (this.drain && this.processing.size === 0) this.finishDrain();
  }

  /** Ignores further adds; getters receive what is queued, then `shutdown: true`. */
  shutDown(): void {
    this.shutting = true;
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w({ item: undefined, shutdown: true });
  }

  /** shutDown(), then waits until every item handed out is done. */
  shutDownWithDrain(): Promise<void> {
    this.drain = true;
    this.shutDown();
    if (this.processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  private finishDrain(): void {
    const ws = this.drainWaiters;
    this.drainWaiters = [];
    for (const w of ws) w();
  }

  shuttingDown(): boolean { return this.shutting; }
}
