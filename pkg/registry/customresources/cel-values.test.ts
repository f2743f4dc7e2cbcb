// self and oldSelf are handed to CEL as maps whose fields convert on first read; every map operation must see them whole.
import { beforeAll, expect, it } from 'vitest';
import { validateRules } from './cel.js';
import { loadCel } from '../../apimachinery/cel/index.js';

// what the apiserver does before admitting a write
beforeAll(async () => { await loadCel(); });
const schema = (rules: string[]) => ({ type: 'object', properties: { a: { type: 'integer' }, b: { type: 'string' }, m: { type: 'object', additionalProperties: { type: 'integer' } }, n: { type: 'object', properties: { x: { type: 'integer' } } } },
  'x-kubernetes-validations': rules.map((rule) => ({ rule })) }) as never;
it('objects given to rules (converted lazily) behave as CEL maps: size, has, in, macros, equality', () => {
  const v = { a: 3, b: 'hi', m: { p: 1, q: 2 }, n: { x: 5 } };
  const ok = ['self.size() == 4', 'has(self.a)', '!has(self.zz)', "'b' in self", "self.m.all(k, self.m[k] > 0)", "self.m.exists(k, k == 'q')", 'self.m.size() == 2',
    "self.m == {'p': 1, 'q': 2}", 'self.n == {"x": 5}', 'self == oldSelf', 'self.a + self.n.x == 8', "self.m.map(k, k).size() == 2", "self.m.filter(k, self.m[k] > 1) == ['q']"];
  for (const r of ok) expect(validateRules(v, structuredClone(v), schema([r])), r).toEqual([]);
  expect(validateRules(v, { ...v, a: 4 }, schema(['self == oldSelf']))).toHaveLength(1);
  expect(validateRules(v, undefined, schema(['self.a == 4']))).toHaveLength(1);
});
