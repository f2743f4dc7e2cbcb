// What cel-go's type checker tells a CRD author at CRD creation, over @bufbuild/cel's untyped AST: a field the
// schema does not declare ("undefined field 'x'", with cel-go's location and source pointer), an operator applied to
// scalars it has no overload for ("found no matching overload for '_>_' applied to '(int, string)'"), and a rule
// whose result is plainly not a bool (a messageExpression: not a string). Only what the schema makes certain is
// reported; anything dynamic (int-or-string, preserve-unknown-fields, formats, function results) passes, as dyn does.
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import type { Ast } from './env.js';

type Typed = JSONSchemaProps | undefined;

/** The schema of `self` at a resource root: apiVersion, kind and metadata (name, generateName) besides its own. */
export function resourceRootSchema(s: JSONSchemaProps): JSONSchemaProps {
  const meta: JSONSchemaProps = { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } };
  return { ...s, properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, ...s.properties, metadata: meta } };
}

const closed = (s: Typed): s is JSONSchemaProps =>
  Boolean(s && s.type === 'object' && s.properties && s.additionalProperties === undefined && !s['x-kubernetes-preserve-unknown-fields'] && !s['x-kubernetes-embedded-resource']);

interface Found {
  message: string;
  offset: number;
}

/** A scalar schema's CEL type; undefined for anything else (lists, maps, dyn, strings with a format CEL types). */
const celScalar = (s: Typed): string | undefined => {
  if (!s || s['x-kubernetes-int-or-string'] || s['x-kubernetes-preserve-unknown-fields'] || s.format) return undefined;
  return s.type === 'integer' ? 'int' : s.type === 'number' ? 'double' : s.type === 'string' ? 'string' : s.type === 'boolean' ? 'bool' : undefined;
};
const SCHEMA_TYPE: Record<string, string> = { int: 'integer', double: 'number', string: 'string', bool: 'boolean' };
const NUMERIC = new Set(['int', 'double']);

/**
 * cel-go's standard overloads of the operators over scalars, by the argument types: the result type, or undefined
 * when none applies. Comparisons across int and double are allowed (Kubernetes enables cross-type numeric comparison).
 */
const compare = ([a, b]: string[]): string | undefined => (a === b || (NUMERIC.has(a!) && NUMERIC.has(b!)) ? 'bool' : undefined);
const same = (allowed: string[]) => ([a, b]: string[]): string | undefined => (a === b && allowed.includes(a!) ? a : undefined);
const OPERATORS: Record<string, (types: string[]) => string | undefined> = {
  '_<_': compare, '_<=_': compare, '_>_': compare, '_>=_': compare,
  '_==_': ([a, b]) => (a === b ? 'bool' : undefined), '_!=_': ([a, b]) => (a === b ? 'bool' : undefined),
  '_+_': same(['int', 'double', 'string']), '_-_': same(['int', 'double']), '_*_': same(['int', 'double']),
  '_/_': same(['int', 'double']), '_%_': same(['int']),
  '_&&_': ([a, b]) => (a === 'bool' && b === 'bool' ? 'bool' : undefined), '_||_': ([a, b]) => (a === 'bool' && b === 'bool' ? 'bool' : undefined),
  '!_': ([a]) => (a === 'bool' ? 'bool' : undefined), '-_': ([a]) => (NUMERIC.has(a!) ? a : undefined),
};

/** The first undefined field or operator without an overload, walking with the schema of each variable in scope. */
function undefinedField(e: Ast | undefined, scope: Map<string, Typed>, positions: Record<string, number>): { type: Typed; found?: Found } {
  if (!e) return { type: undefined };
  const k = e.exprKind;
  const none = { type: undefined };
  const firstOf = (xs: Array<Ast | undefined>, inner = scope): Found | undefined => {
    for (const x of xs) {
      const r = undefinedField(x, inner, positions);
      if (r.found) return r.found;
    }
    return undefined;
  };
  switch (k.case) {
    case 'identExpr': return { type: scope.get(k.value.name) };
    case 'selectExpr': {
      const op = undefinedField(k.value.operand, scope, positions);
      if (op.found) return op;
      const s = op.type;
      if (closed(s) && !(k.value.field in s.properties!)) {
        return { type: undefined, found: { message: `undefined field '${k.value.field}'`, offset: positions[String(e.id)] ?? 0 } };
      }
      if (k.value.testOnly) return none;
      const next = s?.properties?.[k.value.field] ?? (s && typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
      return { type: next };
    }
    case 'callExpr': {
      const found = firstOf([k.value.target, ...k.value.args]);
      if (found) return { type: undefined, found };
      if (k.value.function === '_[_]') {
        const base = undefinedField(k.value.args[0], scope, positions).type;
        const elem = base?.type === 'array' && base.items && !Array.isArray(base.items) ? base.items : base && typeof base.additionalProperties === 'object' ? base.additionalProperties : undefined;
        return { type: elem };
      }
      if (k.value.function === 'size') return { type: { type: 'integer' } };
      const operator = OPERATORS[k.value.function];
      if (operator && !k.value.target) {
        const types = k.value.args.map((a) => celScalar(undefinedField(a, scope, positions).type));
        if (types.every((t): t is string => t !== undefined)) {
          const result = operator(types);
          if (result === undefined) {
            const message = `found no matching overload for '${k.value.function}' applied to '(${types.join(', ')})'`;
            return { type: undefined, found: { message, offset: positions[String(e.id)] ?? 0 } };
          }
          return { type: { type: SCHEMA_TYPE[result] } };
        }
      }
      return none;
    }
    case 'comprehensionExpr': {
      const c = k.value;
      const range = undefinedField(c.iterRange, scope, positions);
      if (range.found) return range;
      const inner = new Map(scope);
      const r = range.type;
      inner.set(c.iterVar, r?.type === 'array' && r.items && !Array.isArray(r.items) ? r.items : r?.type === 'object' ? { type: 'string' } : undefined);
      if (c.iterVar2) inner.set(c.iterVar2, undefined);
      inner.set(c.accuVar, undefined);
      const found = firstOf([c.accuInit]) ?? firstOf([c.loopCondition, c.loopStep, c.result], inner);
      return found ? { type: undefined, found } : none;
    }
    case 'listExpr': {
      const found = firstOf(k.value.elements);
      return found ? { type: undefined, found } : { type: { type: 'array' } };
    }
    case 'structExpr': {
      const found = firstOf(k.value.entries.flatMap((x) => [x.value, x.keyKind.case === 'mapKey' ? x.keyKind.value : undefined]));
      return found ? { type: undefined, found } : { type: { type: 'object' } };
    }
    case 'constExpr': {
      const c = k.value.constantKind.case;
      const type = c === 'boolValue' ? 'boolean' : c === 'stringValue' ? 'string' : c === 'int64Value' || c === 'uint64Value' ? 'integer' : c === 'doubleValue' ? 'number' : undefined;
      return { type: type ? { type } : undefined };
    }
    default: return none;
  }
}

/** cel-go's rendering of a compile issue: location, message, the source line and a caret under the column. */
function issue(source: string, f: Found): string {
  const before = source.slice(0, f.offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const column = f.offset - lineStart + 1;
  const text = source.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${column}: ${f.message}\n | ${text}\n | ${'.'.repeat(column - 1)}^`;
}

/**
 * The compile error upstream reports for `source` with `self` (and `oldSelf`) typed by `self`, or undefined.
 * `want`: the type the expression must have (bool for rules, string for messageExpressions).
 */
export function checkExpression(source: string, ast: Ast, positions: Record<string, number>, self: JSONSchemaProps, want: 'boolean' | 'string'): string | undefined {
  const scope = new Map<string, Typed>([['self', self], ['oldSelf', self]]);
  const r = undefinedField(ast, scope, positions);
  if (r.found) return `compilation failed: ${issue(source, r.found)}`;
  const t = r.type;
  const known = t && !t['x-kubernetes-int-or-string'] && !t['x-kubernetes-preserve-unknown-fields'] ? t.type : undefined;
  if (known && known !== want) return want === 'boolean' ? 'cel expression must evaluate to a bool' : 'messageExpression must evaluate to a string';
  return undefined;
}
