import { describe, expect, it } from 'vitest';
import { jsonEqual } from './json-equal.js';

describe('jsonEqual', () => {
  it('agrees with comparing JSON whose keys are sorted', () => {
    expect(jsonEqual({ a: 1, b: { c: [1, 'x'] } }, { b: { c: [1, 'x'] }, a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual([undefined], [null])).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1, c: 2 })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({}, [])).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual('1', 1)).toBe(false);
    expect(jsonEqual({ a: { b: null } }, { a: { b: null } })).toBe(true);
  });
});
