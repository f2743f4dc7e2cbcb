import { afterEach, describe, expect, it, vi } from 'vitest';
import { realClock } from './clock.js';

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
