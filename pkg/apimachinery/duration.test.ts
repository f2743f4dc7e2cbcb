import { describe, expect, it } from 'vitest';
import { goDurationMs, parseGoDurationMs } from './duration.js';

describe('parseGoDurationMs', () => {
  it('reads what Go writes and accepts, in milliseconds', () => {
    expect(['30s', '1m30s', '500ms', '1.5s', '2h', '0', '14.997s', '1h0m0s', '.5s', '250us'].map(parseGoDurationMs))
      .toEqual([30_000, 90_000, 500, 1500, 7_200_000, 0, 14_997, 3_600_000, 500, 0.25]);
  });
  it('refuses what is not a non-negative duration', () => {
    expect(['', '30', 's', '5sx', '-1s', '1s 2s'].map(parseGoDurationMs)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });
});

describe('goDurationMs', () => {
  it('takes a sign, as Go does', () => {
    expect(['1s', '-1s', '+2m', '0', '-0'].map(goDurationMs)).toEqual([1000, -1000, 120_000, 0, -0]);
  });
  it('throws time.ParseDuration\'s messages', () => {
    const message = (t: string): string => { try { goDurationMs(t); return ''; } catch (e) { return (e as Error).message; } };
    expect(['abc', '5', '5x', '', '1s5', '-'].map(message)).toEqual([
      'time: invalid duration "abc"', 'time: missing unit in duration "5"', 'time: unknown unit "x" in duration "5x"',
      'time: invalid duration ""', 'time: missing unit in duration "1s5"', 'time: invalid duration "-"',
    ]);
  });
});
