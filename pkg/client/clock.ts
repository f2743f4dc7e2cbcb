// An injected clock: everything in pkg/client that waits or reads the time goes through one of these, so tests
// drive time by hand (FakeClock) instead of sleeping.
import { preciseNow } from '../apimachinery/time.js';
import { setLongTimeout } from '../apimachinery/long-timeout.js';

export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the epoch: whole ones, as the arithmetic on it (timers, names built from it) expects. */
  now(): number;
  /**
   * now() with its microseconds as the fraction, for the MicroTimes a component writes (client-go's are its clock's
   * time.Time, to the microsecond); read through preciseNowOf. A clock without it has whole milliseconds only.
   */
  preciseNow?(): number;
  /** Calls `fn` after `ms` milliseconds; cancel() stops it. */
  setTimer(fn: () => void, ms: number): TimerHandle;
  /** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const abortReason = (signal: AbortSignal): unknown => signal.reason ?? new DOMException('This operation was aborted', 'AbortError');

/** sleep() for any clock: a timer raced against the signal. */
export const sleepOn = (clock: Pick<Clock, 'setTimer'>, ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) { reject(abortReason(signal)); return; }
    const onAbort = (): void => { timer.cancel(); reject(abortReason(signal!)); };
    const timer = clock.setTimer(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Until `work` settles or `ms` have passed on `clock`, whichever is first (the timer is cancelled either way). */
export async function waitAtMost(clock: Pick<Clock, 'setTimer'>, work: Promise<unknown>, ms: number): Promise<void> {
  const waited = new AbortController();
  try {
    await Promise.race([work, sleepOn(clock, ms, waited.signal).catch(() => undefined)]);
  } finally {
    waited.abort();
  }
}

/** The clock's time with its microseconds where it has them (metav1.NowMicro's reading), else now(). */
export const preciseNowOf = (clock: Clock): number => clock.preciseNow?.() ?? clock.now();

export const realClock: Clock = {
  now: () => Date.now(),
  preciseNow,
  // any delay: a token expiring in a year must not fire at once and spin a queue
  setTimer: (fn, ms) => setLongTimeout(fn, ms),
  sleep(ms, signal) { return sleepOn(realClock, ms, signal); },
};

interface FakeTimer { at: number; seq: number; fn: () => void; cancelled: boolean }

/**
 * A clock that moves only when told. `advance(ms)` fires the due timers in time order, letting promise
 * continuations run between them, so async loops driven by sleep() make progress as they would in real time. Its
 * precise reading is now() plus the fixed `fraction` of a millisecond, so tests see which times carry microseconds.
 */
export class FakeClock implements Clock {
  private timers: FakeTimer[] = [];
  private seq = 0;

  constructor(private current = 0, private readonly fraction = 0) {}

  now(): number { return this.current; }

  preciseNow(): number { return this.current + this.fraction; }

  setTimer(fn: () => void, ms: number): TimerHandle {
    const t: FakeTimer = { at: this.current + Math.max(0, ms), seq: this.seq++, fn, cancelled: false };
    this.timers.push(t);
    return { cancel: () => { t.cancelled = true; } };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> { return sleepOn(this, ms, signal); }

  /** Timers still waiting. */
  pending(): number { return this.timers.filter((t) => !t.cancelled).length; }

  /** Moves time forward by `ms`, firing every timer that falls due on the way (and timers those set). */
  async advance(ms: number): Promise<void> {
    const end = this.current + ms;
    await flushMicrotasks();
    for (;;) {
      this.timers = this.timers.filter((t) => !t.cancelled);
      const next = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next) break;
      this.current = Math.max(this.current, next.at);
      this.timers.splice(this.timers.indexOf(next), 1);
      next.fn();
      await flushMicrotasks();
    }
    this.current = end;
    await flushMicrotasks();
  }
}

/** Lets queued promise continuations run (several rounds, for chains of awaits). */
export const flushMicrotasks = async (rounds = 20): Promise<void> => {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
};
