import { describe, expect, it } from 'vitest';
import { humanDuration, since } from './duration.js';
import { NOW, ago } from './testing.js';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('humanDuration (apimachinery duration.HumanDuration)', () => {
  it.each([
    [-2 * s, '<invalid>'],
    [-1 * s, '0s'],
    [0, '0s'],
    [999, '0s'],
    [59 * s, '59s'],
    [119 * s, '119s'],
    [2 * m, '2m'],
    [5 * m + 30 * s, '5m30s'],
    [9 * m + 59 * s, '9m59s'],
    [10 * m + 30 * s, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [3 * h + 20 * m, '3h20m'],
    [7 * h + 59 * m, '7h59m'],
    [8 * h + 30 * m, '8h'],
    [47 * h, '47h'],
    [2 * d, '2d'],
    [3 * d + 4 * h, '3d4h'],
    [7 * d + 23 * h, '7d23h'],
    [8 * d, '8d'],
    [729 * d, '729d'],
    [730 * d, '2y'],
    [740 * d, '2y10d'],
    [8 * 365 * d, '8y'],
  ])('%d ms -> %s', (ms, text) => expect(humanDuration(ms)).toBe(text));
});

describe('since', () => {
  it('prints the time elapsed until now', () => expect(since(ago(300), NOW)).toBe('5m'));
  it('prints <unknown> without a timestamp or for the zero time', () => {
    expect(since(undefined, NOW)).toBe('<unknown>');
    expect(since(null, NOW)).toBe('<unknown>');
    expect(since('0001-01-01T00:00:00Z', NOW)).toBe('<unknown>');
  });
});
