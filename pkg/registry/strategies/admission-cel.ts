// CEL expressions of admission configurations are compiled when they are written, so a broken one is a 422 at
// create time rather than a failure on every request (upstream: the CEL compile checks of admissionregistration
// validation): syntax, undeclared variables, fields `request` and `namespaceObject` do not declare, calls without
// an overload, and a result of the wrong type (see apimachinery/cel/admission.ts for the variables).
import { admissionScope, checkAdmissionExpression, type Scope } from '../../apimachinery/cel/index.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { internalError, invalidValue } from '../../apimachinery/field.js';

let matchScope: Scope | undefined;
/** Webhook matchConditions: no params, no variables (made on first use: it needs the CEL runtime). */
export const matchConditionScope = (): Scope => (matchScope ??= admissionScope({ params: false, authorizer: true }));

export function celCompileErrors(path: string, expression: string, scope: Scope, returns: string[] = []): StatusCause[] {
  const { error, internal } = checkAdmissionExpression(expression, scope, returns);
  // upstream's convertCELErrorToValidationError: a program that cannot be made is the server's internal error
  return error ? [internal ? internalError(path, error) : invalidValue(path, expression, error)] : [];
}
