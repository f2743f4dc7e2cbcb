import { describe, expect, it } from 'vitest';
import { parseGoDuration } from './wait.js';

describe('the ?timeout= of a create that waits for its initializers', () => {
  it('reads Go durations and nothing else', () => {
    expect(['30s', '1m30s', '500ms', '1.5s', '2h'].map(parseGoDuration)).toEqual([30_000, 90_000, 500, 1500, 7_200_000]);
    expect(['', '30', 's', '5sx', '-1s'].map(parseGoDuration)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});
