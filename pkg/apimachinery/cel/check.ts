// What cel-go's type checker tells a CRD author at CRD creation, over @bufbuild/cel's untyped AST: a field the
// schema does not declare ("undefined field 'x'", with cel-go's location and source pointer), an operator, a string
// method, size(), `in` or a ternary applied to types it has no overload for ("found no matching overload for '_>_'
// applied to '(int, string)'", "... for 'startsWith' applied to 'int.(string)'"), list and map literals mixing
// element types (Kubernetes enables homogeneous aggregate literals: "expected type 'int' but found 'string'"), a
// rule whose result is plainly not a bool (a messageExpression: not a string), and undeclared variables. Only what
// the schema makes certain is reported; anything dynamic (int-or-string, preserve-unknown-fields, formats, objects)
// passes, as dyn does.
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import { functionNames, type Ast } from './env.js';
import { unescapeField } from './escaping.js';
import { issue } from './issue.js';

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
const schemaOf = (name: string): JSONSchemaProps => (name === 'list(string)' ? { type: 'array', items: { type: 'string' } } : { type: SCHEMA_TYPE[name] });
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

/** The string methods of CEL and its strings extension: their argument lists and result. */
const STRING_METHODS: Record<string, { args: string[][]; result: string }> = {
  startsWith: { args: [['string']], result: 'bool' }, endsWith: { args: [['string']], result: 'bool' },
  contains: { args: [['string']], result: 'bool' }, matches: { args: [['string']], result: 'bool' },
  lowerAscii: { args: [[]], result: 'string' }, upperAscii: { args: [[]], result: 'string' }, trim: { args: [[]], result: 'string' },
  charAt: { args: [['int']], result: 'string' }, size: { args: [[]], result: 'int' },
  indexOf: { args: [['string'], ['string', 'int']], result: 'int' }, lastIndexOf: { args: [['string'], ['string', 'int']], result: 'int' },
  replace: { args: [['string', 'string'], ['string', 'string', 'int']], result: 'string' },
  substring: { args: [['int'], ['int', 'int']], result: 'string' }, split: { args: [['string'], ['string', 'int']], result: 'list(string)' },
};
const SCALARS = new Set(['int', 'double', 'string', 'bool']);

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
}
/** A subexpression's schema (undefined: dyn); `optional` when it is an optional value (`x.?f`) of that schema. */
type Result = { type: Typed; found?: Found; optional?: { of: Typed } };

/** A field of an object or value of a map, through an optional as cel-go selects (the result optional too). */
function selectField(e: Ast, op: Result, field: string, ctx: Context, optional: boolean): Result {
  const s = op.optional ? op.optional.of : op.type;
  const property = s?.properties ? unescapeField(field) : field;
  if (closed(s) && !Object.hasOwn(s.properties!, property)) {
    return { type: undefined, found: { message: `undefined field '${field}'`, offset: ctx.positions[String(e.id)] ?? 0 } };
  }
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
  ({ type: undefined, found: { message: `found no matching overload for '${name}' applied to '${signature}'`, offset: offsetOf(e, ctx) } });

/** A list or map literal's first element (key, value) whose type differs from the first one's, as cel-go reports it. */
function mixed(items: Array<{ e: Ast; r: Result }>, ctx: Context): Found | undefined {
  const first = celType(items[0]?.r.type);
  for (const { e, r } of items.slice(1)) {
    const t = celType(r.type);
    if (first && t && t !== first) return { message: `expected type '${first}' but found '${t}'`, offset: ctx.positions[String(e.id)] ?? 0 };
  }
  return undefined;
}

/** The schema shared by all the items (a literal's element type), when they have one known type. */
const shared = (items: Array<{ r: Result }>): Typed => (items.length && celType(items[0]!.r.type) && items.every((x) => celType(x.r.type) === celType(items[0]!.r.type)) ? items[0]!.r.type : undefined);

/** The first undefined field, call without an overload or mixed literal, walking with each variable's schema in scope. */
function undefinedField(e: Ast | undefined, scope: Map<string, Typed>, ctx: Context): Result {
  if (!e) return { type: undefined };
  const k = e.exprKind;
  const none = { type: undefined };
  const walk = (xs: Array<Ast | undefined>, inner = scope): Array<{ e: Ast; r: Result }> | Found => {
    const out: Array<{ e: Ast; r: Result }> = [];
    for (const x of xs) {
      if (!x) continue;
      const r = undefinedField(x, inner, ctx);
      if (r.found) return r.found;
      out.push({ e: x, r });
    }
    return out;
  };
  switch (k.case) {
    case 'identExpr': {
      const name = k.value.name;
      if (scope.has(name) || TYPE_NAMES.has(name) || /^(?:@|__)/.test(name)) return { type: scope.get(name) };
      return { type: undefined, found: { message: `undeclared reference to '${name}' (in container '')`, offset: ctx.positions[String(e.id)] ?? 0 } };
    }
    case 'selectExpr': {
      const op = undefinedField(k.value.operand, scope, ctx);
      if (op.found) return op;
      const r = selectField(e, op, k.value.field, ctx, false);
      return k.value.testOnly && !r.found ? none : r;
    }
    case 'callExpr': {
      const { target, function: fn } = k.value;
      // `optional.of(x)`, `sets.contains(a, b)`: a namespaced function, not a method of a variable
      const namespace = target?.exprKind.case === 'identExpr' && !scope.has(target.exprKind.value.name) && functionNames.has(`${target.exprKind.value.name}.${fn}`);
      const walked = walk([namespace ? undefined : target, ...k.value.args]);
      if (namespace) return none;
      if (!Array.isArray(walked)) return { type: undefined, found: walked };
      const args = target ? walked.slice(1) : walked;
      if (fn === '_[_]') return { type: elementOf(args[0]?.r.type) };
      const access = OPTIONAL_ACCESS[fn];
      if (access === 'select') return selectField(e, args[0]!.r, String(constValue(args[1]?.e)), ctx, true);
      if (access === 'index') {
        const base = args[0]!.r;
        return { type: undefined, optional: { of: elementOf(base.optional ? base.optional.of : base.type) } };
      }
      if (target && walked[0]!.r.optional) return optionalMethod(fn, walked[0]!.r.optional.of, args);
      const types = args.map((a) => celType(a.r.type));
      const known = types.every((t): t is string => t !== undefined);
      if (target) {
        const self = celType(walked[0]!.r.type);
        const method = STRING_METHODS[fn];
        if (!method || !self || !SCALARS.has(self)) return fn === 'size' ? { type: { type: 'integer' } } : none;
        if (!known) return none;
        if (self !== 'string' || !method.args.some((sig) => sig.join() === types.join())) return noOverload(e, ctx, fn, `${self}.(${types.join(', ')})`);
        return { type: schemaOf(method.result) };
      }
      if (fn === 'size') {
        if (known && types.length === 1 && SCALARS.has(types[0]!) && types[0] !== 'string') return noOverload(e, ctx, fn, `(${types[0]})`);
        return { type: { type: 'integer' } };
      }
      const operator = OPERATORS[fn];
      if (!operator || !known) return none;
      const result = operator(types);
      if (result === undefined) return noOverload(e, ctx, fn, `(${types.join(', ')})`);
      return { type: fn === '_?_:_' ? args[1]!.r.type : schemaOf(result) };
    }
    case 'comprehensionExpr': {
      const c = k.value;
      const range = undefinedField(c.iterRange, scope, ctx);
      if (range.found) return range;
      const inner = new Map(scope);
      const r = range.type;
      inner.set(c.iterVar, r?.type === 'array' && r.items && !Array.isArray(r.items) ? r.items : r?.type === 'object' ? { type: 'string' } : undefined);
      if (c.iterVar2) inner.set(c.iterVar2, undefined);
      inner.set(c.accuVar, undefined);
      const init = walk([c.accuInit]);
      const rest = Array.isArray(init) ? walk([c.loopCondition, c.loopStep, c.result], inner) : init;
      return Array.isArray(rest) ? none : { type: undefined, found: rest };
    }
    case 'listExpr': {
      const elements = walk(k.value.elements);
      if (!Array.isArray(elements)) return { type: undefined, found: elements };
      const found = mixed(elements, ctx);
      if (found) return { type: undefined, found };
      const items = shared(elements);
      return { type: items ? { type: 'array', items } : { type: 'array' } };
    }
    case 'structExpr': {
      const entries = k.value.entries;
      const keys = walk(entries.map((x) => (x.keyKind.case === 'mapKey' ? x.keyKind.value : undefined)));
      if (!Array.isArray(keys)) return { type: undefined, found: keys };
      const values = walk(entries.map((x) => x.value));
      if (!Array.isArray(values)) return { type: undefined, found: values };
      if (k.value.messageName) return none;
      const found = mixed(keys, ctx) ?? mixed(values, ctx);
      if (found) return { type: undefined, found };
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
  type: JSONSchemaProps | undefined;
}

/** Checks `source` with each variable typed by its schema (undefined: dyn), as cel-go's checker does. */
export function checkTyped(source: string, ast: Ast, positions: Record<string, number>, variables: ReadonlyMap<string, Typed>): Checked {
  const r = undefinedField(ast, new Map(variables), { source, positions });
  if (r.found) return { error: `compilation failed: ${issue(source, r.found.offset, r.found.message)}`, type: undefined };
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
  return undefined;
}
