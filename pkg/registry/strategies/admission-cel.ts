// CEL expressions of admission configurations are compiled when they are written, so a broken one is a 422 at
// create time rather than a failure on every request (upstream: the CEL compile checks of admissionregistration
// validation): syntax, undeclared variables, and calls or literals whose constant types have no overload.
import { checkUntyped, compile } from '../../apimachinery/cel/index.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue } from '../../apimachinery/field.js';

/** The variables of ValidatingAdmissionPolicy expressions; webhook matchConditions have the first four. */
export const POLICY_VARIABLES = ['object', 'oldObject', 'request', 'authorizer', 'params', 'namespaceObject', 'variables'];
export const MATCH_CONDITION_VARIABLES = POLICY_VARIABLES.slice(0, 4);

export function celCompileErrors(path: string, expression: string, variables: string[]): StatusCause[] {
  try {
    const c = compile(expression);
    const error = checkUntyped(expression, c.ast, c.positions, variables);
    return error ? [invalidValue(path, expression, error)] : [];
  } catch (err) {
    return [invalidValue(path, expression, `compilation failed: ${(err as Error).message}`)];
  }
}
