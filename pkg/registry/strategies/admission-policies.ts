// ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding checks beyond the schema, worded as upstream's
// pkg/apis/admissionregistration/validation: match constraints and their rules, at least one validation, every CEL
// expression compiled at write time, reasons and validation actions from their enums.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { duplicate, forbidden, invalidValue, notSupported, required } from '../../apimachinery/field.js';
import { RESET_OBJECT_META_FOR_STATUS, type Strategy } from '../strategy.js';
import { admissionScope, compileVariables } from '../../apimachinery/cel/index.js';
import { celCompileErrors } from './admission-cel.js';
import { validateMatchConditions, validateRule } from './admission-webhooks.js';

type Obj = Record<string, any>;

const REASONS = ['Unauthorized', 'Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const ACTIONS = ['Audit', 'Deny', 'Warn'];
const CEL_IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/;

function validateMatchResources(m: Obj | undefined, path: string, requireRules: boolean): StatusCause[] {
  if (!m) return requireRules ? [required(path)] : [];
  const causes: StatusCause[] = [];
  if (requireRules && !m.resourceRules?.length) causes.push(required(`${path}.resourceRules`));
  for (const list of ['resourceRules', 'excludeResourceRules'] as const) {
    (m[list] as Obj[] | undefined ?? []).forEach((r, i) => causes.push(...validateRule(r, `${path}.${list}[${i}]`, true)));
  }
  const match = ['Equivalent', 'Exact'];
  if (m.matchPolicy !== undefined && !match.includes(m.matchPolicy)) causes.push(notSupported(`${path}.matchPolicy`, m.matchPolicy, match));
  return causes;
}

function validatePolicySpec(spec: Obj | undefined): StatusCause[] {
  const s = spec ?? {};
  const causes: StatusCause[] = [];
  const failure = ['Fail', 'Ignore'];
  if (s.failurePolicy !== undefined && !failure.includes(s.failurePolicy)) causes.push(notSupported('spec.failurePolicy', s.failurePolicy, failure));
  if (s.paramKind) {
    if (!s.paramKind.apiVersion) causes.push(required('spec.paramKind.apiVersion'));
    else if ((s.paramKind.apiVersion as string).split('/').length > 2) causes.push(invalidValue('spec.paramKind.apiVersion', s.paramKind.apiVersion, 'must be a group/version or a version'));
    if (!s.paramKind.kind) causes.push(required('spec.paramKind.kind'));
  }
  causes.push(...validateMatchResources(s.matchConstraints, 'spec.matchConstraints', true));
  const params = Boolean(s.paramKind);
  // match conditions are compiled without the policy's variables; the rest sees those compiled before it
  causes.push(...validateMatchConditions(s.matchConditions, 'spec.matchConditions', admissionScope({ params, authorizer: true })));
  if (!s.validations?.length && !s.auditAnnotations?.length) causes.push(required('spec.validations', 'validations or auditAnnotations must contain at least one item'));
  const compiled = s.variables?.length ? compileVariables(s.variables as Obj[], { params, authorizer: true }) : undefined;
  (s.variables as Obj[] | undefined ?? []).forEach((v, i) => {
    const at = `spec.variables[${i}]`;
    if (!v.name) causes.push(required(`${at}.name`));
    else if (!CEL_IDENTIFIER.test(v.name)) causes.push(invalidValue(`${at}.name`, v.name, 'name is not a valid CEL identifier'));
    const error = compiled?.checks[i]?.error;
    if (!v.expression) causes.push(required(`${at}.expression`));
    else if (error) causes.push(invalidValue(`${at}.expression`, v.expression, error));
  });
  const variables = compiled?.variables;
  const scope = admissionScope({ params, authorizer: true, variables });
  const messageScope = admissionScope({ params, authorizer: false, variables });
  (s.validations as Obj[] | undefined ?? []).forEach((v, i) => {
    const at = `spec.validations[${i}]`;
    if (!v.expression) causes.push(required(`${at}.expression`));
    else causes.push(...celCompileErrors(`${at}.expression`, v.expression, scope, ['bool']));
    if (v.messageExpression) causes.push(...celCompileErrors(`${at}.messageExpression`, v.messageExpression, messageScope, ['string']));
    if (typeof v.message === 'string' && v.message.includes('\n')) causes.push(invalidValue(`${at}.message`, v.message, 'message must not contain line breaks'));
    if (v.reason !== undefined && !REASONS.includes(v.reason)) causes.push(notSupported(`${at}.reason`, v.reason, REASONS));
  });
  (s.auditAnnotations as Obj[] | undefined ?? []).forEach((a, i) => {
    const at = `spec.auditAnnotations[${i}]`;
    if (!a.key) causes.push(required(`${at}.key`));
    if (!a.valueExpression) causes.push(required(`${at}.valueExpression`));
    else causes.push(...celCompileErrors(`${at}.valueExpression`, a.valueExpression, scope, ['string', 'null_type']));
  });
  return causes;
}

function validateBindingSpec(spec: Obj | undefined): StatusCause[] {
  const s = spec ?? {};
  const causes: StatusCause[] = [];
  if (!s.policyName) causes.push(required('spec.policyName'));
  const actions = s.validationActions as string[] | undefined;
  if (!actions?.length) causes.push(required('spec.validationActions', 'at least one validation action is required'));
  const seen = new Set<string>();
  (actions ?? []).forEach((a, i) => {
    if (!ACTIONS.includes(a)) causes.push(notSupported(`spec.validationActions[${i}]`, a, ACTIONS));
    if (seen.has(a)) causes.push(duplicate(`spec.validationActions[${i}]`, a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    causes.push(invalidValue('spec.validationActions', actions, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  const p = s.paramRef as Obj | undefined;
  if (p) {
    if (p.name && p.selector) causes.push(forbidden('spec.paramRef.name', 'name and selector are mutually exclusive'));
    if (!p.name && !p.selector) causes.push(required('spec.paramRef', 'one of name or selector must be specified'));
  }
  causes.push(...validateMatchResources(s.matchResources, 'spec.matchResources', false));
  return causes;
}

export const validatingAdmissionPolicyStrategy: Strategy = {
  generation: true,
  statusKeepsMetadata: RESET_OBJECT_META_FOR_STATUS,
  validate: (obj: KubeObject) => validatePolicySpec(obj.spec),
};

export const validatingAdmissionPolicyBindingStrategy: Strategy = {
  generation: true,
  validate: (obj: KubeObject) => validateBindingSpec(obj.spec),
};
