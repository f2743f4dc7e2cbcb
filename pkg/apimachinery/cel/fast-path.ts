// Most validation rules are a few field reads, comparisons and boolean logic (`self.min <= self.max`,
// `self.name.size() < 64`); @bufbuild/cel's interpreter spends microseconds on each through attribute resolution
// and overload dispatch. Such expressions are compiled here once into plain closures over the same values. A
// closure gives up (BAIL) wherever the answer is not a plain value of the same type on both sides of an operator —
// a missing field, null, a list, an overflow, a division by zero, mixed numeric types, the cost limit — and the
// interpreter then evaluates the whole expression again: expressions have no side effects, so the result, errors
// and cost are the interpreter's in every case the closures do not answer exactly as it would.
import type { Ast } from './env.js';

type Expr = NonNullable<Ast>;
type Value = boolean | bigint | number | string | Map<string, unknown> | null | undefined | object;
type Bindings = Record<string, unknown>;

export const BAIL: unique symbol = Symbol('bail');
type Out = Value | typeof BAIL;
type Fn = (b: Bindings) => Out;

/** How the closures charge each function call, as the interpreter's counted functions do; false: over the limit. */
export interface Charges {
  charge(size: number): boolean;
}

const MAX_INT = 9223372036854775807n;
const MIN_INT = -9223372036854775808n;
const intOrBail = (v: bigint): bigint | typeof BAIL => (v > MAX_INT || v < MIN_INT ? BAIL : v);

type Prim = 'bigint' | 'number' | 'string' | 'boolean';
const COMPARABLE = new Set<string>(['bigint', 'number', 'string', 'boolean']);
const sizeOf = (v: unknown): number => (typeof v === 'string' ? v.length : 0);

/** Both operands of one primitive type (the overloads that compare or combine them without conversion). */
const sameType = (l: Out, r: Out): Prim | undefined => {
  const t = typeof l;
  return t === typeof r && COMPARABLE.has(t) ? (t as Prim) : undefined;
};

type Binary = (l: Value, r: Value, t: Prim) => Out;
const BINARY: Record<string, Binary> = {
  '_<_': (l, r) => (l as number) < (r as number),
  '_<=_': (l, r) => (l as number) <= (r as number),
  '_>_': (l, r) => (l as number) > (r as number),
  '_>=_': (l, r) => (l as number) >= (r as number),
  '_==_': (l, r) => l === r,
  '_!=_': (l, r) => l !== r,
  '_+_': (l, r, t) => (t === 'bigint' ? intOrBail((l as bigint) + (r as bigint)) : t === 'boolean' ? BAIL : (l as number) + (r as number)),
  '_-_': (l, r, t) => (t === 'bigint' ? intOrBail((l as bigint) - (r as bigint)) : t === 'number' ? (l as number) - (r as number) : BAIL),
  '_*_': (l, r, t) => (t === 'bigint' ? intOrBail((l as bigint) * (r as bigint)) : t === 'number' ? (l as number) * (r as number) : BAIL),
  '_/_': (l, r, t) => (t === 'bigint' ? (r === 0n ? BAIL : intOrBail((l as bigint) / (r as bigint))) : t === 'number' ? (l as number) / (r as number) : BAIL),
  '_%_': (l, r, t) => (t === 'bigint' && r !== 0n ? intOrBail((l as bigint) % (r as bigint)) : BAIL),
};

const STRING_METHODS: Record<string, (s: string, arg: string) => boolean> = {
  contains: (s, a) => s.includes(a),
  startsWith: (s, a) => s.startsWith(a),
  endsWith: (s, a) => s.endsWith(a),
};

/** The dotted name a call's target spells (`optional.of` is a function of that name, not a method of `optional`). */
const qualifiedName = (e: Expr): string | undefined => {
  const k = e.exprKind;
  if (k.case === 'identExpr') return k.value.name;
  if (k.case === 'selectExpr' && !k.value.testOnly && k.value.operand) {
    const parent = qualifiedName(k.value.operand);
    return parent === undefined ? undefined : `${parent}.${k.value.field}`;
  }
  return undefined;
};

/**
 * Closures for `ast`, or undefined when it uses anything they do not cover (comprehensions, lists, maps, other
 * functions). `functions`: every function name the environment knows, to tell namespaced functions from methods.
 */
export function compileFast(ast: Expr, functions: ReadonlySet<string>, costs: Charges): ((b: Bindings) => Out) | undefined {
  const build = (e: Expr | undefined): Fn | undefined => {
    if (!e) return undefined;
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr': {
        const c = k.value.constantKind;
        if (c.case !== 'int64Value' && c.case !== 'stringValue' && c.case !== 'boolValue' && c.case !== 'doubleValue') return undefined;
        const v = c.value;
        return () => v;
      }
      case 'identExpr': {
        const name = k.value.name;
        return (b) => (b[name] === undefined || !Object.hasOwn(b, name) ? BAIL : (b[name] as Value));
      }
      case 'selectExpr': {
        const operand = build(k.value.operand);
        if (!operand) return undefined;
        const field = k.value.field;
        if (k.value.testOnly) return (b) => { const m = operand(b); return m instanceof Map ? m.has(field) : BAIL; };
        return (b) => {
          const m = operand(b);
          if (!(m instanceof Map)) return BAIL;
          const v = m.get(field) as Value;
          return v === undefined ? BAIL : v;
        };
      }
      case 'callExpr':
        return call(k.value.function, k.value.target, k.value.args);
      default:
        return undefined;
    }
  };

  const call = (fn: string, target: Expr | undefined, argExprs: Expr[]): Fn | undefined => {
    if (target) {
      const q = qualifiedName(target);
      if (q !== undefined && functions.has(`${q}.${fn}`)) return undefined;
    }
    const args = argExprs.map(build);
    if (args.some((a) => !a)) return undefined;
    const [a, c, d] = args as Fn[];
    if (!target) {
      switch (fn) {
        case '_&&_':
        case '_||_': {
          if (args.length !== 2) return undefined;
          const stopAt = fn === '_||_';
          return (b) => {
            const l = a!(b);
            if (typeof l !== 'boolean') return BAIL;
            if (l === stopAt) return l;
            const r = c!(b);
            return typeof r === 'boolean' ? r : BAIL;
          };
        }
        case '_?_:_':
          if (args.length !== 3) return undefined;
          return (b) => { const cond = a!(b); return cond === true ? c!(b) : cond === false ? d!(b) : BAIL; };
        case '!_':
          if (args.length !== 1) return undefined;
          return (b) => { const v = a!(b); return typeof v === 'boolean' && costs.charge(0) ? !v : BAIL; };
        case '-_':
          if (args.length !== 1) return undefined;
          return (b) => {
            const v = a!(b);
            if (typeof v === 'bigint') return costs.charge(0) ? intOrBail(-v) : BAIL;
            return typeof v === 'number' && costs.charge(0) ? -v : BAIL;
          };
        case 'size':
          if (args.length !== 1) return undefined;
          return (b) => { const v = a!(b); return typeof v === 'string' && costs.charge(v.length) ? BigInt([...v].length) : BAIL; };
        case '_[_]':
          if (args.length !== 2) return undefined;
          return (b) => {
            const m = a!(b);
            const key = c!(b);
            if (!(m instanceof Map) || typeof key !== 'string') return BAIL;
            const v = m.get(key) as Value;
            return v === undefined ? BAIL : v;
          };
      }
      const op = BINARY[fn];
      if (!op || args.length !== 2) return undefined;
      return (b) => {
        const l = a!(b);
        if (l === BAIL) return BAIL;
        const r = c!(b);
        if (r === BAIL) return BAIL;
        // Operands of two types (int and double compared, say): the interpreter's overloads decide.
        const t = sameType(l, r);
        if (!t || !costs.charge(Math.max(sizeOf(l), sizeOf(r)))) return BAIL;
        return op(l as Value, r as Value, t);
      };
    }
    const recv = build(target);
    const method = STRING_METHODS[fn];
    if (!recv) return undefined;
    if (fn === 'size' && args.length === 0) {
      return (b) => { const v = recv(b); return typeof v === 'string' && costs.charge(v.length) ? BigInt([...v].length) : BAIL; };
    }
    if (!method || args.length !== 1) return undefined;
    return (b) => {
      const s = recv(b);
      if (typeof s !== 'string') return BAIL;
      const arg = a!(b);
      if (typeof arg !== 'string' || !costs.charge(Math.max(s.length, arg.length))) return BAIL;
      return method(s, arg);
    };
  };

  const root = build(ast);
  if (!root) return undefined;
  return (b) => {
    const v = root(b);
    // Objects and null come back as the interpreter's own values: only plain results are answered here.
    return v === BAIL || v === null || typeof v === 'object' ? BAIL : v;
  };
}
