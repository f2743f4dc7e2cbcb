// The static cost of a CEL expression (upstream: cel-go's checker cost estimator with the apiserver's size
// estimates and library costs, apiserver/pkg/cel/library/cost.go). @bufbuild/cel reports no cost, so this walks the
// parsed AST: a variable's size comes from its schema (maxLength, maxItems, maxProperties), or, where the schema
// sets no bound, from the largest value that fits in a request (3 MiB), as upstream estimates unbounded sizes; a
// value it cannot size at all is as large as cel-go's math.MaxUint64. Comprehensions cost their body once per
// element of the range. Only the upper bound is kept. Also the limits and
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
/** cel-go's math.MaxUint64: the size of what it cannot bound; costs saturate there too. */
const UNBOUNDED = 2 ** 64 - 1;
const TRAVERSAL = 0.1;
const REGEX_FACTOR = 0.25;
/** Kubernetes' largest named-format pattern, what validate() is charged for (upstream: MaxNameFormatRegexSize). */
const MAX_NAME_FORMAT_REGEX_SIZE = 128;

const itemsOf = (s: JSONSchemaProps | undefined): JSONSchemaProps | undefined => (s && !Array.isArray(s.items) ? s.items : undefined);
const valuesOf = (s: JSONSchemaProps | undefined): JSONSchemaProps | undefined => (s && typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);

/** cel-go's saturating product of a cost and how many times it is paid (upstream: multiplyWithOverflowGuard). */
export const multiplyCost = (cost: number, times: number): number => (cost === 0 ? 0 : Math.min(UNBOUNDED, cost * times));

/**
 * How many times a child (item, value, field) of `parent` can occur per object when `parent` occurs `cardinality`
 * times (upstream: CELSchemaContext.MaxCardinality of its childContext): times a list's maxItems, a map's
 * maxProperties (any additionalProperties makes an object a map), 1 for an object's fields. Undefined is unbounded:
 * below a list or map without its bound no product is kept at all.
 */
export function childCardinality(cardinality: number | undefined, parent: JSONSchemaProps): number | undefined {
  if (cardinality === undefined) return undefined;
  let bound: number | undefined = 1;
  if (parent.type === 'array') bound = parent.maxItems;
  else if (parent.type === 'object' && parent.additionalProperties !== undefined) bound = parent.maxProperties;
  return bound === undefined ? undefined : multiplyCost(cardinality, Math.max(0, bound));
}

/**
 * How many values of the schema fit in a request at most, one comma between each (upstream: maxCardinality of
 * DeclType.MinSerializedSize): what a rule's cost is multiplied by where its cardinality is unbounded.
 */
export const unboundedCardinality = (s: JSONSchemaProps): number => Math.floor(MAX_REQUEST_BYTES / (minSerializedSize(s) + 1));

/** Whether the schema has a CEL type (upstream: SchemaDeclType is not nil); a field without one is not in CEL. */
function hasCelType(s: JSONSchemaProps | undefined): boolean {
  if (!s) return false;
  if (s['x-kubernetes-int-or-string']) return true;
  switch (s.type) {
    case 'array': return hasCelType(itemsOf(s));
    case 'object': return !valuesOf(s) || hasCelType(valuesOf(s));
    case 'string': case 'boolean': case 'number': case 'integer': return true;
    default: return false;
  }
}

/** The smallest serialized size of a value of the schema's CEL type (upstream: DeclType.MinSerializedSize). */
function minSerializedSize(s: JSONSchemaProps | undefined): number {
  if (!s || s['x-kubernetes-int-or-string']) return 1;
  switch (s.type) {
    case 'string': return s.format === 'duration' ? 3 : s.format === 'date' ? 12 : s.format === 'date-time' ? 21 : 2;
    case 'boolean': return 4;
    case 'array': return 2;
    case 'object': {
      if (valuesOf(s)) return 2;
      const required = new Set(s.required ?? []);
      let size = 2;
      for (const [name, p] of Object.entries(s.properties ?? {})) {
        if (required.has(name) && p.default === undefined && hasCelType(p)) size += Buffer.byteLength(name) + minSerializedSize(p) + 4;
      }
      return size;
    }
    default: return 1;
  }
}

/**
 * The most characters, bytes, items or entries of a value of the schema, as upstream sizes a field from its CEL type's
 * MaxElements (apiserver/pkg/cel/common/schemas.go): a maxLength counts 4 bytes a character, scalars and objects 0.
 */
function declaredSize(s: JSONSchemaProps | undefined): number {
  if (!s) return UNBOUNDED;
  if (s['x-kubernetes-int-or-string']) return MAX_REQUEST_BYTES - 2;
  switch (s.type) {
    case 'string': {
      if (s.format === 'byte') return s.maxLength ?? MAX_REQUEST_BYTES - 2;
      if (s.format === 'date') return 12;
      if (s.format === 'date-time' || s.format === 'duration') return 32;
      if (s.maxLength !== undefined) return Math.max(0, s.maxLength) * 4;
      const longest = Math.max(0, ...(s.enum ?? []).map((v) => (typeof v === 'string' ? Buffer.byteLength(v) : 0)));
      return s.enum?.length ? longest : MAX_REQUEST_BYTES - 2;
    }
    case 'array':
      if (!itemsOf(s)) return UNBOUNDED;
      return s.maxItems ?? Math.floor((MAX_REQUEST_BYTES - 2) / (minSerializedSize(itemsOf(s)) + 1));
    case 'object':
      if (!valuesOf(s)) return 0;
      return s.maxProperties ?? Math.floor((MAX_REQUEST_BYTES - 2) / (minSerializedSize(valuesOf(s)) + 6));
    case 'integer': case 'number': case 'boolean': return 0;
    default: return UNBOUNDED;
  }
}

/** What the estimate knows of a value's type: strings and bytes are charged by size, lists and maps differ per function. */
type Kind = 'string' | 'bytes' | 'list' | 'map' | 'scalar';

function kindOf(s: JSONSchemaProps | undefined): Kind | undefined {
  if (!s || s['x-kubernetes-int-or-string']) return undefined;
  switch (s.type) {
    case 'string': return s.format === 'byte' ? 'bytes' : ['date', 'date-time', 'duration'].includes(s.format ?? '') ? 'scalar' : 'string';
    case 'array': return 'list';
    case 'object': return valuesOf(s) ? 'map' : undefined;
    case 'integer': case 'number': case 'boolean': return 'scalar';
    default: return undefined;
  }
}

interface Sized {
  cost: number;
  /** Upper bound of the value's size (characters, bytes, items, entries). */
  size: number;
  /** The value's schema when it is a field of the object (its path in upstream's estimator). */
  schema?: JSONSchemaProps;
  /** Undefined: dyn, which cel-go charges as the dearest of the overloads that could apply. */
  kind?: Kind;
  /** An integer literal's value (split's limit). */
  literal?: number;
  /** A call's or literal's value: no field, so upstream's estimator sizes what is selected from it as the root. */
  pathless?: boolean;
}

const field = (schema: JSONSchemaProps | undefined, cost: number): Sized => ({ cost, size: declaredSize(schema), schema, kind: kindOf(schema) });
/** cel-go's cost of traversing `size` units at `factor` a unit, rounded up and saturating. */
const traverse = (size: number, factor = TRAVERSAL): number => Math.min(UNBOUNDED, Math.ceil(size * factor));
const sized = (k: Kind | undefined): boolean => k === undefined || k === 'string' || k === 'bytes';

/** The estimated cost of `expr` with `self` (and `oldSelf`) typed by `schema`. */
export function estimateCost(expr: Expr, schema: JSONSchemaProps | undefined): number {
  const self = field(schema, 0);
  const vars = new Map<string, Sized>([['self', self], ['oldSelf', self]]);
  return Math.min(UNBOUNDED, Math.ceil(walk(expr, vars).cost));
}

function walk(e: Expr | undefined, vars: Map<string, Sized>): Sized {
  if (!e) return { cost: 0, size: 1 };
  const k = e.exprKind;
  switch (k.case) {
    case 'constExpr': {
      const c = k.value.constantKind;
      if (c.case === 'stringValue') return { cost: 0, size: [...c.value].length, kind: 'string' };
      if (c.case === 'bytesValue') return { cost: 0, size: c.value.length, kind: 'bytes' };
      return { cost: 0, size: 1, kind: 'scalar', literal: c.case === 'int64Value' ? Number(c.value) : undefined };
    }
    case 'identExpr': {
      // any other name (an accumulator) has a path of its own, which upstream's estimator sizes as the root
      const v = vars.get(k.value.name) ?? vars.get('self')!;
      return { ...v, cost: 1 };
    }
    case 'selectExpr': {
      const op = walk(k.value.operand, vars);
      // has() costs nothing beyond its operand (upstream: PresenceTestHasCost(false)).
      if (k.value.testOnly) return { cost: op.cost, size: 1, kind: 'scalar' };
      if (op.pathless) return { ...vars.get('self')!, cost: op.cost + 1 };
      const prop = op.schema?.properties?.[unescapeField(k.value.field)] ?? valuesOf(op.schema);
      // selecting from a map or an object costs 1; from a dyn value nothing
      return field(prop, op.cost + (op.schema?.type === 'object' ? 1 : 0));
    }
    case 'listExpr': {
      const parts = k.value.elements.map((x) => walk(x, vars));
      return { cost: 10 + parts.reduce((a, p) => a + p.cost, 0), size: parts.length, kind: 'list', pathless: true };
    }
    case 'structExpr': {
      const parts = k.value.entries.map((x) => walk(x.value, vars).cost + (x.keyKind.case === 'mapKey' ? walk(x.keyKind.value, vars).cost : 0));
      return { cost: (k.value.messageName ? 40 : 30) + parts.reduce((a, p) => a + p, 0), size: parts.length, kind: k.value.messageName ? undefined : 'map', pathless: true };
    }
    case 'comprehensionExpr': {
      const c = k.value;
      const range = walk(c.iterRange, vars);
      const inner = new Map(vars);
      // a list's items and a map's keys (Kubernetes sizes keys by their type: strings of no declared size); the
      // items of a range that is no field have a path upstream's estimator sizes as the root
      const keys: Sized = { cost: 0, size: 0, schema: { type: 'string' }, kind: 'string' };
      const items = range.schema?.type === 'array' ? field(itemsOf(range.schema), 0) : range.schema?.type === 'object' ? keys : vars.get('self')!;
      inner.set(c.iterVar, items);
      if (c.iterVar2) inner.set(c.iterVar2, range.schema ? field(itemsOf(range.schema) ?? valuesOf(range.schema), 0) : vars.get('self')!);
      const init = walk(c.accuInit, vars);
      const body = walk(c.loopCondition, inner).cost + walk(c.loopStep, inner).cost;
      const result = walk(c.result, inner);
      return { cost: range.cost + init.cost + range.size * body + result.cost, size: range.size, kind: 'list', pathless: true };
    }
    case 'callExpr': {
      const { target, function: fn } = k.value;
      const args = k.value.args.map((a) => walk(a, vars));
      // sets.contains(a, b), ip.isCanonical(s): a namespace, not a variable, before the function's name
      if (target?.exprKind.case === 'identExpr' && !vars.has(target.exprKind.value.name)) return call(`${target.exprKind.value.name}.${fn}`, undefined, args);
      return call(fn, target ? walk(target, vars) : undefined, args);
    }
    default:
      return { cost: 0, size: 1 };
  }
}

/** A call's own cost (its target's and arguments' come on top) and what it returns (upstream: cel-go's checker/cost.go functionCost and Kubernetes' library/cost.go). */
function call(fn: string, target: Sized | undefined, args: Sized[]): Sized {
  const base = (target?.cost ?? 0) + args.reduce((a, x) => a + x.cost, 0);
  const [a, b] = args;
  const t = target?.size ?? 0;
  const own = (cost: number, result: Partial<Sized> = {}): Sized => ({ size: 1, pathless: true, ...result, cost: base + cost });
  switch (fn) {
    case '_&&_': case '_||_': return own(0, { kind: 'scalar' });
    case '_?_:_': return { cost: a!.cost + Math.max(b!.cost, args[2]!.cost), size: Math.max(b!.size, args[2]!.size), kind: b!.kind === args[2]!.kind ? b!.kind : undefined, pathless: true };
    case '_+_': {
      const size = a!.size + b!.size;
      const kind = a!.kind ?? b!.kind;
      if (kind === 'list') return own(1, { size, kind });
      return sized(a!.kind) && sized(b!.kind) ? own(traverse(size), { size, kind }) : own(1, { kind });
    }
    case '@in': return own(b!.kind === 'map' ? 1 : b!.size, { kind: 'scalar' });
    case '_==_': case '_!=_': return own(traverse(Math.min(a!.size, b!.size)), { kind: 'scalar' });
    case '_<_': case '_<=_': case '_>_': case '_>=_':
      return own(sized(a!.kind) && sized(b!.kind) ? traverse(Math.min(a!.size, b!.size)) : 1, { kind: 'scalar' });
    case 'matches': case 'find': case 'findAll': {
      // the global matches(s, re) is charged as any constant-time call
      if (!target) return own(1, { kind: 'scalar' });
      const cost = traverse(t + 1) * traverse(a!.size, REGEX_FACTOR);
      return own(cost, fn === 'matches' ? { kind: 'scalar' } : { size: t, kind: fn === 'find' ? 'string' : 'list' });
    }
    case 'contains': return own(target ? traverse(t) * traverse(a!.size) : 1, { kind: 'scalar' });
    case 'startsWith': case 'endsWith': return own(traverse(a!.size), { kind: 'scalar' });
    // cel-go gives the results of format() and string(x) no size (math.MaxUint64 once concatenated); they are kept
    // small here, so that a messageExpression such as 'got ' + string(self.n) is not refused on that reading alone
    case 'format': return own(target ? traverse(t) : 1, { kind: 'string' });
    case 'strings.quote': return own(traverse(a!.size), { size: a!.size * 2 + 2, kind: 'string' });
    case 'bytes': return a!.kind === 'string' || a!.kind === undefined ? own(traverse(a!.size), { size: a!.size * 4, kind: 'bytes' }) : own(1, { kind: 'bytes' });
    case 'string': return a!.kind === 'bytes' || a!.kind === undefined ? own(traverse(a!.size), { size: a!.size, kind: 'string' }) : own(1, { kind: 'string' });
    case 'isSorted': case 'sum': case 'max': case 'min': case 'indexOf': case 'lastIndexOf': {
      if (target?.kind !== 'list') return own(traverse(t));
      const elem = itemsOf(target.schema);
      const perElement = 1 + (sized(kindOf(elem)) && elem ? traverse(declaredSize(elem)) : 0);
      return own(Math.min(UNBOUNDED, t * perElement));
    }
    case 'url': return own(traverse(a!.size), { size: a!.size });
    case 'lowerAscii': case 'upperAscii': case 'substring': case 'trim': return own(traverse(t), { size: t, kind: 'string' });
    case 'replace': return own(traverse(t, 2 * TRAVERSAL), { size: t, kind: 'string' });
    case 'split': {
      return own(traverse(t, 2 * TRAVERSAL), { size: args[1]?.literal ?? t, kind: 'list' });
    }
    case 'join': {
      const elem = itemsOf(target?.schema);
      let size = elem ? t * declaredSize(elem) : 0;
      if (a) size += a.size * Math.max(0, t - 1);
      return own(traverse(size), { size, kind: 'string' });
    }
    case 'cidr': case 'isIP': case 'isCIDR': case 'quantity': case 'isQuantity': return own(traverse(a!.size));
    case 'ip': return own(a ? traverse(a.size) : 1);
    case 'ip.isCanonical': return own(traverse(a!.size, 2 * TRAVERSAL));
    // comparing two addresses of at most 16 bytes each, after parsing a string argument
    case 'containsIP': return own(4 + (a!.kind === 'string' || a!.kind === undefined ? traverse(a!.size) : 0));
    case 'containsCIDR': return own(7 + (a!.kind === 'string' || a!.kind === undefined ? traverse(a!.size) : 0));
    case 'validate': return own(traverse(traverse(a!.size), MAX_NAME_FORMAT_REGEX_SIZE * REGEX_FACTOR));
    case 'check': return own(350_000);
    case 'fieldSelector': case 'labelSelector': return own(10 + traverse(a!.size) + traverse(traverse(a!.size, 0.5), 50));
    case 'sets.contains': case 'sets.intersects': return own(1 + traverse(a!.size * b!.size, 1));
    case 'sets.equivalent': return own(1 + traverse(a!.size * b!.size, 2));
    case '_[_]': {
      const elem = itemsOf(a?.schema) ?? valuesOf(a?.schema);
      return elem ? field(elem, base + 1) : own(1);
    }
    default: return own(1);
  }
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
