import { describe, expect, it } from 'vitest';
import { SortedKeys } from './sorted-keys.js';

describe('SortedKeys', () => {
  it('stays sorted and unique through queued inserts, removals and reads, like a sorted set', () => {
    let seed = 7;
    const rand = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const keys = new SortedKeys(['/b', '/d']);
    const ref = new Set(['/b', '/d']);
    for (let step = 0; step < 5_000; step++) {
      const key = `/k${rand(300)}`;
      const op = rand(10);
      if (op < 5 && !ref.has(key)) {
        keys.insert(key);
        ref.add(key);
      } else if (op < 8) {
        keys.remove(key);
        ref.delete(key);
      } else {
        const want = [...ref].sort();
        expect(keys.length).toBe(want.length);
        expect(Array.from({ length: keys.length }, (_, i) => keys.at(i))).toEqual(want);
        expect(keys.lowerBound(key)).toBe(want.filter((k) => k < key).length);
        expect(keys.upperBound(key)).toBe(want.filter((k) => k <= key).length);
      }
    }
  });
});
