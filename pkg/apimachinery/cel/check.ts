// What cel-go's type checker tells a CRD author at CRD creation, over @bufbuild/cel's untyped AST: a field the
// schema does not declare ("undefined field 'x'", with cel-go's location and source pointer), a function the
// environment lacks ("undeclared reference to 'reverse' (in container '')"), a call, operator, `in` or ternary with
// no overload for its call style, arity or argument types ("found no matching overload for '_>_' applied to
// '(int, string)'", "... for 'startsWith' applied to 'int.(string)'"), list and map literals mixing element types
// (Kubernetes enables homogeneous aggregate literals: "expected type 'int' but found 'string'"), a rule whose result
// is plainly not a bool (a messageExpression: not a string), and undeclared variables; every error, in source order,
// as cel-go lists them. Only what the schema makes certain is reported; anything dynamic (int-or-string,
// preserve-unknown-fields, formats, objects) passes, as dyn does.
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import { twoVarCalls } from './comprehensions.js';
import { declarations, functionNames, type Ast } from './env.js';
import { unescapeField } from './escaping.js';
import { issue } from './issue.js';
import { invalidMatchesArguments, regexProgramError } from './regex-constants.js';

type Typed = JSONSchemaProps | undefined;


const closed = (s: Typed): s is JSONSchemaProps =>
  Boolean(s && s.type === 'object' && s.properties && s.additionalProperties === undefined && !s['x-kubernetes-preserve-unknown-fields'] && !s['x-kubernetes-embedded-resource']);

interface Found {
  message: string;
  offset: number;
}

/** String formats CEL gives types of their own (bytes, duration, timestamp), which the checker leaves dynamic. */
const TYPED_FORMATS = new Set(['byte', 'duration', 'date', 'date-time', 'datetime']);

/** A scalar schema's CEL type; undefined for anything else (lists, maps, dyn, strings with a format CEL types). */
const celScalar = (s: Typed): string | undefined => {
  if (!s || s['x-kubernetes-int-or-string'] || s['x-kubernetes-preserve-unknown-fields'] || (s.type === 'string' && TYPED_FORMATS.has(s.format ?? ''))) return undefined;
  return s.type === 'integer' ? 'int' : s.type === 'number' ? 'double' : s.type === 'string' ? 'string' : s.type === 'boolean' ? 'bool' : undefined;
};
/** Identifiers CEL resolves without declarations: its type denotations, and the protobuf package's root. */
const TYPE_NAMES = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn', 'google']);

/** A schema's CEL type name when it is certain: scalars, and lists and maps of such. */
const celType = (s: Typed): string | undefined => {
  const scalar = celScalar(s);
  if (scalar || !s || s['x-kubernetes-int-or-string'] || s['x-kubernetes-preserve-unknown-fields']) return scalar;
  if (s.type === 'array' && s.items && !Array.isArray(s.items)) {
    const e = celType(s.items);
    return e && `list(${e})`;
  }
  if (s.type === 'object' && !s.properties && typeof s.additionalProperties === 'object') {
    const v = celType(s.additionalProperties);
    return v && `map(string, ${v})`;
  }
  return undefined;
};
const SCHEMA_TYPE: Record<string, string> = { int: 'integer', double: 'number', string: 'string', bool: 'boolean' };
/** The schema of a type name the checker knows (scalars, lists and string-keyed maps of such); undefined otherwise. */
function schemaOf(name: string): Typed {
  if (SCHEMA_TYPE[name]) return { type: SCHEMA_TYPE[name] };
  const list = /^list\((.*)\)$/.exec(name);
  const items = list && schemaOf(list[1]!);
  if (items) return { type: 'array', items };
  const map = /^map\(string, (.*)\)$/.exec(name);
  const values = map && schemaOf(map[1]!);
  return values ? { type: 'object', additionalProperties: values } : undefined;
}
const NUMERIC = new Set(['int', 'double']);
const isList = (t: string | undefined): boolean => t?.startsWith('list(') ?? false;

/**
 * cel-go's standard overloads of the operators, by the argument types: the result type, or undefined when none
 * applies. Comparisons across int and double are allowed (Kubernetes enables cross-type numeric comparison).
 */
const compare = ([a, b]: string[]): string | undefined => (NUMERIC.has(a!) && NUMERIC.has(b!)) || (a === b && !a!.includes('(')) ? 'bool' : undefined;
const equal = ([a, b]: string[]): string | undefined => (a === b ? 'bool' : undefined);
const same = (allowed: string[]) => ([a, b]: string[]): string | undefined => (a === b && allowed.includes(a!) ? a : undefined);
const bools = (types: string[]): string | undefined => (types.every((t) => t === 'bool') ? 'bool' : undefined);
const OPERATORS: Record<string, (types: string[]) => string | undefined> = {
  '_<_': compare, '_<=_': compare, '_>_': compare, '_>=_': compare, '_==_': equal, '_!=_': equal,
  '_+_': ([a, b]) => (a === b && isList(a) ? a : same(['int', 'double', 'string'])([a!, b!])), '_-_': same(['int', 'double']),
  '_*_': same(['int', 'double']), '_/_': same(['int', 'double']), '_%_': same(['int']),
  '_&&_': bools, '_||_': bools, '!_': bools, '-_': ([a]) => (NUMERIC.has(a!) ? a : undefined),
  // x in list(A) or map(A, B); int and double are let through together rather than guessed at
  '@in': ([a, b]) => {
    const elem = /^(?:list\((.*)\)|map\((\w+), .*\))$/.exec(b!);
    const e = elem?.[1] ?? elem?.[2];
    return e !== undefined && (e === a || (NUMERIC.has(a!) && NUMERIC.has(e))) ? 'bool' : undefined;
  },
  // cond ? A : A
  '_?_:_': ([c, a, b]) => (c === 'bool' && a === b ? a : undefined),
};

/** Splits `a, b` at its top-level comma (the key and value of a map type). */
function pair(s: string): [string, string] {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')') depth--;
    else if (s[i] === ',' && depth === 0) return [s.slice(0, i), s.slice(i + 2)];
  }
  return [s, ''];
}

/** Whether an overload's parameter of type `param` takes a value of type `actual` (undefined: dyn). */
function assignable(param: string, actual: string | undefined): boolean {
  if (actual === undefined || param === 'dyn' || param === actual) return true;
  const p = /^(list|map)\((.*)\)$/.exec(param);
  const a = /^(list|map)\((.*)\)$/.exec(actual);
  if (!p || !a || p[1] !== a[1]) return false;
  if (p[1] === 'list') return assignable(p[2]!, a[2]);
  const [pk, pv] = pair(p[2]!);
  const [ak, av] = pair(a[2]!);
  return assignable(pk, ak) && assignable(pv, av);
}

/** Where a subtree's source starts (a select is positioned at its dot, a call at its operator or name). */
function leftmost(e: Ast | undefined, positions: Record<string, number>): number {
  if (!e) return Number.POSITIVE_INFINITY;
  const k = e.exprKind;
  const children = k.case === 'selectExpr' ? [k.value.operand] : k.case === 'callExpr' ? [k.value.target, ...k.value.args] : k.case === 'listExpr' ? k.value.elements : [];
  return Math.min(positions[String(e.id)] ?? Number.POSITIVE_INFINITY, ...children.map((c) => leftmost(c, positions)));
}

/** The source offset cel-go reports a node at: operators at their token, calls at their '(', ternaries at '?'. */
function offsetOf(e: Ast, ctx: Context): number {
  const { source } = ctx;
  let at = ctx.positions[String(e.id)] ?? 0;
  const k = e.exprKind;
  if (k.case !== 'callExpr') return at;
  if (k.value.function === '_?_:_') {
    let i = leftmost(k.value.args[1], ctx.positions) - 1;
    while (i > 0 && (source[i] === '(' || /\s/.test(source[i]!))) i--;
    return source[i] === '?' ? i : at;
  }
  if (/^\w+$/.test(k.value.function)) {
    const open = /^[\s.]*\w+\s*\(/.exec(source.slice(at));
    return open ? at + open[0].length - 1 : at;
  }
  while (/\s/.test(source[at] ?? '')) at++;
  return at;
}

interface Context {
  source: string;
  positions: Record<string, number>;
  /** The errors found so far: cel-go reports them all, and a subexpression in error is dyn to the rest. */
  errors: Found[];
}
/** A subexpression's schema (undefined: dyn); `optional` when it is an optional value (`x.?f`) of that schema. */
type Result = { type: Typed; optional?: { of: Typed } };

const report = (ctx: Context, message: string, offset: number): Result => {
  ctx.errors.push({ message, offset });
  return { type: undefined };
};

/** A field of an object or value of a map, through an optional as cel-go selects (the result optional too). */
function selectField(e: Ast, op: Result, field: string, ctx: Context, optional: boolean): Result {
  const s = op.optional ? op.optional.of : op.type;
  // a scalar or a list has no fields (cel-go's checker); maps and objects do, and dyn may
  const t = celType(s);
  if (t !== undefined && !t.startsWith('map(')) return report(ctx, `type '${t}' does not support field selection`, ctx.positions[String(e.id)] ?? 0);
  const property = s?.properties ? unescapeField(field) : field;
  if (closed(s) && !Object.hasOwn(s.properties!, property)) return report(ctx, `undefined field '${field}'`, ctx.positions[String(e.id)] ?? 0);
  const next = (s?.properties && Object.hasOwn(s.properties, property) ? s.properties[property] : undefined) ?? (s && typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
  return optional || op.optional ? { type: undefined, optional: { of: next } } : { type: next };
}

/** The element schema of a list or the value schema of a map. */
const elementOf = (base: Typed): Typed =>
  (base?.type === 'array' && base.items && !Array.isArray(base.items) ? base.items : base && typeof base.additionalProperties === 'object' ? base.additionalProperties : undefined);

/** The optional library's methods on an optional of `of`: value() and orValue(v) (of the same type) give its type. */
function optionalMethod(fn: string, of: Typed, args: Array<{ r: Result }>): Result {
  if (fn === 'hasValue') return { type: { type: 'boolean' } };
  if (fn === 'value' || (fn === 'orValue' && celType(of) !== undefined && celType(args[0]?.r.type) === celType(of))) return { type: of };
  return { type: undefined };
}

/** The optional syntax's lowered calls (see optional-syntax.ts): `x.?f`, `x[?k]`, and selects or indexes after them. */
const OPTIONAL_ACCESS: Record<string, 'select' | 'index'> = { '@optSelect': 'select', '@optThenSelect': 'select', '@optIndex': 'index', '@optThenIndex': 'index' };

const noOverload = (e: Ast, ctx: Context, name: string, signature: string): Result =>
  report(ctx, `found no matching overload for '${name}' applied to '${signature}'`, offsetOf(e, ctx));

/** Reports each element (key, value) of a list or map literal whose type differs from the first one's, as cel-go does. */
function mixed(items: Array<{ e: Ast; r: Result }>, ctx: Context): void {
  const first = celType(items[0]?.r.type);
  for (const { e, r } of items.slice(1)) {
    const t = celType(r.type);
    if (first && t && t !== first) report(ctx, `expected type '${first}' but found '${t}'`, ctx.positions[String(e.id)] ?? 0);
  }
}

/**
 * A call of a function of the environment resolved as cel-go's checker does: an undeclared name, or no overload
 * for the call style (on a target or not), the arity and the known argument types, is an error; the result type
 * is kept when every matching overload has the same one.
 */
function resolve(e: Ast, ctx: Context, name: string, target: Result | undefined, args: Result[]): Result {
  const overloads = declarations.get(name);
  if (!overloads) return report(ctx, `undeclared reference to '${name}' (in container '')`, offsetOf(e, ctx));
  const types = (target ? [target, ...args] : args).map((a) => celType(a.type));
  const matching = overloads.filter((o) => o.member === (target !== undefined) && o.params.length === types.length && o.params.every((p, i) => assignable(p, types[i])));
  if (!matching.length) {
    const names = types.map((t) => t ?? 'dyn');
    return noOverload(e, ctx, name, target ? `${names[0]}.(${names.slice(1).join(', ')})` : `(${names.join(', ')})`);
  }
  const results = new Set(matching.map((o) => o.result));
  return { type: results.size === 1 ? schemaOf([...results][0]!) : undefined };
}

/** The schema shared by all the items (a literal's element type), when they have one known type. */
const shared = (items: Array<{ r: Result }>): Typed => (items.length && celType(items[0]!.r.type) && items.every((x) => celType(x.r.type) === celType(items[0]!.r.type)) ? items[0]!.r.type : undefined);

/** Walks the expression with each variable's schema in scope, reporting what cel-go's checker would. */
function undefinedField(e: Ast | undefined, scope: Map<string, Typed>, ctx: Context): Result {
  if (!e) return { type: undefined };
  const k = e.exprKind;
  const none = { type: undefined };
  const walk = (xs: Array<Ast | undefined>, inner = scope): Array<{ e: Ast; r: Result }> =>
    xs.flatMap((x) => (x ? [{ e: x, r: undefinedField(x, inner, ctx) }] : []));
  switch (k.case) {
    case 'identExpr': {
      const name = k.value.name;
      if (scope.has(name) || TYPE_NAMES.has(name) || /^(?:@|__)/.test(name)) return { type: scope.get(name) };
      return report(ctx, `undeclared reference to '${name}' (in container '')`, ctx.positions[String(e.id)] ?? 0);
    }
    case 'selectExpr': {
      const r = selectField(e, undefinedField(k.value.operand, scope, ctx), k.value.field, ctx, false);
      return k.value.testOnly ? none : r;
    }
    case 'callExpr': {
      const { target, function: fn } = k.value;
      // `optional.of(x)`, `sets.contains(a, b)`: a namespaced function, not a method of a variable
      const ns = target?.exprKind.case === 'identExpr' && !scope.has(target.exprKind.value.name) ? `${target.exprKind.value.name}.${fn}` : undefined;
      const namespaced = ns !== undefined && functionNames.has(ns);
      const self = target && !namespaced ? undefinedField(target, scope, ctx) : undefined;
      const args = walk(k.value.args);
      if (namespaced) return resolve(e, ctx, ns, undefined, args.map((a) => a.r));
      if (fn === '_[_]') return { type: elementOf(args[0]?.r.type) };
      const access = OPTIONAL_ACCESS[fn];
      if (access === 'select') return selectField(e, args[0]!.r, String(constValue(args[1]?.e)), ctx, true);
      if (access === 'index') {
        const base = args[0]!.r;
        return { type: undefined, optional: { of: elementOf(base.optional ? base.optional.of : base.type) } };
      }
      if (self?.optional && declarations.has(fn)) return optionalMethod(fn, self.optional.of, args);
      const types = args.map((a) => celType(a.r.type));
      const operator = OPERATORS[fn];
      // the lowered optional syntax and the helpers of rewritten macros: not callable as written
      if (!operator && fn.startsWith('@')) return none;
      if (!operator) return resolve(e, ctx, fn, self, args.map((a) => a.r));
      if (!types.every((t): t is string => t !== undefined)) return none;
      const result = operator(types);
      if (result === undefined) return noOverload(e, ctx, fn, `(${types.join(', ')})`);
      return { type: fn === '_?_:_' ? args[1]!.r.type : schemaOf(result) };
    }
    case 'comprehensionExpr': {
      // a two-variable comprehension, which 1.32 does not compile in new expressions: checked as the call it was
      const written = twoVarCalls.get(e);
      if (written) return undefinedField(written, scope, ctx);
      const c = k.value;
      const range = undefinedField(c.iterRange, scope, ctx);
      const r = range.type;
      const rangeType = celType(r);
      if (rangeType && !/^(?:list|map)\(/.test(rangeType)) {
        report(ctx, `expression of type '${rangeType}' cannot be range of a comprehension (must be list, map, or dynamic)`, ctx.positions[String(c.iterRange?.id)] ?? 0);
      }
      // `existsOne(x, p)`: @bufbuild/cel's parser expands this later spelling of exists_one, cel-go 0.22's does not
      const at = ctx.positions[String(e.id)] ?? 0;
      const alias = /^\.\s*existsOne\s*\(\s*/.exec(ctx.source.slice(at));
      if (alias) {
        report(ctx, `undeclared reference to 'existsOne' (in container '')`, at + alias[0].indexOf('('));
        report(ctx, `undeclared reference to '${c.iterVar}' (in container '')`, at + alias[0].length);
      }
      const inner = new Map(scope);
      if (!alias) inner.set(c.iterVar, r?.type === 'array' && r.items && !Array.isArray(r.items) ? r.items : r?.type === 'object' ? { type: 'string' } : undefined);
      if (c.iterVar2) inner.set(c.iterVar2, undefined);
      inner.set(c.accuVar, undefined);
      walk([c.accuInit]);
      walk([c.loopCondition, c.loopStep, c.result], inner);
      return none;
    }
    case 'listExpr': {
      const elements = walk(k.value.elements);
      mixed(elements, ctx);
      const items = shared(elements);
      return { type: items ? { type: 'array', items } : { type: 'array' } };
    }
    case 'structExpr': {
      const entries = k.value.entries;
      const keys = walk(entries.map((x) => (x.keyKind.case === 'mapKey' ? x.keyKind.value : undefined)));
      const values = walk(entries.map((x) => x.value));
      if (k.value.messageName) return none;
      mixed(keys, ctx);
      mixed(values, ctx);
      const value = celType(shared(keys)) === 'string' ? shared(values) : undefined;
      return { type: value ? { type: 'object', additionalProperties: value } : { type: 'object' } };
    }
    case 'constExpr': {
      const c = k.value.constantKind.case;
      const type = c === 'boolValue' ? 'boolean' : c === 'stringValue' ? 'string' : c === 'int64Value' || c === 'uint64Value' ? 'integer' : c === 'doubleValue' ? 'number' : undefined;
      return { type: type ? { type } : undefined };
    }
    default: return none;
  }
}

/** A string constant's value (the field name of a lowered optional select). */
const constValue = (e: Ast | undefined): unknown => (e?.exprKind.case === 'constExpr' ? e.exprKind.value.constantKind.value : undefined);

/** What checking an expression found: the compile error cel-go reports, else the expression's type (undefined: dyn). */
export interface Checked {
  error?: string;
  /** The error is one upstream reports as internal (a program that cannot be made), not as an invalid value. */
  internal?: boolean;
  type: JSONSchemaProps | undefined;
}

/** Checks `source` with each variable typed by its schema (undefined: dyn), as cel-go's checker does. */
export function checkTyped(source: string, ast: Ast, positions: Record<string, number>, variables: ReadonlyMap<string, Typed>): Checked {
  const ctx: Context = { source, positions, errors: [] };
  const r = undefinedField(ast, new Map(variables), ctx);
  // cel-go's validators run on an expression that type-checks
  if (!ctx.errors.length) for (const arg of invalidMatchesArguments(ast)) report(ctx, 'invalid matches argument', positions[String(arg.id)] ?? 0);
  if (ctx.errors.length) {
    const errors = ctx.errors.sort((a, b) => a.offset - b.offset).map((f) => issue(source, f.offset, f.message));
    return { error: `compilation failed: ${errors.join('\n')}`, type: undefined };
  }
  return { type: r.optional ? undefined : r.type };
}

/** cel-go's name of a type the checker is certain of (int, string, list(string), map(string, int)); undefined otherwise. */
export const celTypeName = (t: Typed): string | undefined => celType(t);

/**
 * The compile error upstream reports for `source` with `self` (and `oldSelf`) typed by `self`, or undefined.
 * `want`: the type the expression must have (bool for rules, string for messageExpressions); `oldSelf`: its type
 * when not `self`'s (undefined: dyn, as for an optionalOldSelf rule's optional).
 */
export function checkExpression(source: string, ast: Ast, positions: Record<string, number>, self: JSONSchemaProps, want: 'boolean' | 'string', oldSelf: Typed = self): string | undefined {
  const r = checkTyped(source, ast, positions, new Map([['self', self], ['oldSelf', oldSelf]]));
  if (r.error) return r.error;
  const t = r.type;
  const known = t && !t['x-kubernetes-int-or-string'] && !t['x-kubernetes-preserve-unknown-fields'] ? t.type : undefined;
  if (known && known !== want) return want === 'boolean' ? 'cel expression must evaluate to a bool' : 'messageExpression must evaluate to a string';
  const regex = regexProgramError(ast);
  return regex && (want === 'boolean' ? `program instantiation failed: ${regex}` : `messageExpression instantiation failed: ${regex}`);
}
