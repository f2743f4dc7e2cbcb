import { isCelError, type CelInput } from '@bufbuild/cel';
import { describe, expect, it } from 'vitest';
import { admissionScope, checkAdmissionExpression } from './admission.js';
import { checkExpression } from './check.js';
import { compile, evaluate } from './env.js';

const run = (expr: string, bindings: Record<string, CelInput> = {}): unknown => {
  const { result } = evaluate(compile(expr).program, bindings);
  return result instanceof Error || isCelError(result) ? `error: ${result.message}` : result;
};
const self = { type: 'object', properties: { s: { type: 'string' }, p: { type: 'string' } } };
const check = (rule: string, want: 'boolean' | 'string' = 'boolean'): string | undefined => {
  const c = compile(rule);
  return checkExpression(rule, c.ast, c.positions, self, want);
};

describe("CEL's regular expressions are Go's (RE2)", () => {
  it('matches, both forms, and find take RE2-only syntax', () => {
    for (const [s, re] of [['ABC', '(?i)abc'], ['a', '^[[:alpha:]]$'], ['abc', 'c\\z'], ['é', '^\\pL$'], ['x', '(?P<n>x)']]) {
      expect(run('s.matches(re) && matches(s, re) && s.find(re) != ""', { s, re })).toBe(true);
    }
    expect(run('"ABC".find("(?i)b")')).toBe('B');
  });

  it('refuses lookarounds and backreferences at evaluation with the errors cel-go and the regex library give', () => {
    expect(run('s.matches(re)', { s: 'ab', re: 'a(?!c)' })).toBe('error: error parsing regexp: invalid or unsupported Perl syntax: `(?!`');
    expect(run('matches(s, re)', { s: 'aa', re: '(a)\\1' })).toBe('error: error parsing regexp: invalid escape sequence: `\\1`');
    expect(run('s.find(re)', { s: 'ab', re: 'a(?=b)' })).toBe('error: Illegal regex: error parsing regexp: invalid or unsupported Perl syntax: `(?=`');
    expect(run('s.findAll(re, 1)', { s: 'ab', re: '(' })).toBe('error: Illegal regex: error parsing regexp: missing closing ): `(`');
  });

  it('matches anywhere in the string unless anchored, as Go\'s MatchString', () => {
    expect(run('"xbc".matches("b") && matches("xbc", "b")')).toBe(true);
    expect(run('"xbc".matches("^b") || "xbc".matches("b$")')).toBe(false);
  });

  it('finds as Go\'s FindString and FindAllString (upstream\'s examples; no empty match right after a match)', () => {
    expect(run('"abc 123".find("[0-9]+")')).toBe('123');
    expect(run('"abc 123".find("xyz")')).toBe('');
    expect(run('"123 abc 456".findAll("[0-9]+") == ["123", "456"] && "123 abc 456".findAll("[0-9]+", 1) == ["123"]')).toBe(true);
    expect(run('"123 abc 456".findAll("[0-9]+", 0) == [] && "123 abc 456".findAll("[0-9]+", -1) == ["123", "456"]')).toBe(true);
    expect(run('"baaab".findAll("a*") == ["", "aaa", ""]')).toBe(true);
    expect(run('"é😀x".findAll("") == ["", "", "", ""]')).toBe(true);
  });

  it('refuses a constant pattern RE2 refuses when the rule is compiled, in cel-go\'s and Kubernetes\' words', () => {
    expect(check("self.s.matches('x++')")).toBe("compilation failed: ERROR: <input>:1:16: invalid matches argument\n | self.s.matches('x++')\n | ...............^");
    expect(check("self.s.find(')') == ''")).toBe('program instantiation failed: error parsing regexp: unexpected ): `)`');
    expect(check("self.s.findAll('a(?!b)', 1) == []")).toBe('program instantiation failed: error parsing regexp: invalid or unsupported Perl syntax: `(?!`');
    // cel-go's validator reads the global form's first argument; the pattern fails when the program is made
    expect(check("matches(self.s, '(')")).toBe('program instantiation failed: error parsing regexp: missing closing ): `(`');
    expect(check("matches('(', self.s)")).toContain('ERROR: <input>:1:9: invalid matches argument');
    expect(check("self.s.find('(') + 'x'", 'string')).toBe('messageExpression instantiation failed: error parsing regexp: missing closing ): `(`');
    // a pattern known only at evaluation, and valid constants, compile
    expect(check("self.s.matches(self.p) && self.s.find(self.p) == '' && self.s.matches('(?i)^[[:alpha:]]+\\\\z')")).toBeUndefined();
    const admission = checkAdmissionExpression("object.metadata.name.find('\\\\1') == ''", admissionScope({ params: false, authorizer: false }));
    expect(admission.error).toBe('program instantiation failed: error parsing regexp: invalid escape sequence: `\\1`');
  });

  it('does not make a rule with matches much slower (compiled patterns cached)', () => {
    const program = compile('self.s.matches("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")').program;
    const plain = compile('self.s.size() < 253 && self.s != ""').program;
    const time = (p: typeof program): number => {
      const start = performance.now();
      for (let i = 0; i < 2000; i++) evaluate(p, { self: { s: `name-${i}.example.com` } });
      return performance.now() - start;
    };
    time(program);
    time(plain);
    // a cached RE2 match costs about what a few field reads and comparisons do, not a compile per call
    expect(time(program)).toBeLessThan(10 * time(plain) + 50);
  });
});
