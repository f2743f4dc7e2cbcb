import { describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import { childCardinality, costExceededMessage, estimateCost, multiplyCost, STATIC_COST_LIMIT, unboundedCardinality } from './cost.js';
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

// upstream's CELSchemaContext cardinalities (apiextensions validation: childContext, extractMaxElements, maxCardinality)
describe('how many times a rule can run per object', () => {
  const walk = (...path: JSONSchemaProps[]): number | undefined => path.reduce<number | undefined>((c, s) => childCardinality(c, s), 1);
  const list = (maxItems?: number): JSONSchemaProps => ({ type: 'array', maxItems, items: { type: 'object' } });
  const map = (maxProperties?: number): JSONSchemaProps => ({ type: 'object', maxProperties, additionalProperties: { type: 'object' } });

  it('multiplies the bounds of the lists and maps above, an object\'s fields occurring as often as it does', () => {
    expect(walk({ type: 'object' })).toBe(1);
    expect(walk(list(5))).toBe(5);
    expect(walk(map(10))).toBe(10);
    expect(walk(map(5), list(10))).toBe(50);
    expect(walk(list(10), { type: 'object', properties: { a: map(3) } }, map(3))).toBe(30);
    expect(walk(list(-1))).toBe(0);
    // additionalProperties: true makes a map too
    expect(walk({ type: 'object', additionalProperties: true })).toBeUndefined();
  });

  it('is unbounded below any list or map without maxItems or maxProperties, however bounded the rest', () => {
    expect(walk(list())).toBeUndefined();
    expect(walk(map())).toBeUndefined();
    expect(walk(map(5), list())).toBeUndefined();
    expect(walk(list(), list(5))).toBeUndefined();
    expect(walk(list(), { type: 'object' }, list())).toBeUndefined();
  });

  it('saturates at cel-go\'s math.MaxUint64 and keeps a cost of 0 at 0', () => {
    expect(walk(list(2 ** 40), list(2 ** 40))).toBe(2 ** 64 - 1);
    expect(multiplyCost(0, 2 ** 64)).toBe(0);
    expect(multiplyCost(3, 1048576)).toBe(3145728);
  });

  it('takes an unbounded cardinality as the node\'s smallest serialized values that fit in 3 MiB, a comma each', () => {
    expect(unboundedCardinality({ type: 'object' })).toBe(1048576);
    expect(unboundedCardinality({ type: 'integer' })).toBe(1572864);
    expect(unboundedCardinality({ type: 'boolean' })).toBe(629145);
    expect(unboundedCardinality({ type: 'string', format: 'date-time' })).toBe(142987);
    // {"name":""}: required fields without a default, named in bytes
    expect(unboundedCardinality({ type: 'object', required: ['name', 'n'], properties: { name: { type: 'string' }, n: { type: 'integer', default: 1 } } })).toBe(241979);
    expect(unboundedCardinality({ type: 'object', required: ['né'], properties: { né: { type: 'string' } } })).toBe(262144); // {"né":""}, 11 bytes
    // a field without a CEL type adds nothing
    expect(unboundedCardinality({ type: 'object', required: ['x'], properties: { x: { 'x-kubernetes-preserve-unknown-fields': true } } })).toBe(1048576);
  });
});
