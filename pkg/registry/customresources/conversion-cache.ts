// A served version's watch cache over its converting view, where a conversion can fail (a webhook that is down):
// an object that cannot be converted is never cached nor served. The view holds a watch event it cannot convert,
// so the cache stays consistent at the revision before it, and a read that needs a newer revision retries the
// conversion then, answering with its error while it fails (upstream converts on every read it makes from etcd,
// and its watch cache, when it cannot convert, is not ready and sends reads to etcd).
// A start whose list cannot be converted leaves the cache unstarted: the version is still served, reads retry the
// list (and fail with the conversion's error), watches are refused until it starts (429 'storage is
// (re)initializing', as upstream's cacher answers), and it is retried in the background with backoff.
import { Cacher, type CacheListOptions, type CacheListResult, type CacherOptions } from '../../storage/cacher/cacher.js';
import type { KeyValue } from '../../storage/interface.js';
import { heldRetry, type ConvertingStore } from '../generic/converting-store.js';

export class ConversionCacher extends Cacher {
  private started = false;
  private startError: unknown;
  private starting: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly view: ConvertingStore, prefix: string, opts?: CacherOptions) {
    super(view, prefix, opts);
  }

  /** Resolves once live, or once the first attempt failed (then retried in the background). */
  override async start(): Promise<void> {
    try {
      await this.tryStart();
    } catch {
      this.retryStart(heldRetry.minMs);
    }
  }

  private tryStart(): Promise<void> {
    this.starting ??= super.start().then(
      () => {
        this.started = true;
        this.startError = undefined;
        clearTimeout(this.retryTimer);
      },
      (err: unknown) => {
        this.startError = err;
        throw err;
      },
    ).finally(() => { this.starting = undefined; });
    return this.starting;
  }

  private retryStart(delayMs: number): void {
    if (this.stopped || this.started) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.tryStart().catch(() => this.retryStart(Math.min(delayMs * 2, heldRetry.maxMs)));
    }, delayMs);
    this.retryTimer.unref();
  }

  /** An unstarted cache has nothing to answer from: its reads fail as its start did. */
  private assertStarted(): void {
    if (!this.started) throw this.startError;
  }

  override get(key: string): KeyValue | undefined {
    this.assertStarted();
    return super.get(key);
  }

  override list(opts: CacheListOptions): CacheListResult {
    this.assertStarted();
    return super.list(opts);
  }

  /** A read that needs `revision` converts what it lacks now: the error of a conversion that fails again is its answer. */
  override async waitUntilFresh(revision: number, signal: AbortSignal): Promise<void> {
    if (!this.started) await this.tryStart();
    while (this.revision() < revision && this.view.held()) await this.view.retryHeld();
    return super.waitUntilFresh(revision, signal);
  }

  override stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    super.stop();
  }
}
