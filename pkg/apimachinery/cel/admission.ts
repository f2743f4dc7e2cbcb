// The variables of admission expressions as upstream declares them (apiserver/pkg/admission/plugin/cel: compile.go's
// createEnvForOpts, composition.go's `variables`), and checking one expression against them: used when a policy or
// webhook configuration is written (everything but request and namespaceObject dyn) and by the policy status
// controller's type checking (object and params typed by their schemas).
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import { ADMISSION_REQUEST_TYPE, NAMESPACE_TYPE } from './admission-types.js';
import { celTypeName, checkTyped, type Checked } from './check.js';
import { compile, type Ast } from './env.js';
import { regexProgramError } from './regex-constants.js';

type Typed = JSONSchemaProps | undefined;

/** The variables of one kind of admission expression, by name, with their types (undefined: dyn). */
export type Scope = ReadonlyMap<string, Typed>;

export interface ScopeOptions {
  /** Whether `params` is declared (a policy with a paramKind). */
  params: boolean;
  /** Whether `authorizer` is declared (not in a validation's messageExpression). */
  authorizer: boolean;
  /** The policy's variables compiled so far, with their types; absent: no `variables` at all. */
  variables?: ReadonlyMap<string, Typed>;
  /** Types of object/oldObject and params (the type checker's); dyn when absent. */
  object?: JSONSchemaProps;
  paramsType?: JSONSchemaProps;
}

const DYN: JSONSchemaProps = { 'x-kubernetes-preserve-unknown-fields': true };

export function admissionScope(o: ScopeOptions): Scope {
  const scope = new Map<string, Typed>([['object', o.object], ['oldObject', o.object], ['request', ADMISSION_REQUEST_TYPE], ['namespaceObject', NAMESPACE_TYPE]]);
  if (o.params) scope.set('params', o.paramsType);
  if (o.authorizer) scope.set('authorizer', undefined);
  if (o.variables) scope.set('variables', { type: 'object', properties: Object.fromEntries([...o.variables].map(([name, t]) => [name, t ?? DYN])) });
  return scope;
}

/** Compiles and checks one expression; `returns`: the types its result may have (upstream's ReturnTypes; none: any). */
export function checkAdmissionExpression(expression: string, scope: Scope, returns: string[] = []): Checked {
  let checked: Checked;
  let ast: Ast;
  try {
    const c = compile(expression);
    ast = c.ast;
    checked = checkTyped(expression, c.ast, c.positions, scope);
  } catch (err) {
    return { error: `compilation failed: ${(err as Error).message}`, type: undefined };
  }
  if (checked.error) return checked;
  const got = celTypeName(checked.type);
  if (returns.length && got !== undefined && !returns.includes(got)) {
    const want = returns.length === 1 ? returns[0] : `one of [${returns.join(' ')}]`;
    return { error: `must evaluate to ${want} but got ${got}`, type: checked.type };
  }
  // then the program is made
  const regex = regexProgramError(ast);
  return regex ? { error: `program instantiation failed: ${regex}`, internal: true, type: checked.type } : checked;
}

/**
 * A policy's variables compiled in order, each seeing those before it (upstream's composition env): their checks,
 * and the `variables` the policy's other expressions see. A variable keeps its type only when it is a scalar, list or
 * map, as upstream converts it; anything else is dyn.
 */
export function compileVariables(vars: Array<{ name?: string; expression?: string }>, base: Omit<ScopeOptions, 'variables'>): { checks: Array<Checked | undefined>; variables: Map<string, Typed> } {
  const variables = new Map<string, Typed>();
  const checks = vars.map((v) => {
    if (!v.expression) return undefined;
    const checked = checkAdmissionExpression(v.expression, admissionScope({ ...base, variables }));
    variables.set(v.name ?? '', celTypeName(checked.type) ? checked.type : undefined);
    return checked;
  });
  return { checks, variables };
}
