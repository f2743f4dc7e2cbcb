import { describe, expect, it } from 'vitest';
import { exceedsDepth, MAX_DEPTH } from './nesting.js';

const flow = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const block = (n: number): string => Array.from({ length: n }, (_, i) => `${' '.repeat(i)}a:`).join('\n') + `\n${' '.repeat(n)}x: 1\n`;

describe('exceedsDepth', () => {
  it('JSON: counts brackets to MAX_DEPTH, not those in strings', () => {
    expect(exceedsDepth(flow(MAX_DEPTH), false)).toBe(false);
    expect(exceedsDepth(flow(MAX_DEPTH + 1), false)).toBe(true);
    expect(exceedsDepth('['.repeat(MAX_DEPTH + 1) + ']'.repeat(MAX_DEPTH + 1), false)).toBe(true);
    expect(exceedsDepth(JSON.stringify({ a: '{'.repeat(MAX_DEPTH * 2), b: '\\"[[[' }), false)).toBe(false);
  });

  it('YAML: block maps, flow collections and compact sequences alike', () => {
    expect(exceedsDepth(block(MAX_DEPTH - 1), true)).toBe(false);
    expect(exceedsDepth(block(MAX_DEPTH + 1), true)).toBe(true);
    expect(exceedsDepth(block(5_000), true)).toBe(true);
    expect(exceedsDepth(flow(MAX_DEPTH + 1), true)).toBe(true);
    expect(exceedsDepth('- '.repeat(MAX_DEPTH + 1) + '1\n', true)).toBe(true);
    expect(exceedsDepth('a: "{{{{{{"\nb: |\n  ' + '{'.repeat(MAX_DEPTH * 2) + '\n', true)).toBe(false);
  });
});
