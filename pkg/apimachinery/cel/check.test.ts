import { describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import { checkExpression } from './check.js';
import { compile } from './env.js';

const self: JSONSchemaProps = {
  type: 'object',
  properties: {
    s: { type: 'string' }, i: { type: 'integer' }, t: { type: 'string', format: 'date-time' },
    l: { type: 'array', items: { type: 'integer' } }, tags: { type: 'array', items: { type: 'string' } },
    m: { type: 'object', additionalProperties: { type: 'string' } },
  },
};
const check = (rule: string): string | undefined => {
  const c = compile(rule);
  return checkExpression(rule, c.ast, c.positions, self, 'boolean');
};

describe("the checker's functions: Kubernetes 1.32's environment for new expressions", () => {
  it('refuses functions the environment does not declare, as cel-go words it', () => {
    expect(check('self.nonexistentFn()')).toBe("compilation failed: ERROR: <input>:1:19: undeclared reference to 'nonexistentFn' (in container '')\n | self.nonexistentFn()\n | ..................^");
    expect(check('nosuchfunc(self.s)')).toContain("ERROR: <input>:1:11: undeclared reference to 'nosuchfunc' (in container '')");
    // strings v2 (no reverse), no ext.Lists, semver and image only from 1.33
    expect(check("self.s.reverse() == ''")).toContain("ERROR: <input>:1:15: undeclared reference to 'reverse'");
    for (const fn of ['slice(0, 1)', 'sort()', 'flatten()', 'distinct()']) expect(check(`self.l.${fn} == self.l`)).toContain(`undeclared reference to '${fn.replace(/\(.*/, '')}'`);
    // every error, in source order: a call on an undeclared function's result is undeclared too
    expect(check('semver(self.s).major() == 1')).toBe([
      "compilation failed: ERROR: <input>:1:7: undeclared reference to 'semver' (in container '')", ' | semver(self.s).major() == 1', ' | ......^',
      "ERROR: <input>:1:21: undeclared reference to 'major' (in container '')", ' | semver(self.s).major() == 1', ' | ....................^',
    ].join('\n'));
    expect(check("image(self.s).containerImage() == ''")).toContain("undeclared reference to 'image'");
  });

  it('refuses a field of a scalar or a list, as cel-go\'s checker does; a map\'s keys are fields', () => {
    expect(check("self.s.foo == ''")).toBe("compilation failed: ERROR: <input>:1:7: type 'string' does not support field selection\n | self.s.foo == ''\n | ......^");
    expect(check('has(self.i.x)')).toContain("type 'int' does not support field selection");
    expect(check('self.l.size == 1')).toContain("type 'list(int)' does not support field selection");
    expect(check("self.m.key == 'v'")).toBeUndefined();
  });

  it('refuses two-variable comprehensions (1.32 compiles new expressions as 1.31)', () => {
    expect(check('self.l.all(i, v, v > 0)')).toBe([
      "compilation failed: ERROR: <input>:1:11: undeclared reference to 'all' (in container '')", ' | self.l.all(i, v, v > 0)', ' | ..........^',
      "ERROR: <input>:1:12: undeclared reference to 'i' (in container '')", ' | self.l.all(i, v, v > 0)', ' | ...........^',
      "ERROR: <input>:1:15: undeclared reference to 'v' (in container '')", ' | self.l.all(i, v, v > 0)', ' | ..............^',
      "ERROR: <input>:1:18: undeclared reference to 'v' (in container '')", ' | self.l.all(i, v, v > 0)', ' | .................^',
    ].join('\n'));
    expect(check('self.l.transformList(i, v, v + 1) == self.l')).toContain("ERROR: <input>:1:21: undeclared reference to 'transformList'");
    expect(check('self.l.existsOne(x, x > 0)')).toContain("ERROR: <input>:1:17: undeclared reference to 'existsOne' (in container '')\n | self.l.existsOne(x, x > 0)\n | ................^\nERROR: <input>:1:18: undeclared reference to 'x'");
  });

  it('refuses a call without an overload for its call style, arity or argument types', () => {
    expect(check('self.s.split() == []')).toContain("ERROR: <input>:1:13: found no matching overload for 'split' applied to 'string.()'");
    expect(check('int(true) > 0')).toContain("ERROR: <input>:1:4: found no matching overload for 'int' applied to '(bool)'");
    expect(check('self.s.getHours() > 0')).toContain("found no matching overload for 'getHours' applied to 'string.()'");
    expect(check("self.tags.startsWith('a')")).toContain("found no matching overload for 'startsWith' applied to 'list(string).(string)'");
    expect(check("contains(self.s, 'a')")).toContain("found no matching overload for 'contains' applied to '(string, string)'");
    expect(check('self.s.all(x, true)')).toContain("ERROR: <input>:1:5: expression of type 'string' cannot be range of a comprehension (must be list, map, or dynamic)");
    expect(check("self.s.find('a') + 1 == 1")).toContain("found no matching overload for '_+_' applied to '(string, int)'");
  });

  it("accepts what 1.32's libraries declare", () => {
    const accepted = [
      "self.s.matches('a') && matches(self.s, 'b') && self.s.find('a') == '' && self.s.findAll('a', 2).size() > 0",
      "self.s.charAt(0) == 'a' && self.s.indexOf('a', 1) > 0 && self.s.lastIndexOf('a') > 0 && self.s.replace('a', 'b', 1) != ''",
      "self.s.lowerAscii().upperAscii().trim().substring(1, 2) == '' && self.s.split(',', 2).size() > 0 && self.tags.join(',') == ''",
      "self.s.format([1]) == '' && strings.quote(self.s) == '' && sets.contains(self.l, [1]) && sets.equivalent(self.tags, ['a']) && sets.intersects(self.l, [1])",
      'self.l.isSorted() && self.l.sum() > 0 && self.l.min() >= 0 && self.l.max() >= 0 && self.l.indexOf(1) > 0 && self.l.lastIndexOf(1) > 0',
      "url(self.s).getHost() == '' && url(self.s).getQuery().size() > 0 && isURL(self.s) && url(self.s).getScheme() == ''",
      "quantity(self.s).isLessThan(quantity('1')) && quantity(self.s).add(1).asInteger() > 0 && isQuantity(self.s)",
      'format.dns1123Label().validate(self.s).hasValue() && format.named(self.s).hasValue() && ip.isCanonical(self.s) && isIP(self.s)',
      'cidr(self.s).containsIP(self.s) && cidr(self.s).ip().family() == 4 && isCIDR(self.s) && string(cidr(self.s).masked()) != ""',
      "optional.of(1).hasValue() && optional.none().orValue(1) == 1 && optional.ofNonZeroValue(self.s).or(optional.of('a')).value() != '' && self.?s.orValue('') == ''",
      "self.t.getHours() > 0 && self.t.getFullYear('UTC') > 0 && timestamp(self.s) > timestamp('2020-01-01T00:00:00Z') && duration(self.s).getSeconds() > 0",
      "size(self.l) > 0 && self.l.size() > 0 && dyn(self.s) == 'a' && type(self.s) == string && string(self.i) == '1' && double(self.i) > 1.0",
      "self.l.map(x, x > 1, x * 2).size() > 0 && self.l.exists_one(x, x > 0) && self.l.filter(x, x > 0).size() > 0 && self.m.all(k, k.matches('^a$'))",
    ];
    for (const rule of accepted) expect([rule, check(rule)]).toEqual([rule, undefined]);
  });
});
