import { describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import { costExceededMessage, estimateCost, STATIC_COST_LIMIT } from './cost.js';
import { compile } from './env.js';

type Gen = (max?: number) => JSONSchemaProps;
const cost = (rule: string, self: JSONSchemaProps): number => estimateCost(compile(rule).ast, self);

// upstream's schema generators (apiextensions-apiserver pkg/apiserver/schema/cel/compilation_test.go)
const scalar = (t: string): JSONSchemaProps =>
  (t === 'int-or-string' ? { 'x-kubernetes-int-or-string': true } : ['duration', 'date', 'date-time'].includes(t) ? { type: 'string', format: t } : { type: t });
const array = (t: string): Gen => (max) => ({ type: 'array', items: scalar(t), maxItems: max });
const map = (t: string): Gen => (max) => ({ type: 'object', additionalProperties: scalar(t), maxProperties: max });
const string: Gen = (max) => ({ type: 'string', maxLength: max });
const objects: Gen = (max) => ({ type: 'array', maxItems: max, items: { type: 'object', required: ['required'], properties: { required: { type: 'string' }, optional: { type: 'string' } } } });
const strings: Gen = (max) => ({ type: 'array', maxItems: max, items: { type: 'string', maxLength: max } });
const nested: Gen = (max) => ({ type: 'object', maxProperties: max, additionalProperties: { type: 'string', maxLength: max } });
const nestedMaps: Gen = (max) => ({
  type: 'array', maxItems: max,
  items: { type: 'object', maxProperties: max, additionalProperties: { type: 'object', maxProperties: max, required: ['required'], properties: { required: { type: 'string' }, optional: { type: 'string' } } } },
});

// [name, schema, rule, cost without maxItems/maxProperties/maxLength, the bound, cost with it]
const UPSTREAM: Array<[string, Gen, string, number, number, number]> = [
  ['number array with all', array('number'), 'self.all(x, true)', 4718591, 10, 32],
  ['string array with all', array('string'), 'self.all(x, true)', 3145727, 20, 62],
  ['boolean array with all', array('boolean'), 'self.all(x, true)', 1887437, 5, 17],
  ['array of objects with all', objects, 'self.all(x, true)', 555128, 50, 152],
  ['map of numbers with all', map('number'), 'self.all(x, true)', 1348169, 10, 32],
  ['string with contains', string, "self.contains('test')", 314574, 10, 5],
  ['string with startsWith', string, "self.startsWith('test')", 2, 15, 2],
  ['concat string', string, 'size(self + "hello") > size("hello")', 314578, 4, 7],
  ['index of array with strings', array('string'), 'self[1] == self[1]', 314577, 8, 314577],
  ['O(n^2) loop with numbers', array('number'), 'self.all(x, self.all(y, true))', Number.NaN, 10, 352],
  ['regex matches simple', string, 'self.matches("x")', 314574, 50, 22],
  ['regex matches empty string', string, '"".matches("(((((((((())))))))))[0-9]")', 7, 10, 7],
  ['regex matches empty regex', string, 'self.matches("")', 1, 100, 1],
  ['map of strings with value length', nested, 'self.all(x, x.contains(self[x]))', 2752507, 10, 72],
  ['set string maxLength to zero', string, 'self == "x"', 2, 0, 1],
  ['nested types with root rule', nestedMaps, 'self.all(x, x["y"].required == "z")', 7340027, 10, 72],
  ['index of array with int-or-strings', array('int-or-string'), 'self[0] == 5', 3, 10, 3],
  ['date array with all', array('date'), 'self.all(x, true)', 725936, 15, 47],
  ['index of date-time array', array('date-time'), 'self[2].getMinutes() == 45', 4, 99, 4],
  ['map of durations with all', map('duration'), 'self.all(x, true)', 1048577, 5, 17],
  ['extended library regex find', string, "self.find('[0-9]+') == ''", 629147, 10, 11],
  ['extended library join', strings, "self.join(' ') == 'aa bb'", 329853068905, 10, 43],
  ['extended library isSorted', strings, 'self.isSorted() == true', 329854432052, 10, 52],
  ['extended library lowerAscii', string, "self.lowerAscii() == 'lower!'", 314575, 10, 6],
  ['check cost of size call', map('integer'), 'oldSelf.size() == self.size()', 5, 10, 5],
  ['check cost of timestamp comparison', map('date-time'), 'self["a"] == self["b"]', 8, 7, 8],
];

describe("estimated rule costs, as cel-go's checker and Kubernetes' size estimates give them", () => {
  it.each(UPSTREAM)("costs upstream's case %s as upstream does", (_name, gen, rule, calc, max, set) => {
    if (Number.isNaN(calc)) expect(cost(rule, gen())).toBeGreaterThan(STATIC_COST_LIMIT);
    else expect(cost(rule, gen())).toBe(calc);
    expect(cost(rule, gen(max))).toBe(set);
  });

  it('costs the library calls of upstream cases on objects (replace, split) and enums', () => {
    const replace = (max?: number): JSONSchemaProps => ({ type: 'object', properties: { str: string(max), before: string(2), after: string(4) } });
    expect(cost("self.str.replace(self.before, self.after) == 'does not matter'", replace())).toBe(629154);
    expect(cost("self.str.replace(self.before, self.after) == 'does not matter'", replace(4))).toBe(12);
    const split = (max?: number): JSONSchemaProps => ({ type: 'object', properties: { str: string(max), separator: string(max) } });
    expect(cost('self.str.split(self.separator) == []', split())).toBe(629160);
    expect(cost('self.str.split(self.separator) == []', split(10))).toBe(22);
    const enums = (max?: number): JSONSchemaProps => ({ type: 'string', maxLength: max, enum: ['A', 'B', 'C', 'LongValue'] });
    expect(cost("self.contains('A')", enums())).toBe(2);
    expect(cost("self.contains('A')", enums(1000))).toBe(401);
  });

  it('accepts a DNS-label pattern on an unbounded string, a maxItems list of startsWith and a bounded map of key patterns', () => {
    expect(cost("self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')", { type: 'string' })).toBeLessThan(STATIC_COST_LIMIT);
    expect(cost("self.startsWith('x')", { type: 'string' }) * 100).toBe(200);
    expect(cost("self.all(k, k.matches('^[a-z]+$'))", { type: 'object', maxProperties: 5, additionalProperties: { type: 'string' } })).toBe(2 + 5 * (2 + 1 + 1 + 2));
  });

  it('refuses contains on two unbounded strings', () => {
    const c = cost('self.s.contains(self.s)', { type: 'object', properties: { s: { type: 'string' } } });
    expect(costExceededMessage('estimated rule cost', c, STATIC_COST_LIMIT)).toMatch(/by factor of more than 100x/);
  });

  it("charges Kubernetes' ip, cidr and sets calls as its cost estimator does", () => {
    const s: JSONSchemaProps = { type: 'object', properties: { l: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 5 } }, s: { type: 'string', maxLength: 25 } } };
    expect(cost('isIP(self.s) && cidr(self.s).containsIP(self.s)', s)).toBe(2 + 10 + 2 + 10 + 2 + 4 + 10);
    expect(cost('sets.contains(self.l, self.l)', s)).toBe(4 + 1 + 100);
    expect(cost('matches(self.s, "a")', s)).toBe(3);
  });
});
