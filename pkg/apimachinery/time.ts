// metav1.Time and metav1.MicroTime as the API writes them. Every write and most events stamp the current second, so
// the text of the last second is kept rather than formatted again.
import { performance } from 'node:perf_hooks';

let lastSecond = NaN;
let lastText = '';

/** metav1.Time: RFC 3339 in UTC to the second (Go's time.RFC3339), from epoch milliseconds. */
export const formatTime = (ms: number): string => {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastText = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
    lastSecond = second;
  }
  return lastText;
};

/**
 * metav1.MicroTime: RFC 3339 in UTC with six decimals (RFC3339Micro), from epoch milliseconds whose fraction holds
 * the microseconds. To the nearest one: a double of epoch milliseconds holds a quarter of a microsecond at best, so
 * ms + 0.123 may be a hair under .123.
 */
export const formatMicroTime = (ms: number): string => {
  const micros = Math.round(ms * 1000);
  const second = Math.floor(micros / 1e6);
  return `${formatTime(second * 1000).slice(0, -1)}.${String(micros - second * 1e6).padStart(6, '0')}Z`;
};

/** Wall clock minus the performance clock's epoch reading; moved when the wall clock is set. */
let offsetMs = 0;

/**
 * The wall clock in epoch milliseconds with its microseconds, as Go's time.Now() gives what a MicroTime keeps
 * (Date.now() has whole milliseconds). The monotonic clock gives the fraction; it is set back onto the wall clock
 * whenever the two drift a millisecond apart (NTP, a clock set by hand).
 */
export function preciseNow(): number {
  const wall = Date.now();
  const fine = performance.timeOrigin + performance.now();
  // Date.now() is the true time's millisecond: set back, to the middle of it, past one either way
  if (Math.abs(fine + offsetMs - wall - 0.5) > 1) offsetMs = wall + 0.5 - fine;
  return fine + offsetMs;
}
