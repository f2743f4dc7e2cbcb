import { isCelError, type CelInput } from '@bufbuild/cel';
import { describe, expect, it } from 'vitest';
import { compile, evaluate, type Program } from './env.js';
import { BAIL, compileFast } from './fast-path.js';

const obj = (o: Record<string, unknown>): CelInput => new Map(Object.entries(o)) as unknown as CelInput;
const INPUTS: Record<string, CelInput>[] = [
  { self: obj({ min: 1n, max: 5n, name: 'web', flag: true, mode: 'Never', ratio: 0.5, big: 9223372036854775807n, nothing: null, list: [1n], nested: obj({ x: 2n }), wide: 'héllo😀' }) },
  { self: obj({ min: 7n, max: 5n, name: '', flag: false, mode: 'Always', ratio: 2.5, big: -9223372036854775808n, nothing: null, list: [], nested: obj({}), wide: '' }) },
  { self: obj({ min: 1.5, max: '5', name: 3n }) },
  { self: obj({}), oldSelf: obj({ min: 1n }) },
];
const EXPRS = [
  'self.min <= self.max', 'self.min < self.max', 'self.min > self.max', 'self.min >= self.max', 'self.min == self.max', 'self.min != self.max',
  'self.name.size() + self.mode.size() <= 100', 'size(self.name) < 3', 'self.wide.size()', '!self.flag || self.mode != "Never"',
  'self.flag && self.min == 1', 'self.flag ? self.min : self.max', 'has(self.min) && self.min > 0', 'has(self.absent) || self.min == 1',
  'self.min + self.max', 'self.min - self.max', 'self.min * self.max', 'self.max / self.min', 'self.max % self.min', '-self.min',
  'self.big + 1', 'self.big * 2', '-self.big', 'self.max / 0', 'self.max % 0', 'self.ratio * 2.0', 'self.ratio / 0.0', 'self.ratio < 1.0',
  'self.ratio == 0.5', 'self.min == 1.0', 'self.min < 2.0', 'self.name + "-" + self.mode', 'self.name.startsWith("w")', 'self.name.endsWith("b")',
  'self.name.contains("e")', 'self.absent == 1', 'self.nothing == null', 'self.nested.x == 2', 'self["min"] == 1', 'self.list.size() == 1',
  'self.name < self.mode', 'self.flag < true', 'self.flag + self.flag', 'self.mode - self.name', 'oldSelf.min == self.min', 'self.name.matches("^w")',
  'self.min', 'self.nested', 'self.nothing', 'self.wide > self.name', '1 + 2 == 3', '"a" == "a"',
];
/** Expressions the closures must answer for the first input (not hand back to the interpreter). */
const COVERED = ['self.min <= self.max', 'self.name.size() + self.mode.size() <= 100', '!self.flag || self.mode != "Never"', 'self.flag ? self.min : self.max',
  'has(self.absent) || self.min == 1', 'self.ratio < 1.0', 'self.name + "-" + self.mode', 'self.nested.x == 2', 'self["min"] == 1', 'self.wide.size()'];

const shown = (r: unknown): unknown => (r instanceof Error || isCelError(r) ? `error: ${(r as Error).message}` : r);
const run = (p: Program, b: Record<string, CelInput>, limit?: number): { result: unknown; cost: number } => {
  const { result, cost } = evaluate(p, b, limit);
  return { result: shown(result), cost };
};

describe('the CEL fast path', () => {
  it('answers exactly as the interpreter, with the same cost, for every expression and input', () => {
    for (const expr of EXPRS) {
      const c = compile(expr);
      for (const b of INPUTS) expect({ expr, ...run(c.program, b) }).toEqual({ expr, ...run(c.interpreted, b) });
    }
  });

  it('answers the common rule shapes itself, and charges what the interpreter charges', () => {
    for (const expr of COVERED) {
      let spent = 0;
      const fast = compileFast(compile(expr).ast!, new Set(), { charge: (size) => { spent += 1 + Math.ceil(size * 0.1); return true; } });
      expect(fast, expr).toBeDefined();
      const v = fast!(INPUTS[0]!);
      expect(v, expr).not.toBe(BAIL);
      expect({ expr, result: v, cost: spent }).toEqual({ expr, ...run(compile(expr).interpreted, INPUTS[0]!) });
    }
  });

  it('leaves comprehensions, lists, macros and namespaced functions to the interpreter', () => {
    for (const expr of ['self.list.all(x, x > 0)', '[1, 2].size() == 2', 'optional.of(1).hasValue()', 'self.name.matches("^w")', '{"a": 1}.a == 1']) {
      expect(compileFast(compile(expr).ast!, new Set(['optional.of']), { charge: () => true }), expr).toBeUndefined();
    }
  });

  it('stops past the cost limit as the interpreter does', () => {
    const expr = 'self.name.size() + self.mode.size() <= 100';
    expect(run(compile(expr).program, INPUTS[0]!, 2)).toEqual(run(compile(expr).interpreted, INPUTS[0]!, 2));
    expect(run(compile(expr).program, INPUTS[0]!, 2).result).toMatch(/cost limit exceeded/);
  });
});
