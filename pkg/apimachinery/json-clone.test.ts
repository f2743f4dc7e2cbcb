import { describe, expect, it } from 'vitest';
import { cloneJson } from './json-clone.js';

describe('cloneJson', () => {
  it('copies every level, sharing nothing with the original', () => {
    const original: Record<string, any> = { a: [1, { b: 'x' }, null], c: { d: { e: true } }, f: 0, g: undefined };
    const copy = cloneJson(original);
    expect(copy).toStrictEqual(original);
    copy.a[1] = 'changed';
    copy.c.d.e = false;
    expect(original.a[1]).toEqual({ b: 'x' });
    expect(original.c.d.e).toBe(true);
    expect(cloneJson('s')).toBe('s');
    expect(cloneJson(null)).toBeNull();
  });

  it('keeps a "__proto__" key as data, as JSON.parse made it', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>;
    const copy = cloneJson(parsed);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'x']);
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true},"x":1}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
