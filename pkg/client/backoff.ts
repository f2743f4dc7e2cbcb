// Exponential backoff with jitter and a cap, as wait.Backoff / the reflector's backoff manager: each step()
// returns the next delay; reset() after a success; a step after `resetAfter` ms of quiet starts again from `initial`.
import { realClock, type Clock } from './clock.js';

export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  factor?: number;
  /** 0..1: each delay is stretched by up to this fraction at random. */
  jitter?: number;
  /** A step this long after the previous one starts from initialMs again. */
  resetAfterMs?: number;
  random?: () => number;
}

export class Backoff {
  private current: number;
  private lastStep = -Infinity;

  constructor(private readonly o: BackoffOptions, private readonly clock: Clock = realClock) {
    this.current = o.initialMs;
  }

  step(): number {
    const now = this.clock.now();
    if (this.o.resetAfterMs !== undefined && now - this.lastStep > this.o.resetAfterMs) this.current = this.o.initialMs;
    this.lastStep = now;
    const base = this.current;
    this.current = Math.min(this.o.maxMs, this.current * (this.o.factor ?? 2));
    const jitter = this.o.jitter ?? 0;
    return Math.min(this.o.maxMs, base + (jitter > 0 ? base * jitter * (this.o.random ?? Math.random)() : 0));
  }

  reset(): void { this.current = this.o.initialMs; }
}

/** Upstream's wait.Jitter: `ms` stretched by up to `factor` (0..1) at random. */
export const jitter = (ms: number, factor: number, random: () => number = Math.random): number => ms + ms * factor * random();
