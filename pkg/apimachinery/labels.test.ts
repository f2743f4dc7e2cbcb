import { describe, expect, it } from 'vitest';
import { statusErrorOf } from './testing/status-error.js';
import { everything, labelSelectorAsSelector, nothing, parseLabelSelector, selectorFromSet, validateLabelSelector } from './labels.js';

describe('parseLabelSelector', () => {
  it('parses every operator and matches as upstream', () => {
    const s = parseLabelSelector('a=b,c!=d,e in (x,y),f notin (z),g,!h,i==j');
    const base = { a: 'b', e: 'x', g: '', i: 'j' };
    expect(s.matches(base)).toBe(true);
    expect(s.matches({ ...base, c: 'd' })).toBe(false);
    expect(s.matches({ ...base, c: 'other' })).toBe(true);
    expect(s.matches({ ...base, e: 'q' })).toBe(false);
    expect(s.matches({ ...base, f: 'z' })).toBe(false);
    expect(s.matches({ ...base, h: '1' })).toBe(false);
    const { g: _g, ...noG } = base;
    expect(s.matches(noG)).toBe(false);
    expect(s.toString()).toBe('a=b,c!=d,e in (x,y),f notin (z),g,!h,i==j');
  });

  it('sorts by key, dedups values and prints canonically', () => {
    const s = parseLabelSelector(' tier in ( web , db, web ) , app = x ');
    expect(s.toString()).toBe('app=x,tier in (db,web)');
    expect(s.requiresExactMatch('app')).toBe('x');
    expect(s.requiresExactMatch('tier')).toBeUndefined();
  });

  it('handles empty values and keywords as values', () => {
    expect(parseLabelSelector('a=').matches({ a: '' })).toBe(true);
    expect(parseLabelSelector('a in (in,notin)').matches({ a: 'notin' })).toBe(true);
    expect(parseLabelSelector('x in (foo,,baz)').requirements[0].values).toEqual(['', 'baz', 'foo']);
    expect(parseLabelSelector('z notin ()').requirements[0].values).toEqual(['']);
  });

  it('takes keys named like Object.prototype members as keys', () => {
    const s = parseLabelSelector('toString,constructor in (a),!valueOf');
    expect(s.toString()).toBe('constructor in (a),toString,!valueOf');
    expect(s.matches({})).toBe(false);
    expect(s.matches({ toString: 'x', constructor: 'a' })).toBe(true);
  });

  it('supports gt and lt', () => {
    expect(parseLabelSelector('n>5').matches({ n: '6' })).toBe(true);
    expect(parseLabelSelector('n<5').matches({ n: '6' })).toBe(false);
    expect(parseLabelSelector('n>5').matches({ n: 'x' })).toBe(false);
  });

  it('treats the empty string as everything', () => {
    const s = parseLabelSelector('');
    expect(s.empty).toBe(true);
    expect(s.matches(undefined)).toBe(true);
  });

  it('reports syntax errors with upstream wording', () => {
    expect(statusErrorOf(() => parseLabelSelector('a in')).message).toBe("unable to parse requirement: found '' expected: '('");
    expect(statusErrorOf(() => parseLabelSelector('a in (b')).message).toBe("unable to parse requirement: found '', expected: ',' or ')'");
    expect(statusErrorOf(() => parseLabelSelector('a b')).message).toBe("unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt");
    expect(statusErrorOf(() => parseLabelSelector('a=b c')).message).toBe("found 'c', expected: ',' or 'end of string'");
    expect(statusErrorOf(() => parseLabelSelector('a=b,')).message).toBe("found '', expected: identifier after ','");
    expect(statusErrorOf(() => parseLabelSelector('=b')).message).toBe("found '=', expected: !, identifier, or 'end of string'");
    const e = statusErrorOf(() => parseLabelSelector('-a=b'));
    expect(e.code).toBe(400);
    expect(e.reason).toBe('BadRequest');
    expect(e.message).toMatch(/^unable to parse requirement: <nil>: Invalid value: "-a": name part must consist of/);
    expect(statusErrorOf(() => parseLabelSelector('a=b$')).message).toMatch(/^unable to parse requirement: values\[0\]\[a\]: Invalid value: "b\$": a valid label must be/);
  });
});

describe('labelSelectorAsSelector', () => {
  it('maps nil to nothing and empty to everything', () => {
    expect(labelSelectorAsSelector(undefined).matches({})).toBe(false);
    expect(labelSelectorAsSelector({}).matches({})).toBe(true);
    expect(nothing().empty).toBe(false);
    expect(everything().empty).toBe(true);
  });

  it('combines matchLabels and matchExpressions', () => {
    const s = labelSelectorAsSelector({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['fe', 'be'] },
        { key: 'canary', operator: 'DoesNotExist' },
        { key: 'zone', operator: 'Exists' },
        { key: 'env', operator: 'NotIn', values: ['prod'] },
      ],
    });
    expect(s.matches({ app: 'web', tier: 'fe', zone: 'a' })).toBe(true);
    expect(s.matches({ app: 'web', tier: 'fe', zone: 'a', env: 'prod' })).toBe(false);
    expect(s.matches({ app: 'web', tier: 'fe', zone: 'a', canary: 'y' })).toBe(false);
    expect(s.matches({ app: 'web', tier: 'fe' })).toBe(false);
    expect(s.toString()).toBe('app=web,!canary,env notin (prod),tier in (be,fe),zone');
  });

  it('rejects bad operators and empty In sets', () => {
    expect(statusErrorOf(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'Foo' }] })).message)
      .toBe('"Foo" is not a valid label selector operator');
    expect(statusErrorOf(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] })).message)
      .toBe("values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty");
  });

  it('selectorFromSet matches exact pairs', () => {
    expect(selectorFromSet({ a: 'b' }).matches({ a: 'b', c: 'd' })).toBe(true);
    expect(selectorFromSet({ a: 'b' }).matches({ a: 'c' })).toBe(false);
    expect(selectorFromSet(undefined).empty).toBe(true);
  });
});

describe('validateLabelSelector', () => {
  it('returns field causes as metav1 validation does', () => {
    const causes = validateLabelSelector({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'a', operator: 'In' },
        { key: 'b', operator: 'Exists', values: ['x'] },
        { key: 'c', operator: 'Bad' },
      ],
    }, 'spec.selector');
    expect(causes.map((c) => `${c.field}: ${c.message}`)).toEqual([
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      'spec.selector.matchExpressions[2].operator: Invalid value: "Bad": not a valid selector operator',
    ]);
  });
});
