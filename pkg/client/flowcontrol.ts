// Client-side rate limiting as client-go's flowcontrol: a token bucket of `burst` tokens refilled at `qps` per second.
// Requests wait for a token in arrival order (reservations), so a burst past the bucket is spread out, not refused.
import { realClock, type Clock } from './clock.js';

export interface RateLimiter {
  /** Resolves when the caller may go; rejects if the signal aborts first (the reservation is given back). */
  wait(signal?: AbortSignal): Promise<void>;
  /** Takes a token now if one is there. */
  tryAccept(): boolean;
  /** Reserves the next token and returns how long (ms) until it is available, without waiting. */
  reserve(): number;
  qps(): number;
}

export class TokenBucketRateLimiter implements RateLimiter {
  private tokens: number;
  private last: number;

  constructor(private readonly rate: number, private readonly burst: number, private readonly clock: Clock = realClock) {
    if (!(rate > 0) || !(burst >= 1)) throw new Error(`token bucket needs qps > 0 and burst >= 1 (got ${rate}, ${burst})`);
    this.tokens = burst;
    this.last = clock.now();
  }

  qps(): number { return this.rate; }

  private refill(): void {
    const now = this.clock.now();
    if (now > this.last) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
      this.last = now;
    }
  }

  tryAccept(): boolean {
    this.refill();
    if (this.tokens >= 1) { this.tokens -= 1; return true; }
    return false;
  }

  reserve(): number {
    this.refill();
    this.tokens -= 1; // may go negative: later callers queue behind earlier reservations
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens / this.rate) * 1000);
  }

  async wait(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const delay = this.reserve();
    if (delay <= 0) return;
    try {
      await this.clock.sleep(delay, signal);
    } catch (e) {
      this.tokens += 1; // cancelled: give the reservation back
      throw e;
    }
  }
}

/** A limiter that never waits (qps <= 0 or Infinity in a RestConfig). */
export const unlimited: RateLimiter = {
  wait: async (signal) => { signal?.throwIfAborted(); },
  tryAccept: () => true,
  reserve: () => 0,
  qps: () => Infinity,
};

export const newRateLimiter = (qps: number, burst: number, clock?: Clock): RateLimiter =>
  qps > 0 && Number.isFinite(qps) ? new TokenBucketRateLimiter(qps, Math.max(1, burst), clock) : unlimited;
