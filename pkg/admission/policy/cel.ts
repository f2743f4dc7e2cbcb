// CEL for admission (webhook matchConditions, ValidatingAdmissionPolicy): the same Kubernetes CEL environment as
// CRD validation rules, objects converted as those rules convert them (integers as int), with the authorizer of the
// request's user.
import type { CelInput } from '@bufbuild/cel';
import { AuthorizationSession, authorizerValue, compile, evaluate, withAuthorization, type Program, isCelError } from '../../apimachinery/cel/index.js';
import { toCel } from '../../registry/customresources/cel.js';
import { aggregate } from '../errors.js';
import type { AdmissionDeps } from '../deps.js';
import type { AdmissionAttributes } from '../interface.js';

/** A JSON value (object, request, params) as CEL sees it; null for absent. */
export const celValue = (v: unknown): CelInput => toCel(v, undefined);

/** The `authorizer` variable of a request: its user, and its own resource as authorizer.requestResource. */
export const requestAuthorizer = (a: AdmissionAttributes) => authorizerValue(a.user ?? { name: '', groups: [] }, {
  group: a.resource.group, resource: a.resource.plural, subresource: a.subresource ?? '', namespace: a.namespace ?? '', name: a.name,
});

/**
 * Runs `evaluate` (synchronous CEL) again until every authorizer check it makes has its answer from `review`, and
 * returns that last result; `session` keeps the answers across evaluations of one request.
 */
export async function withAnswers<T>(review: AdmissionDeps['review'], evaluate: () => T, session = new AuthorizationSession()): Promise<T> {
  for (;;) {
    const out = withAuthorization(session, evaluate);
    if (!session.pending.size) return out;
    await session.answer(review ?? (async () => ({ allowed: false, reason: '', error: 'no authorizer' })));
  }
}

/** An evaluation's value or error, and what it cost. */
export type EvalResult = ({ value: unknown } | { error: string }) & { cost: number };

/** Runs an expression; compile and runtime errors (passing upstream's per-call cost limit among them) become `{ error }`. */
export function evalCel(expr: string, bindings: Record<string, CelInput>): EvalResult {
  let program: Program;
  try {
    program = compile(expr).program;
  } catch (err) {
    return { error: `compilation failed: ${(err as Error).message}`, cost: 0 };
  }
  const { result, cost } = evaluate(program, bindings);
  if (result instanceof Error || isCelError(result)) return { error: result.message, cost };
  return { value: result, cost };
}

export interface MatchConditionsResult {
  matches: boolean;
  /** Set when no condition was false but one could not be evaluated. */
  error?: string;
}

/** Upstream's match-condition semantics: any false skips; otherwise any error is an error; else match. */
export function evalMatchConditions(conditions: Array<{ name: string; expression: string }> | undefined, bindings: Record<string, CelInput>): MatchConditionsResult {
  const errors: string[] = [];
  for (const c of conditions ?? []) {
    const r = evalCel(c.expression, bindings);
    if ('error' in r) errors.push(`expression '${c.expression}' resulted in error: ${r.error}`);
    else if (r.value === false) return { matches: false };
    else if (r.value !== true) errors.push(`expression '${c.expression}' resulted in error: must evaluate to bool`);
  }
  // utilerrors.NewAggregate: the same message once, several in brackets
  return errors.length ? { matches: false, error: aggregate([...new Set(errors)]) } : { matches: true };
}
