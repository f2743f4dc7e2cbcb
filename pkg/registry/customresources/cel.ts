// x-kubernetes-validations: CEL rules evaluated with `self` (and `oldSelf` for transition rules) at every
// schema node that declares them (upstream: apiextensions-apiserver pkg/apiserver/schema/cel). Values are
// handed to @bufbuild/cel typed by the schema: objects as maps, integers as int (BigInt), numbers as double.
import { celEnv, isCelError, parse, plan, type CelInput, type CelResult } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import type { JSONSchemaProps, ValidationRule } from '../../../api/apiextensions/v1/index.js';
import { fieldCause, type StatusCause } from '../../apimachinery/errors.js';
import { isPlainObject } from '../schema/index.js';
import { childPath, itemSchema, propertySchema } from './schema.js';

type Program = (bindings: Record<string, CelInput>) => CelResult;

interface CompiledRule {
  rule: ValidationRule;
  program: Program;
  message?: Program;
  transition: boolean;
}

const env = celEnv({ funcs: strings });
const programs = new Map<string, Program>();

/** Parses and plans an expression once per process; throws on a syntax error. */
function compile(expr: string): Program {
  let p = programs.get(expr);
  if (!p) {
    p = plan(env, parse(expr)) as Program;
    programs.set(expr, p);
  }
  return p;
}

const OLD_SELF = /\boldSelf\b/;

/** Compile errors of every rule in a schema, as causes under `path` (for CRD validation). */
export function ruleCompileErrors(s: JSONSchemaProps | undefined, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const visit = (n: JSONSchemaProps | undefined, p: string): void => {
    if (!n) return;
    (n['x-kubernetes-validations'] ?? []).forEach((r, i) => {
      for (const [field, expr] of [['rule', r.rule], ['messageExpression', r.messageExpression]] as const) {
        if (expr === undefined) continue;
        try {
          compile(expr);
        } catch (err) {
          causes.push(fieldCause('FieldValueInvalid', `${p}.x-kubernetes-validations[${i}].${field}`, `Invalid value: ${JSON.stringify(expr)}: compilation failed: ${(err as Error).message}`));
        }
      }
    });
    for (const [k, v] of Object.entries(n.properties ?? {})) visit(v, `${p}.properties[${k}]`);
    if (typeof n.additionalProperties === 'object') visit(n.additionalProperties, `${p}.additionalProperties`);
    if (n.items && !Array.isArray(n.items)) visit(n.items, `${p}.items`);
  };
  visit(s, path);
  return causes;
}

const compiledRules = new WeakMap<JSONSchemaProps, CompiledRule[]>();

function rulesOf(s: JSONSchemaProps): CompiledRule[] {
  let rules = compiledRules.get(s);
  if (!rules) {
    rules = (s['x-kubernetes-validations'] ?? []).map((rule) => ({
      rule,
      program: compile(rule.rule),
      message: rule.messageExpression ? compile(rule.messageExpression) : undefined,
      transition: OLD_SELF.test(rule.rule),
    }));
    compiledRules.set(s, rules);
  }
  return rules;
}

/** Whether any node declares rules (objects of kinds without rules skip the walk). */
export function hasRules(s: JSONSchemaProps | undefined): boolean {
  if (!s) return false;
  if (s['x-kubernetes-validations']?.length) return true;
  if (Object.values(s.properties ?? {}).some(hasRules)) return true;
  if (typeof s.additionalProperties === 'object' && hasRules(s.additionalProperties)) return true;
  return hasRules(itemSchema(s));
}

/** A JSON value as CEL sees it under schema `s`. */
export function toCel(v: unknown, s: JSONSchemaProps | undefined): CelInput {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) {
    const items = itemSchema(s);
    return v.map((x) => toCel(x, items));
  }
  if (isPlainObject(v)) {
    const m = new Map<string, CelInput>();
    for (const [k, x] of Object.entries(v)) m.set(k, toCel(x, propertySchema(s, k)));
    return m as unknown as CelInput;
  }
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

function failure(rule: CompiledRule, s: JSONSchemaProps, path: string, bindings: Record<string, CelInput>): StatusCause {
  let message = rule.rule.message || `failed rule: ${rule.rule.rule.trim()}`;
  if (rule.message) {
    const m = rule.message(bindings);
    if (!isCelError(m) && typeof m === 'string' && m.trim() !== '') message = m;
  }
  const field = joinFieldPath(path, rule.rule.fieldPath ?? '');
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

/**
 * Runs every rule under `s` on `value`; `old` is the stored value at the same place (updates), which makes
 * transition rules (those reading oldSelf) run. Lists correlate items by their map keys only, as upstream.
 */
export function validateRules(value: unknown, old: unknown, s: JSONSchemaProps | undefined, opts: { transitionOnly?: boolean } = {}): StatusCause[] {
  const causes: StatusCause[] = [];
  walk(value, old, s, '', causes, opts.transitionOnly ?? false);
  return causes;
}

function walk(value: unknown, old: unknown, s: JSONSchemaProps | undefined, path: string, causes: StatusCause[], transitionOnly: boolean): void {
  if (!s || value === undefined || value === null) return;
  const rules = s['x-kubernetes-validations']?.length ? rulesOf(s) : [];
  if (rules.length) {
    const bindings: Record<string, CelInput> = { self: toCel(value, s) };
    if (old !== undefined && old !== null) bindings.oldSelf = toCel(old, s);
    for (const rule of rules) {
      if (rule.transition ? bindings.oldSelf === undefined : transitionOnly) continue;
      const result = rule.program(bindings);
      if (isCelError(result)) {
        causes.push(fieldCause('FieldValueInvalid', path, `Invalid value: "${typeName(s)}": ${rule.rule.rule.trim()}: ${result.message}`));
      } else if (result !== true) {
        causes.push(failure(rule, s, path, bindings));
      }
    }
  }
  if (Array.isArray(value)) {
    const items = itemSchema(s);
    if (!items) return;
    const keys = s['x-kubernetes-list-type'] === 'map' ? s['x-kubernetes-list-map-keys'] ?? [] : undefined;
    const olds = Array.isArray(old) ? old : [];
    value.forEach((v, i) => {
      const prev = keys?.length && isPlainObject(v)
        ? olds.find((o) => isPlainObject(o) && keys.every((k) => o[k] === v[k]))
        : undefined;
      walk(v, prev, items, `${path}[${i}]`, causes, transitionOnly);
    });
    return;
  }
  if (!isPlainObject(value)) return;
  const prevObj = isPlainObject(old) ? old : undefined;
  for (const [k, v] of Object.entries(value)) {
    const prop = propertySchema(s, k);
    if (prop) walk(v, prevObj?.[k], prop, childPath(path, k), causes, transitionOnly);
  }
}
