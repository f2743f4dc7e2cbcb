// The OpenAPI checks of a CRD schema, node by node (upstream: ValidateCustomResourceDefinitionOpenAPISchema and
// specStandardValidatorV3 in apiextensions validation.go): unsupported keywords, properties vs
// additionalProperties, list and map types, x-kubernetes-validations rules (compiled, costed, oldSelf only where
// old and new values correlate). Schema errors come first; CEL errors only where the schema below is sound.
import type { JSONSchemaProps, ValidationRule } from '../../../../api/apiextensions/v1/index.js';
import type { StatusCause } from '../../../apimachinery/errors.js';
import { forbidden, invalidValue, notSupported, required } from '../../../apimachinery/field.js';
import { childCardinality } from '../../../apimachinery/cel/index.js';
import { compileRuleSet, costExceeded, type CostObserver } from '../cel.js';
import { resolveFieldPath } from './field-path.js';
import { keyPath } from './paths.js';

export interface SchemaOptions {
  allowDefaults: boolean;
  requireValidPropertyType: boolean;
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
  /** CEL rules are compiled only when the schema is structural (upstream: a nil CELSchemaContext otherwise). */
  compileRules: boolean;
  /** Versions whose schema did not change on update keep rules over the per-rule cost limit. */
  suppressPerExpressionCost: boolean;
}

interface Walk {
  allowDefaults: boolean;
  disallowDefaultsReason: string;
  insideResourceMeta: boolean;
  /** Where old and new values stop correlating (oldSelf is refused below). */
  uncorrelatable?: string;
  /** How many times a rule here can run per object: the product of the maxItems and maxProperties above, undefined
   * (unbounded) below a list or map without one. */
  cardinality: number | undefined;
}

const OPENAPI_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);
const NEWLINES = /[\n\r]/;

export interface SchemaErrors {
  schema: StatusCause[];
  cel: StatusCause[];
}

/** Checks `s` and everything below it; `cost` accumulates the rules' estimated costs for the CRD total. */
export function validateOpenAPISchema(s: JSONSchemaProps, path: string, opts: SchemaOptions, cost: CostObserver): StatusCause[] {
  const out = node(s, path, { allowDefaults: opts.allowDefaults, disallowDefaultsReason: '', insideResourceMeta: false, cardinality: 1 }, true, opts, cost);
  return [...out.schema, ...out.cel];
}

function standard(s: JSONSchemaProps, path: string, w: Walk, opts: SchemaOptions): StatusCause[] {
  const causes: StatusCause[] = [];
  if (opts.requireValidPropertyType && s.type && !OPENAPI_TYPES.includes(s.type)) causes.push(notSupported(`${path}.type`, s.type, OPENAPI_TYPES));
  if (s.default !== undefined && !w.allowDefaults) causes.push(forbidden(`${path}.default`, `must not be set${w.disallowDefaultsReason ? ` ${w.disallowDefaultsReason}` : ''}`));
  if (s.id) causes.push(forbidden(`${path}.id`, 'id is not supported'));
  if (s.additionalItems !== undefined) causes.push(forbidden(`${path}.additionalItems`, 'additionalItems is not supported'));
  if (Object.keys(s.patternProperties ?? {}).length) causes.push(forbidden(`${path}.patternProperties`, 'patternProperties is not supported'));
  if (Object.keys(s.definitions ?? {}).length) causes.push(forbidden(`${path}.definitions`, 'definitions is not supported'));
  if (s.dependencies !== undefined) causes.push(forbidden(`${path}.dependencies`, 'dependencies is not supported'));
  if (s.$ref !== undefined) causes.push(forbidden(`${path}.$ref`, '$ref is not supported'));
  if (s.type === 'null') causes.push(forbidden(`${path}.type`, 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items) && s.items.length) causes.push(forbidden(`${path}.items`, 'items must be a schema object and not an array'));
  if (w.insideResourceMeta && s['x-kubernetes-embedded-resource']) causes.push(forbidden(`${path}.x-kubernetes-embedded-resource`, 'must not be used inside of resource meta'));
  return causes;
}

const sortedEntries = <T>(m: Record<string, T> | undefined): Array<[string, T]> =>
  Object.entries(m ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

function node(s: JSONSchemaProps | undefined, path: string, w: Walk, isRoot: boolean, opts: SchemaOptions, cost: CostObserver | undefined): SchemaErrors {
  const out: SchemaErrors = { schema: [], cel: [] };
  if (!s) return out;
  const add = (e: SchemaErrors): void => {
    out.schema.push(...e.schema);
    out.cel.push(...e.cel);
  };
  out.schema.push(...standard(s, path, w, opts));
  if (s.uniqueItems === true) out.schema.push(forbidden(`${path}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  if (s.additionalProperties !== undefined) {
    if (Object.keys(s.properties ?? {}).length && (s.additionalProperties === false || typeof s.additionalProperties === 'object')) {
      out.schema.push(forbidden(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
    }
    let sub: Walk = { ...w, cardinality: childCardinality(w.cardinality, s) };
    if (w.insideResourceMeta) sub = { ...sub, allowDefaults: false, disallowDefaultsReason: 'inside additionalProperties applying to object metadata' };
    if (typeof s.additionalProperties === 'object') add(node(s.additionalProperties, `${path}.additionalProperties`, sub, false, opts, cost));
  }
  for (const [k, p] of sortedEntries(s.properties)) {
    let sub: Walk = { ...w, cardinality: childCardinality(w.cardinality, s) };
    if ((isRoot || s['x-kubernetes-embedded-resource']) && META_FIELDS.has(k)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = { ...sub, allowDefaults: false, disallowDefaultsReason: `in top-level ${k}` };
    }
    add(node(p, keyPath(`${path}.properties`, k), sub, false, opts, cost));
  }
  add(node(s.not, `${path}.not`, w, false, opts, undefined));
  (s.allOf ?? []).forEach((x, i) => add(node(x, `${path}.allOf[${i}]`, w, false, opts, undefined)));
  (s.oneOf ?? []).forEach((x, i) => add(node(x, `${path}.oneOf[${i}]`, w, false, opts, undefined)));
  (s.anyOf ?? []).forEach((x, i) => add(node(x, `${path}.anyOf[${i}]`, w, false, opts, undefined)));
  for (const [k, d] of sortedEntries(s.definitions)) add(node(d, keyPath(`${path}.definitions`, k), w, false, opts, undefined));
  if (s.items) {
    let sub: Walk = { ...w, cardinality: childCardinality(w.cardinality, s) };
    if (s['x-kubernetes-list-type'] !== 'map' && w.uncorrelatable === undefined) sub = { ...sub, uncorrelatable: path };
    if (Array.isArray(s.items)) s.items.forEach((x, i) => add(node(x, `${path}.items[${i}]`, sub, false, opts, cost)));
    else add(node(s.items, `${path}.items`, sub, false, opts, cost));
  }
  for (const [k, d] of sortedEntries(s.dependencies)) if (!Array.isArray(d)) add(node(d, keyPath(`${path}.dependencies`, k), w, false, opts, undefined));
  out.schema.push(...extensions(s, path, opts));
  out.schema.push(...ruleShapes(s, path));
  if (out.schema.length === 0 && opts.compileRules && cost) out.cel.push(...ruleCompilation(s, path, w, isRoot, opts, cost));
  return out;
}

/** x-kubernetes-preserve-unknown-fields, map and list types, map keys. */
function extensions(s: JSONSchemaProps, path: string, opts: SchemaOptions): StatusCause[] {
  const causes: StatusCause[] = [];
  const listType = s['x-kubernetes-list-type'];
  const mapType = s['x-kubernetes-map-type'];
  const keys = s['x-kubernetes-list-map-keys'] ?? [];
  const items = Array.isArray(s.items) ? undefined : s.items;
  if (s['x-kubernetes-preserve-unknown-fields'] === false) causes.push(invalidValue(`${path}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  if (mapType !== undefined && s.type !== 'object') {
    causes.push(s.type ? invalidValue(`${path}.type`, s.type, 'must be object if x-kubernetes-map-type is specified') : required(`${path}.type`, 'must be object if x-kubernetes-map-type is specified'));
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') causes.push(notSupported(`${path}.x-kubernetes-map-type`, mapType, ['atomic', 'granular']));
  if (listType !== undefined && s.type !== 'array') {
    causes.push(s.type ? invalidValue(`${path}.type`, s.type, 'must be array if x-kubernetes-list-type is specified') : required(`${path}.type`, 'must be array if x-kubernetes-list-type is specified'));
  } else if (opts.requireAtomicSetType && listType === 'set' && items) {
    if (items.type === 'array' && items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic') {
      causes.push(invalidValue(`${path}.items.x-kubernetes-list-type`, items['x-kubernetes-list-type'], 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    } else if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      causes.push(invalidValue(`${path}.items.x-kubernetes-map-type`, items['x-kubernetes-list-type'] ?? 'null', 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
  }
  if (listType !== undefined && !['atomic', 'set', 'map'].includes(listType)) causes.push(notSupported(`${path}.x-kubernetes-list-type`, listType, ['atomic', 'set', 'map']));
  if (keys.length) {
    if (listType === undefined) causes.push(required(`${path}.x-kubernetes-list-type`, 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') causes.push(invalidValue(`${path}.x-kubernetes-list-type`, listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') {
    if (!keys.length) causes.push(required(`${path}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'));
    if (!s.items) causes.push(required(`${path}.items`, 'must have a schema if x-kubernetes-list-type is map'));
    if (Array.isArray(s.items)) causes.push(invalidValue(`${path}.items`, s.items, 'must only have a single schema if x-kubernetes-list-type is map'));
    if (items && items.type !== 'object') causes.push(invalidValue(`${path}.items.type`, items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
    if (items?.type === 'object') {
      const seen = new Set<string>();
      for (const k of keys) {
        const p = items.properties?.[k];
        if (!p) causes.push(invalidValue(`${path}.x-kubernetes-list-map-keys`, keys, 'entries must all be names of item properties'));
        else if (p.type === 'array' || p.type === 'object') causes.push(invalidValue(`${keyPath(`${path}.items.properties`, k)}.type`, items.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
        if (seen.has(k)) causes.push(invalidValue(`${path}.x-kubernetes-list-map-keys`, keys, 'must not contain duplicate entries'));
        seen.add(k);
      }
    }
  }
  if (opts.requireMapListKeysMapSetValidation) causes.push(...mapListKeysMapSet(s, path));
  return causes;
}

/** Set and map list items are never null; map keys are required or defaulted and never null. */
export function mapListKeysMapSet(s: JSONSchemaProps, path: string): StatusCause[] {
  const listType = s['x-kubernetes-list-type'];
  const items = Array.isArray(s.items) ? undefined : s.items;
  if (!items || (listType !== 'set' && listType !== 'map')) return [];
  const causes: StatusCause[] = [];
  if (items.nullable) causes.push(forbidden(`${path}.items.nullable`, `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType === 'map') {
    for (const k of s['x-kubernetes-list-map-keys'] ?? []) {
      const p = items.properties?.[k];
      if (!p) continue;
      if (!items.required?.includes(k) && p.default === undefined) {
        causes.push(required(`${keyPath(`${path}.items.properties`, k)}.default`, 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
      }
      if (p.nullable) causes.push(forbidden(`${keyPath(`${path}.items.properties`, k)}.nullable`, 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
    }
  }
  return causes;
}

/** The shape of each rule: present, single-line messages, a known reason, a fieldPath that resolves. */
function ruleShapes(s: JSONSchemaProps, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  (s['x-kubernetes-validations'] ?? []).forEach((rule, i) => {
    const at = `${path}.x-kubernetes-validations[${i}]`;
    const trimmedRule = (rule.rule ?? '').trim();
    const message = rule.message ?? '';
    const trimmedMsg = message.trim();
    if (!trimmedRule) causes.push(required(`${at}.rule`, 'rule is not specified'));
    else if (message.length > 0 && !trimmedMsg) causes.push(invalidValue(`${at}.message`, message, 'message must be non-empty if specified'));
    else if (NEWLINES.test(trimmedMsg)) causes.push(invalidValue(`${at}.message`, message, 'message must not contain line breaks'));
    else if (NEWLINES.test(trimmedRule) && !trimmedMsg) causes.push(required(`${at}.message`, 'message must be specified if rule contains line breaks'));
    if (rule.messageExpression !== undefined && rule.messageExpression.length > 0 && !rule.messageExpression.trim()) {
      causes.push(required(`${at}.messageExpression`, 'messageExpression must be non-empty if specified'));
    }
    if (rule.reason !== undefined && !REASONS.includes(rule.reason)) causes.push(notSupported(`${at}.reason`, rule.reason, REASONS));
    const fieldPath = rule.fieldPath ?? '';
    if (fieldPath.length > 0 && !fieldPath.trim()) causes.push(invalidValue(`${at}.fieldPath`, fieldPath, 'fieldPath must be non-empty if specified'));
    if (NEWLINES.test(fieldPath)) causes.push(invalidValue(`${at}.fieldPath`, fieldPath, 'fieldPath must not contain line breaks'));
    if (fieldPath.length > 0 && typeof resolveFieldPath(fieldPath, s, { allowBrackets: true, allowIndex: true }) === 'string') {
      causes.push(invalidValue(`${at}.fieldPath`, fieldPath, 'fieldPath must be a valid path'));
    }
  });
  return causes;
}

/** Go's %#v of a rule, the value upstream prints in a rule's compile error. */
function goRule(r: ValidationRule): string {
  const q = (v: string | undefined): string => JSON.stringify(v ?? '');
  const reason = r.reason === undefined ? '(*apiextensions.FieldValueErrorReason)(nil)' : `(*apiextensions.FieldValueErrorReason)(${q(r.reason)})`;
  const optional = r.optionalOldSelf === undefined ? '(*bool)(nil)' : `(*bool)(${r.optionalOldSelf})`;
  return `apiextensions.ValidationRule{Rule:${q(r.rule)}, Message:${q(r.message)}, MessageExpression:${q(r.messageExpression)}, Reason:${reason}, FieldPath:${q(r.fieldPath)}, OptionalOldSelf:${optional}}`;
}

function ruleCompilation(s: JSONSchemaProps, path: string, w: Walk, isRoot: boolean, opts: SchemaOptions, cost: CostObserver): StatusCause[] {
  const rules = s['x-kubernetes-validations'] ?? [];
  if (!rules.length) return [];
  const causes: StatusCause[] = [];
  compileRuleSet(s, w.cardinality, isRoot).forEach((c, i) => {
    const at = `${path}.x-kubernetes-validations[${i}]`;
    const rule = rules[i]!;
    if (!opts.suppressPerExpressionCost && costExceeded(c.cost)) causes.push(forbidden(`${at}.rule`, costExceeded(c.cost)!));
    cost.observe(`${at}.rule`, c.cost);
    if (c.error) causes.push({ reason: 'FieldValueInvalid', field: `${at}.rule`, message: `Invalid value: ${goRule(rule)}: ${c.error}` });
    if (c.messageError) causes.push({ reason: 'FieldValueInvalid', field: `${at}.messageExpression`, message: `Invalid value: ${goRule(rule)}: ${c.messageError}` });
    else if (rule.messageExpression) {
      if (!opts.suppressPerExpressionCost && costExceeded(c.messageCost, 'estimated messageExpression cost')) {
        causes.push(forbidden(`${at}.messageExpression`, costExceeded(c.messageCost, 'estimated messageExpression cost')!));
      }
      cost.observe(`${at}.messageExpression`, c.messageCost);
    }
    if (c.usesOldSelf) {
      if (w.uncorrelatable !== undefined) causes.push(invalidValue(`${at}.rule`, rule.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${w.uncorrelatable}`));
    } else if (rule.optionalOldSelf !== undefined) {
      causes.push(invalidValue(`${at}.optionalOldSelf`, rule.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
    }
  });
  return causes;
}
