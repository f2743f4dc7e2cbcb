import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeClock, preciseNowOf, realClock, type Clock } from './clock.js';

afterEach(() => { vi.useRealTimers(); });

describe('realClock.setTimer', () => {
  it('waits out delays past setTimeout\'s 2^31-1 ms instead of firing at once, and cancels', () => {
    vi.useFakeTimers();
    const fired = vi.fn();
    realClock.setTimer(fired, 2 ** 31 + 1_000);
    vi.advanceTimersByTime(2 ** 31 - 1);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledTimes(1);
    const cancelled = vi.fn();
    const t = realClock.setTimer(cancelled, 2 ** 32);
    vi.advanceTimersByTime(2 ** 31);
    t.cancel();
    vi.advanceTimersByTime(2 ** 32);
    expect(cancelled).not.toHaveBeenCalled();
  });
});

describe('preciseNowOf', () => {
  it('reads the real clock with its microseconds (metav1.NowMicro), within a millisecond of Date.now()', () => {
    const readings = Array.from({ length: 20 }, () => {
      const before = Date.now();
      const precise = preciseNowOf(realClock);
      return { precise, before, after: Date.now() };
    });
    // preciseNow keeps its reading within a millisecond of the middle of Date.now()'s: [wall - 0.5, wall + 1.5]
    for (const { precise, before, after } of readings) {
      expect(precise).toBeGreaterThanOrEqual(before - 0.5);
      expect(precise).toBeLessThanOrEqual(after + 1.5);
    }
    expect(readings.some(({ precise }) => !Number.isInteger(precise))).toBe(true);
  });

  it('a fake clock adds its fixed fraction; a clock of whole milliseconds only reads now()', async () => {
    const fake = new FakeClock(1_000, 0.25);
    expect([fake.now(), preciseNowOf(fake)]).toEqual([1_000, 1_000.25]);
    await fake.advance(10);
    expect([fake.now(), preciseNowOf(fake)]).toEqual([1_010, 1_010.25]);
    const coarse: Clock = { now: () => 5, setTimer: realClock.setTimer, sleep: realClock.sleep };
    expect(preciseNowOf(coarse)).toBe(5);
  });
});
