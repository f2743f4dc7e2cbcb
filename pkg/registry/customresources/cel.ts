// x-kubernetes-validations: CEL rules evaluated with `self` (and `oldSelf` for transition rules, an optional for
// optionalOldSelf ones, and in messageExpressions) at every schema node that declares them (upstream: apiextensions-apiserver
// pkg/apiserver/schema/cel). Values are handed to @bufbuild/cel typed by the schema: objects as maps, integers as int (BigInt), numbers as double.
import type { CelInput } from '@bufbuild/cel';
import type { JSONSchemaProps, ValidationRule } from '../../../api/apiextensions/v1/index.js';
import { checkExpression, compile, optionalNone, optionalOf, COST_LIMIT_EXCEEDED, costExceededMessage, estimateCost, evaluate, PER_CALL_LIMIT, multiplyCost, reads, resourceRootSchema, RUNTIME_COST_BUDGET, STATIC_COST_LIMIT, STATIC_CRD_COST_LIMIT, unboundedCardinality, unescapeField, type Program, isCelError } from '../../apimachinery/cel/index.js';
import { fieldCause, type StatusCause } from '../../apimachinery/errors.js';
import { forbidden } from '../../apimachinery/field.js';
import { isPlainObject } from '../schema/index.js';
import { mapList, ratchetIndex, ratchetKey, ratchets, type Correlation, type RatchetPosition } from './ratcheting.js';
import { childPath, itemSchema, propertySchema } from './schema.js';

interface CompiledRule {
  rule: ValidationRule;
  program: Program;
  message?: Program;
  /** The rule reads oldSelf: it runs on updates only, unless optionalOldSelf (then oldSelf is an optional). */
  transition: boolean;
  optionalOldSelf: boolean;
}

export interface RuleCompilation {
  error?: string;
  messageError?: string;
  usesOldSelf: boolean;
  /** Estimated cost of one evaluation times how often the rule can run per object (upstream: getExpressionCost). */
  cost: number;
  /** Estimated cost of one evaluation of the messageExpression: upstream charges no cardinality there. */
  messageCost: number;
}

/**
 * Compiles, checks against the schema and costs the rules of one node that can run `cardinality` times per object;
 * an unbounded (undefined) cardinality is as many of the node's smallest values as fit in a request.
 */
export function compileRuleSet(s: JSONSchemaProps, cardinality: number | undefined, resourceRoot: boolean): RuleCompilation[] {
  const self = resourceRoot ? resourceRootSchema(s) : s;
  const times = cardinality ?? unboundedCardinality(self);
  return (s['x-kubernetes-validations'] ?? []).map((r) => {
    const out: RuleCompilation = { usesOldSelf: false, cost: 0, messageCost: 0 };
    // upstream's optionalOldSelf environment: oldSelf is an optional of self's type (dyn to our checker)
    const oldSelf = r.optionalOldSelf ? undefined : self;
    try {
      const c = compile(r.rule);
      out.usesOldSelf = reads(c.ast, 'oldSelf');
      out.cost = multiplyCost(estimateCost(c.ast, self), times);
      out.error = checkExpression(r.rule, c.ast, c.positions, self, 'boolean', oldSelf);
    } catch (err) {
      out.error = `compilation failed: ${(err as Error).message}`;
    }
    if (r.messageExpression) {
      try {
        // the message's environment is the rule's: self, and oldSelf as the rule has it
        const m = compile(r.messageExpression);
        out.messageCost = estimateCost(m.ast, self);
        const err = checkExpression(r.messageExpression, m.ast, m.positions, self, 'string', oldSelf);
        if (err) out.messageError = err.startsWith('compilation failed: ') ? `messageExpression ${err}` : err;
      } catch (err) {
        out.messageError = `messageExpression compilation failed: ${(err as Error).message}`;
      }
    }
    return out;
  });
}

/** The rules' costs across a whole CRD schema (upstream: TotalCost with its four most expensive rules of at least 1%
 * of the CRD limit each: cheaper ones count in the total but are not blamed for it). */
export interface CostObserver {
  observe(path: string, cost: number): void;
  readonly total: number;
  readonly mostExpensive: Array<{ path: string; cost: number }>;
}

export function costTotal(): CostObserver {
  let total = 0;
  const top: Array<{ path: string; cost: number }> = [];
  return {
    observe(path, cost) {
      total += cost;
      if (cost < STATIC_CRD_COST_LIMIT / 100) return;
      top.push({ path, cost });
      top.sort((a, b) => b.cost - a.cost);
      if (top.length > 4) top.pop();
    },
    get total() { return total; },
    get mostExpensive() { return top; },
  };
}

/** The per-expression limit's message when `cost` passes it. */
export const costExceeded = (cost: number, name = 'estimated rule cost'): string | undefined => costExceededMessage(name, cost, STATIC_COST_LIMIT);

/** The per-CRD limit: each of the most expensive rules blamed, then the schema as a whole. */
export function crdCostExceeded(cost: CostObserver, schemaPath: string): StatusCause[] {
  const msg = costExceededMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', cost.total, STATIC_CRD_COST_LIMIT);
  if (!msg) return [];
  return [
    ...cost.mostExpensive.map((e) => forbidden(e.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema')),
    forbidden(schemaPath, msg),
  ];
}

const compiledRules = new WeakMap<JSONSchemaProps, CompiledRule[]>();

function rulesOf(s: JSONSchemaProps): CompiledRule[] {
  let rules = compiledRules.get(s);
  if (!rules) {
    rules = (s['x-kubernetes-validations'] ?? []).map((rule) => ({
      rule,
      program: compile(rule.rule).program,
      message: rule.messageExpression ? compile(rule.messageExpression).program : undefined,
      transition: reads(compile(rule.rule).ast, 'oldSelf'),
      optionalOldSelf: rule.optionalOldSelf === true,
    }));
    compiledRules.set(s, rules);
  }
  return rules;
}

/** Whether any node declares rules (objects of kinds without rules skip the walk, and so do subtrees). */
export function hasRules(s: JSONSchemaProps | undefined): boolean {
  return !!s && (Boolean(s['x-kubernetes-validations']?.length) || rulesBelow(s));
}

/** Whether a node below `s` declares rules (a node with rules of its own over plain fields walks no further). */
function rulesBelow(s: JSONSchemaProps): boolean {
  let known = withRulesBelow.get(s);
  if (known === undefined) {
    known = Object.values(s.properties ?? {}).some(hasRules) ||
      (typeof s.additionalProperties === 'object' && hasRules(s.additionalProperties)) || hasRules(itemSchema(s));
    withRulesBelow.set(s, known);
  }
  return known;
}

/** Schemas are not changed once a CRD version is served: each node is asked once. */
const withRulesBelow = new WeakMap<JSONSchemaProps, boolean>();

/**
 * A JSON object as a CEL map, its values converted on first read: a rule reads a few fields of an object it
 * is given whole (`self` of a 50-field spec), so converting all of them up front was most of a rule's cost.
 * @bufbuild/cel takes any Map and reads it through get/has/keys/entries/values/forEach/size.
 */
class LazyObjectMap extends Map<string, CelInput> {
  private converted?: Map<string, CelInput>;

  constructor(private readonly obj: Record<string, unknown>, private readonly schema: JSONSchemaProps | undefined) {
    super();
  }

  /** The property a field read stands for: an object's properties are read by their escaped names (`__dash__`). */
  private property(key: string): string {
    return this.schema?.properties && key.includes('__') ? unescapeField(key) : key;
  }

  override get size(): number {
    let n = 0;
    for (const k in this.obj) if (this.obj[k] !== undefined) n++;
    return n;
  }

  override has(key: string): boolean {
    return typeof key === 'string' && this.present(this.property(key));
  }

  private present(key: string): boolean {
    return Object.hasOwn(this.obj, key) && this.obj[key] !== undefined;
  }

  override get(key: string): CelInput | undefined {
    if (typeof key !== 'string') return undefined;
    key = this.property(key);
    if (!this.present(key)) return undefined;
    let v = this.converted?.get(key);
    if (v === undefined) (this.converted ??= new Map()).set(key, v = toCel(this.obj[key], propertySchema(this.schema, key)));
    return v;
  }

  override *keys(): MapIterator<string> {
    for (const k in this.obj) if (this.obj[k] !== undefined) yield k;
  }

  override *values(): MapIterator<CelInput> {
    for (const k of this.keys()) yield this.get(k)!;
  }

  override *entries(): MapIterator<[string, CelInput]> {
    for (const k of this.keys()) yield [k, this.get(k)!];
  }

  override [Symbol.iterator](): MapIterator<[string, CelInput]> {
    return this.entries();
  }

  override forEach(fn: (value: CelInput, key: string, map: Map<string, CelInput>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }
}

/** A JSON value as CEL sees it under schema `s`: objects as (lazily converted) maps, integers as int. */
export function toCel(v: unknown, s: JSONSchemaProps | undefined): CelInput {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) {
    const items = itemSchema(s);
    return v.map((x) => toCel(x, items));
  }
  if (isPlainObject(v)) return new LazyObjectMap(v, s) as unknown as CelInput;
  if (typeof v === 'number') {
    if (s?.type === 'number' || !Number.isInteger(v) || !Number.isSafeInteger(v)) return v;
    return BigInt(v);
  }
  return v as CelInput;
}

const typeName = (s: JSONSchemaProps): string => (s['x-kubernetes-int-or-string'] ? 'string' : s.type ?? 'object');

/** Joins a rule's relative fieldPath (".spec.x", ".list[0]") to the node's path. */
const joinFieldPath = (path: string, fieldPath: string): string => {
  const rel = fieldPath.replace(/^\./, '');
  if (!rel) return path;
  if (!path) return rel;
  return rel.startsWith('[') ? `${path}${rel}` : `${path}.${rel}`;
};

/** The rule's message, or "failed rule: <rule>" (upstream: ruleMessageOrDefault). */
const messageOrDefault = (r: ValidationRule): string => (r.message ? r.message.trim() : `failed rule: ${r.rule.trim()}`);
/** What an evaluation error names the rule by (upstream: ruleErrorString). */
const ruleErrorString = (r: ValidationRule): string => (r.message ? r.message.trim() : r.rule.trim());

/** The walk's state for one request: the runtime budget left (upstream: RuntimeCELCostBudget, negative stops the walk), what it found. */
interface Walk {
  remaining: number;
  causes: StatusCause[];
  /** The field of causes at the walk's root: upstream's nil path ("<nil>") for a resource. */
  rootField: string;
  warn?: (text: string) => void;
}

const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';

const fieldAt = (w: Walk, path: string): string => path || w.rootField;

function failure(rule: CompiledRule, s: JSONSchemaProps, path: string, bindings: Record<string, CelInput>, w: Walk): StatusCause {
  let message = messageOrDefault(rule.rule);
  if (rule.message) {
    const { result, cost } = evaluate(rule.message, bindings);
    w.remaining -= cost;
    if (!(result instanceof Error) && !isCelError(result) && typeof result === 'string' && result.trim() !== '' && !/\n/.test(result)) message = result.trim();
  }
  const field = fieldAt(w, joinFieldPath(path, rule.rule.fieldPath ?? ''));
  switch (rule.rule.reason) {
    case 'FieldValueRequired':
      return fieldCause('FieldValueRequired', field, `Required value: ${message}`);
    case 'FieldValueForbidden':
      return fieldCause('FieldValueForbidden', field, `Forbidden: ${message}`);
    case 'FieldValueDuplicate':
      return fieldCause('FieldValueDuplicate', field, `Duplicate value: "${typeName(s)}"`);
    default:
      return fieldCause('FieldValueInvalid', field, `Invalid value: "${typeName(s)}": ${message}`);
  }
}

export interface RuleOptions {
  /** The field of errors at the root of `value` ('' unless given). */
  rootField?: string;
  /** An update's correlation of the new and old objects: a failed rule (not a transition rule) on an unchanged value warns instead. */
  ratchet?: Correlation;
  /** Where ratcheted failures go, as `field: message`. */
  warn?: (text: string) => void;
}

/**
 * Runs every rule under `s` on `value`; `old` is the stored value at the same place (updates), which makes
 * transition rules (those reading oldSelf) run. Lists correlate items by their map keys only, as upstream.
 * One call spends at most upstream's per-request runtime budget; one evaluation at most the per-call limit.
 */
export function validateRules(value: unknown, old: unknown, s: JSONSchemaProps | undefined, opts: RuleOptions = {}): StatusCause[] {
  const w: Walk = { remaining: RUNTIME_COST_BUDGET, causes: [], rootField: opts.rootField ?? '', warn: opts.warn };
  walk(value, old, s, '', opts.ratchet && { current: opts.ratchet }, w);
  return w.causes;
}

/** One rule on one value: a cause (`failed`: the rule said false, which ratchets), nothing, or the walk stopped (remaining < 0). */
function runRule(rule: CompiledRule, s: JSONSchemaProps, path: string, bindings: Record<string, CelInput>, w: Walk): { cause: StatusCause; failed?: boolean } | undefined {
  const invalid = (detail: string) => ({ cause: fieldCause('FieldValueInvalid', fieldAt(w, path), `Invalid value: "${typeName(s)}": ${detail}`) });
  const { result, cost } = evaluate(rule.program, bindings);
  if (cost > PER_CALL_LIMIT) {
    w.remaining = -1;
    return invalid(`'${COST_LIMIT_EXCEEDED}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule.rule)}`);
  }
  if (cost > w.remaining) {
    w.remaining = -1;
    return invalid(OUT_OF_BUDGET);
  }
  w.remaining -= cost;
  const error = result instanceof Error ? result.message : isCelError(result) ? result.message : undefined;
  if (error !== undefined) {
    if (/^(found no matching overload|no such overload|unbound function)/.test(error)) {
      return invalid(`'${error}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule.rule)}`);
    }
    return invalid(`${error} evaluating rule: ${ruleErrorString(rule.rule)}`);
  }
  return result === true ? undefined : { cause: failure(rule, s, path, bindings, w), failed: true };
}

function walk(value: unknown, old: unknown, s: JSONSchemaProps | undefined, path: string, r: RatchetPosition | undefined, w: Walk): void {
  if (!s || value === undefined || value === null || w.remaining < 0 || !hasRules(s)) return;
  const rules = s['x-kubernetes-validations']?.length ? rulesOf(s) : [];
  if (rules.length) {
    if (w.remaining <= 0) {
      w.causes.push(fieldCause('FieldValueInvalid', fieldAt(w, path), `Invalid value: "${typeName(s)}": ${OUT_OF_BUDGET}`));
      w.remaining = -1;
      return;
    }
    // upstream's two activations: oldSelf as it is, and (optionalOldSelf rules) as an optional, none when absent
    const bindings: Record<string, CelInput> = { self: toCel(value, s) };
    const hasOld = old !== undefined && old !== null;
    if (hasOld) bindings.oldSelf = toCel(old, s);
    let optionalBindings: Record<string, CelInput> | undefined;
    for (const rule of rules) {
      if (rule.transition && !hasOld && !rule.optionalOldSelf) continue;
      const optional = rule.transition && rule.optionalOldSelf;
      if (optional) optionalBindings ??= { self: bindings.self!, oldSelf: (hasOld ? optionalOf(bindings.oldSelf) : optionalNone()) as unknown as CelInput };
      const out = runRule(rule, s, path, optional ? optionalBindings! : bindings, w);
      if (out) {
        // a rule that fails on a value the update left as it was warns instead (transition rules compare, so they do not)
        if (out.failed && !rule.transition && ratchets(r)) w.warn?.(`${out.cause.field}: ${out.cause.message}`);
        else w.causes.push(out.cause);
      }
      if (w.remaining < 0) return;
    }
  }
  if (!rulesBelow(s)) return;
  if (Array.isArray(value)) {
    const items = itemSchema(s);
    if (!items) return;
    const olds = Array.isArray(old) ? mapList(s, old) : undefined;
    value.forEach((v, i) => walk(v, olds?.get(v), items, `${path}[${i}]`, ratchetIndex(r, i), w));
    return;
  }
  if (!isPlainObject(value)) return;
  const prevObj = isPlainObject(old) ? old : undefined;
  for (const [k, v] of Object.entries(value)) {
    const prop = propertySchema(s, k);
    if (prop) walk(v, prevObj?.[k], prop, childPath(path, k), ratchetKey(r, k), w);
  }
}
