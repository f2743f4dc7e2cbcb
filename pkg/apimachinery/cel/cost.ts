// The static cost of a CEL expression (upstream: cel-go's checker cost estimator with the apiserver's size
// estimates and library costs, apiserver/pkg/cel/library/cost.go). @bufbuild/cel reports no cost, so this walks the
// parsed AST: a variable's size comes from its schema (maxLength, maxItems, maxProperties), or, where the schema
// sets no bound, from the largest value that fits in a request (3 MiB), as upstream estimates unbounded sizes.
// Comprehensions cost their body once per element of the range. Only the upper bound is kept. Also the limits and
// the root schema of CRD rules: what needs no CEL runtime (index.ts serves it without loading one).
import type { parse } from '@bufbuild/cel';
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import { unescapeField } from './escaping.js';

type Expr = ReturnType<typeof parse>['expr'];

/** Upstream's celconfig: per-expression and per-CRD static limits, per-call and per-request runtime limits. */
/** cel-go's words when an evaluation passes its cost limit; the evaluation stops there. */
export const COST_LIMIT_EXCEEDED = 'operation cancelled: actual cost limit exceeded';
export const PER_CALL_LIMIT = 1_000_000;
export const STATIC_COST_LIMIT = 10_000_000;
export const STATIC_CRD_COST_LIMIT = 100_000_000;
export const RUNTIME_COST_BUDGET = 10_000_000;

const MAX_REQUEST_BYTES = 3 * 1024 * 1024;
const TRAVERSAL = 0.1;
const REGEX_FACTOR = 0.25;

/** The smallest serialized size of a value of the schema (upstream: estimateMinSizeJSON). */
function minSize(s: JSONSchemaProps | undefined): number {
  if (!s) return 1;
  if (s['x-kubernetes-int-or-string']) return 1;
  switch (s.type) {
    case 'string': return 2 + (s.minLength ?? 0);
    case 'array':
    case 'object': return 2;
    default: return 1;
  }
}

const itemsOf = (s: JSONSchemaProps | undefined): JSONSchemaProps | undefined => (s && !Array.isArray(s.items) ? s.items : undefined);
const valuesOf = (s: JSONSchemaProps | undefined): JSONSchemaProps | undefined => (s && typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);

/** How many elements (characters, items, entries) a value of the schema can have at most. */
export function maxElements(s: JSONSchemaProps | undefined): number {
  if (!s) return MAX_REQUEST_BYTES;
  if (s.type === 'string' || s['x-kubernetes-int-or-string']) {
    if (s.maxLength !== undefined) return s.maxLength;
    if (s.format === 'date-time' || s.format === 'datetime') return 64;
    if (s.format === 'date') return 10;
    if (s.format === 'duration') return 64;
    return MAX_REQUEST_BYTES - 2;
  }
  if (s.type === 'array') return s.maxItems ?? Math.floor((MAX_REQUEST_BYTES - 2) / (minSize(itemsOf(s)) + 1));
  if (s.type === 'object' && valuesOf(s)) return s.maxProperties ?? Math.floor((MAX_REQUEST_BYTES - 2) / (minSize(valuesOf(s)) + 4));
  if (s.type === 'object') return Object.keys(s.properties ?? {}).length || 1;
  return 1;
}

interface Sized {
  cost: number;
  /** Upper bound of the value's size (characters, items, entries); 1 for scalars. */
  size: number;
  schema?: JSONSchemaProps;
}

const NUMERIC_OPS = new Set(['_+_', '_-_', '_*_', '_/_', '_%_', '-_', '!_', '_<_', '_<=_', '_>_', '_>=_', '_==_', '_!=_']);
// Library functions whose cost grows with the size of their target or first argument.
const LINEAR = new Set(['contains', 'startsWith', 'endsWith', 'lowerAscii', 'upperAscii', 'trim', 'replace', 'split', 'substring', 'charAt',
  'indexOf', 'lastIndexOf', 'join', 'quote', 'reverse', 'url', 'isURL', 'ip', 'isIP', 'cidr', 'isCIDR', 'quantity', 'isQuantity',
  'isSorted', 'sum', 'min', 'max', 'validate', 'sets.contains', 'sets.intersects', 'sets.equivalent', 'format', 'string', 'bytes']);

/** The estimated cost of `expr` with `self` (and `oldSelf`) typed by `schema`. */
export function estimateCost(expr: Expr, schema: JSONSchemaProps | undefined): number {
  const vars = new Map<string, Sized>([
    ['self', { cost: 0, size: maxElements(schema), schema }],
    ['oldSelf', { cost: 0, size: maxElements(schema), schema }],
  ]);
  return Math.ceil(walk(expr, vars).cost);
}

function walk(e: Expr | undefined, vars: Map<string, Sized>): Sized {
  if (!e) return { cost: 0, size: 1 };
  const k = e.exprKind;
  switch (k.case) {
    case 'constExpr': {
      const c = k.value.constantKind;
      return { cost: 0, size: c.case === 'stringValue' ? c.value.length : c.case === 'bytesValue' ? c.value.length : 1 };
    }
    case 'identExpr': {
      const v = vars.get(k.value.name);
      return { cost: 1, size: v?.size ?? MAX_REQUEST_BYTES, schema: v?.schema };
    }
    case 'selectExpr': {
      const op = walk(k.value.operand, vars);
      const prop = op.schema?.properties?.[unescapeField(k.value.field)] ?? valuesOf(op.schema);
      // has() costs nothing beyond its operand (upstream: PresenceTestHasCost(false)).
      if (k.value.testOnly) return { cost: op.cost, size: 1 };
      return { cost: op.cost + 1, size: prop ? maxElements(prop) : op.size, schema: prop };
    }
    case 'listExpr': {
      const parts = k.value.elements.map((x) => walk(x, vars));
      return { cost: 10 + parts.reduce((a, p) => a + p.cost, 0), size: parts.length };
    }
    case 'structExpr': {
      const parts = k.value.entries.map((x) => walk(x.value, vars).cost + (x.keyKind.case === 'mapKey' ? walk(x.keyKind.value, vars).cost : 0));
      return { cost: 30 + parts.reduce((a, p) => a + p, 0), size: parts.length };
    }
    case 'comprehensionExpr': {
      const c = k.value;
      const range = walk(c.iterRange, vars);
      const inner = new Map(vars);
      const elem = range.schema?.type === 'array' ? itemsOf(range.schema) : range.schema?.type === 'object' ? { type: 'string' } : undefined;
      inner.set(c.iterVar, { cost: 0, size: elem ? maxElements(elem) : range.size, schema: elem });
      if (c.iterVar2) inner.set(c.iterVar2, { cost: 0, size: MAX_REQUEST_BYTES, schema: itemsOf(range.schema) ?? valuesOf(range.schema) });
      const init = walk(c.accuInit, vars);
      inner.set(c.accuVar, { cost: 0, size: range.size, schema: undefined });
      const body = walk(c.loopCondition, inner).cost + walk(c.loopStep, inner).cost;
      const result = walk(c.result, inner);
      return { cost: range.cost + init.cost + range.size * body + result.cost, size: range.size };
    }
    case 'callExpr':
      return call(k.value.function, k.value.target ? walk(k.value.target, vars) : undefined, k.value.args.map((a) => walk(a, vars)));
    default:
      return { cost: 0, size: 1 };
  }
}

function call(fn: string, target: Sized | undefined, args: Sized[]): Sized {
  const base = (target?.cost ?? 0) + args.reduce((a, x) => a + x.cost, 0);
  const subject = target ?? args[0];
  const size = subject?.size ?? 1;
  if (fn === '_&&_' || fn === '_||_' || fn === '_?_:_') return { cost: base, size: Math.max(...args.map((a) => a.size), 1) };
  if (fn === 'matches' || fn === 'find' || fn === 'findAll') {
    const pattern = (target ? args[0] : args[1])?.size ?? 1;
    return { cost: base + 1 + Math.ceil(size * pattern * REGEX_FACTOR), size: fn === 'findAll' ? size : size };
  }
  if (fn === '_+_' && (size > 1 || (args[1]?.size ?? 1) > 1)) {
    const total = args.reduce((a, x) => a + x.size, 0);
    return { cost: base + 1 + Math.ceil(total * TRAVERSAL), size: total };
  }
  if (fn === '@in') return { cost: base + 1 + (args[1]?.size ?? 1), size: 1 };
  if (fn === '_==_' || fn === '_!=_' || fn === '_<_' || fn === '_<=_' || fn === '_>_' || fn === '_>=_') {
    return { cost: base + 1 + Math.ceil(Math.min(...args.map((a) => a.size)) * TRAVERSAL), size: 1 };
  }
  if (NUMERIC_OPS.has(fn) || fn === 'size' || fn === '_[_]' || fn === 'has') {
    const elem = fn === '_[_]' ? itemsOf(args[0]?.schema) ?? valuesOf(args[0]?.schema) ?? args[0]?.schema?.properties?.[''] : undefined;
    return { cost: base + 1, size: elem ? maxElements(elem) : 1, schema: elem };
  }
  if (LINEAR.has(fn)) return { cost: base + 1 + Math.ceil(size * TRAVERSAL), size };
  return { cost: base + 1, size };
}

/** Upstream's words when an estimate passes its limit; undefined while within it. */
export function costExceededMessage(costName: string, cost: number, limit: number): string | undefined {
  if (cost <= limit) return undefined;
  const f = cost / limit;
  const factor = f > 100 ? 'more than 100x' : f < 1.5 ? `${f.toFixed(6)}x` : `${f.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** The schema of `self` at a resource root: apiVersion, kind and metadata (name, generateName) besides its own. */
export function resourceRootSchema(s: JSONSchemaProps): JSONSchemaProps {
  const meta: JSONSchemaProps = { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } };
  return { ...s, properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, ...s.properties, metadata: meta } };
}
