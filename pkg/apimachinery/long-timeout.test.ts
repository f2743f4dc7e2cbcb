// A delay past setTimeout's longest is kept: armed in steps, never cut to the 1 ms Node gives an overflowing one.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMEOUT_MS, setLongTimeout } from './long-timeout.js';

afterEach(() => { vi.useRealTimers(); });

describe('setLongTimeout', () => {
  it('fires a 30-day delay after 30 days, not before, and not once cancelled', () => {
    vi.useFakeTimers();
    const day = 24 * 3600 * 1000;
    let fired = 0;
    setLongTimeout(() => { fired++; }, 30 * day);
    const cancelled = setLongTimeout(() => { fired += 10; }, 30 * day);
    vi.advanceTimersByTime(MAX_TIMEOUT_MS + 1);
    expect(fired).toBe(0);
    cancelled.cancel();
    vi.advanceTimersByTime(30 * day - MAX_TIMEOUT_MS - 2);
    expect(fired).toBe(0);
    vi.advanceTimersByTime(1);
    expect(fired).toBe(1);
  });

  it('fires a short or negative delay as setTimeout would', () => {
    vi.useFakeTimers();
    const seen: number[] = [];
    setLongTimeout(() => seen.push(1), 5);
    setLongTimeout(() => seen.push(0), -3);
    vi.advanceTimersByTime(5);
    expect(seen).toEqual([0, 1]);
  });
});
