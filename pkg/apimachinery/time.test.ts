import { describe, expect, it } from 'vitest';
import { formatMicroTime, formatTime, preciseNow } from './time.js';

describe('metav1.Time and MicroTime as written', () => {
  const ms = Date.UTC(2026, 0, 2, 3, 4, 5, 678);

  it('writes a Time to the second', () => {
    expect(formatTime(ms)).toBe('2026-01-02T03:04:05Z');
    expect(formatTime(ms + 0.5)).toBe('2026-01-02T03:04:05Z');
  });

  it('writes a MicroTime with the microseconds of a fractional millisecond', () => {
    expect(formatMicroTime(ms)).toBe('2026-01-02T03:04:05.678000Z');
    expect(formatMicroTime(ms + 0.123)).toBe('2026-01-02T03:04:05.678123Z');
    expect(formatMicroTime(Date.UTC(2026, 0, 2, 3, 4, 5, 999) + 0.999)).toBe('2026-01-02T03:04:05.999999Z');
    expect(formatMicroTime(Date.UTC(2026, 0, 2, 3, 4, 5, 999) + 0.9996)).toBe('2026-01-02T03:04:06.000000Z');
  });

  it('reads the wall clock to the microsecond', () => {
    const stamps = Array.from({ length: 50 }, () => [Date.now(), preciseNow(), Date.now()] as const);
    for (const [before, t, after] of stamps) {
      expect(t).toBeGreaterThanOrEqual(before - 1);
      expect(t).toBeLessThan(after + 2);
    }
    // microseconds, not milliseconds padded with zeros: fifty readings do not all fall on a whole millisecond
    expect(stamps.some(([, t]) => !formatMicroTime(t).endsWith('000Z'))).toBe(true);
  });
});
