// CEL expressions of admission configurations are compiled when they are written, so a broken one is a 422 at
// create time rather than a failure on every request (upstream: the CEL compile checks of admissionregistration
// validation and plugin/cel's compiler): syntax, undeclared variables, fields `request` and `namespaceObject` do not
// declare, calls without an overload, and a result of the wrong type.
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import { ADMISSION_REQUEST_TYPE, celTypeName, checkTyped, compile, NAMESPACE_TYPE, type Checked } from '../../apimachinery/cel/index.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue } from '../../apimachinery/field.js';

/** The variables of one kind of admission expression, by name, with their types (undefined: dyn). */
export type Scope = ReadonlyMap<string, JSONSchemaProps | undefined>;

/**
 * The variables upstream declares (createEnvForOpts): object, oldObject, request and namespaceObject always; params
 * when the policy has a paramKind; authorizer except in messageExpressions; `variables` (the policy's variables
 * compiled so far, each typed by its expression) once a policy has any.
 */
export function admissionScope(opts: { params: boolean; authorizer: boolean; variables?: Map<string, JSONSchemaProps | undefined> }): Scope {
  const scope = new Map<string, JSONSchemaProps | undefined>([['object', undefined], ['oldObject', undefined], ['request', ADMISSION_REQUEST_TYPE], ['namespaceObject', NAMESPACE_TYPE]]);
  if (opts.params) scope.set('params', undefined);
  if (opts.authorizer) scope.set('authorizer', undefined);
  if (opts.variables) {
    const properties = Object.fromEntries([...opts.variables].map(([name, t]) => [name, t ?? { 'x-kubernetes-preserve-unknown-fields': true }]));
    scope.set('variables', { type: 'object', properties });
  }
  return scope;
}

/** Webhook matchConditions: no params, no variables. */
export const MATCH_CONDITION_SCOPE = admissionScope({ params: false, authorizer: true });

/** Compiles and checks one expression; `returns`: the types its result may have (upstream's ReturnTypes; none: any). */
export function checkAdmissionExpression(expression: string, scope: Scope, returns: string[] = []): Checked {
  let checked: Checked;
  try {
    const c = compile(expression);
    checked = checkTyped(expression, c.ast, c.positions, scope);
  } catch (err) {
    return { error: `compilation failed: ${(err as Error).message}`, type: undefined };
  }
  const got = celTypeName(checked.type);
  if (checked.error || !returns.length || got === undefined || returns.includes(got)) return checked;
  const want = returns.length === 1 ? returns[0] : `one of [${returns.join(' ')}]`;
  return { error: `must evaluate to ${want} but got ${got}`, type: checked.type };
}

export function celCompileErrors(path: string, expression: string, scope: Scope, returns: string[] = []): StatusCause[] {
  const { error } = checkAdmissionExpression(expression, scope, returns);
  return error ? [invalidValue(path, expression, error)] : [];
}
