// How long an item waits before it is retried, as client-go's workqueue rate limiters: per-item exponential
// backoff, a fast-then-slow variant, an overall token bucket, and the max of several.
import type { Clock } from '../clock.js';
import { TokenBucketRateLimiter } from '../flowcontrol.js';

export interface ItemRateLimiter<T = string> {
  /** The delay (ms) before `item` may be processed again; counts a failure. */
  when(item: T): number;
  /** Clears the item's failures (after a success). */
  forget(item: T): void;
  numRequeues(item: T): number;
}

/** base * 2^failures, capped at max (5 ms .. 1000 s by default). */
export class ItemExponentialFailureRateLimiter<T = string> implements ItemRateLimiter<T> {
  private readonly failures = new Map<T, number>();
  constructor(private readonly baseMs = 5, private readonly maxMs = 1_000_000) {}

  when(item: T): number {
    const n = this.failures.get(item) ?? 0;
    this.failures.set(item, n + 1);
    const d = this.baseMs * 2 ** n;
    return !Number.isFinite(d) || d > this.maxMs ? this.maxMs : d;
  }
  forget(item: T): void { this.failures.delete(item); }
  numRequeues(item: T): number { return this.failures.get(item) ?? 0; }
}

/** `fastMs` for the first `maxFastAttempts` failures, then `slowMs`. */
export class ItemFastSlowRateLimiter<T = string> implements ItemRateLimiter<T> {
  private readonly failures = new Map<T, number>();
  constructor(private readonly fastMs: number, private readonly slowMs: number, private readonly maxFastAttempts: number) {}

  when(item: T): number {
    const n = (this.failures.get(item) ?? 0) + 1;
    this.failures.set(item, n);
    return n <= this.maxFastAttempts ? this.fastMs : this.slowMs;
  }
  forget(item: T): void { this.failures.delete(item); }
  numRequeues(item: T): number { return this.failures.get(item) ?? 0; }
}

/** An overall token bucket (qps, burst): each when() reserves a token; the delay is the wait for it. */
export class BucketRateLimiter<T = string> implements ItemRateLimiter<T> {
  private readonly bucket: TokenBucketRateLimiter;
  constructor(qps = 10, burst = 100, clock?: Clock) { this.bucket = new TokenBucketRateLimiter(qps, burst, clock); }
  when(_item: T): number { return this.bucket.reserve(); }
  forget(_item: T): void { /* not per item */ }
  numRequeues(_item: T): number { return 0; }
}

/** The longest delay of several limiters. */
export class MaxOfRateLimiter<T = string> implements ItemRateLimiter<T> {
  private readonly limiters: ItemRateLimiter<T>[];
  constructor(...limiters: ItemRateLimiter<T>[]) { this.limiters = limiters; }
  when(item: T): number { return Math.max(0, ...this.limiters.map((l) => l.when(item))); }
  forget(item: T): void { for (const l of this.limiters) l.forget(item); }
  numRequeues(item: T): number { return Math.max(0, ...this.limiters.map((l) => l.numRequeues(item))); }
}

/**
 * client-go's DefaultControllerRateLimiter: max(per-item 5 ms..1000 s, overall 10 qps burst 100); `baseMs` and
 * `maxMs` bound the per-item delays, for the controllers upstream builds the same limiter with other ones.
 */
export const defaultControllerRateLimiter = <T = string>(clock?: Clock, baseMs = 5, maxMs = 1_000_000): ItemRateLimiter<T> =>
  new MaxOfRateLimiter<T>(new ItemExponentialFailureRateLimiter<T>(baseMs, maxMs), new BucketRateLimiter<T>(10, 100, clock));
