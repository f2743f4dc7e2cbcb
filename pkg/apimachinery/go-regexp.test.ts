import { describe, expect, it } from 'vitest';
import { compileGoRegexp, goRegexpTester, sameInJavaScript } from './go-regexp.js';

describe('goRegexpTester', () => {
  it('answers as RE2 for the patterns JavaScript takes over, on ASCII, newlines, Unicode and astral input', () => {
    const patterns = [
      '^[a-z0-9-]*$', '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', '^\\d{1,3}(\\.\\d{1,3}){3}$', '[A-Z]', '^(?:foo|bar)+$', '^$',
      'a|', '^[^a-z]{2}$', '^\\w+\\W\\w+$', '^[\\d\\-]+$', 'x{0}', '^/api/v[12]$', '^[^,]*,[^,]*$', 'ab??c',
      '^[ -~]{0,5}$',
    ];
    const alphabet = ['a', 'z', 'A', '0', '9', '-', '.', ',', '/', ' ', '_', '\n', '\r', 'é', '\u2028', '😀', 'b', 'r', 'f',
      'o', 'x', 'c'];
    let seed = 7;
    const rand = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (const p of patterns) {
      expect(sameInJavaScript(p), p).toBe(true);
      const re2 = compileGoRegexp(p);
      const test = goRegexpTester(p);
      for (let i = 0; i < 400; i++) {
        const s = Array.from({ length: rand(8) }, () => alphabet[rand(alphabet.length)]).join('');
        expect(test(s), `${p} on ${JSON.stringify(s)}`).toBe(re2.test(s));
      }
    }
  });

  it('leaves to re2js what JavaScript reads otherwise', () => {
    const others = ['.', '^a.b$', '\\s', '\\bfoo', '(?i)abc', '[[:alpha:]]', '\\pL', 'a\\z', '(?P<x>a)', '[]a]', '[^]a]', 'é',
      '\\1', 'a{,3}', 'a}', '\\x41'];
    for (const p of others) {
      expect(sameInJavaScript(p), p).toBe(false);
    }
    // where they differ: RE2's `.` takes \r, JavaScript's does not
    expect(goRegexpTester('^a.b$')('a\rb')).toBe(true);
    expect(goRegexpTester('^\\s$')('\u00a0')).toBe(false);
    expect(goRegexpTester('^[[:alpha:]]+$')('abc')).toBe(true);
    expect(() => goRegexpTester('(?!x)')).toThrow(/invalid or unsupported Perl syntax/);
  });
});
