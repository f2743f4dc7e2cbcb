// CEL for admission (webhook matchConditions, ValidatingAdmissionPolicy): the same Kubernetes CEL environment as
// CRD validation rules, objects converted as those rules convert them (integers as int).
import { isCelError, type CelInput } from '@bufbuild/cel';
import { compile, evaluate, type Program } from '../../apimachinery/cel/index.js';
import { toCel } from '../../registry/customresources/cel.js';

/** A JSON value (object, request, params) as CEL sees it; null for absent. */
export const celValue = (v: unknown): CelInput => toCel(v, undefined);

export type EvalResult = { value: unknown } | { error: string };

/** Runs an expression; compile and runtime errors (passing upstream's per-call cost limit among them) become `{ error }`. */
export function evalCel(expr: string, bindings: Record<string, CelInput>): EvalResult {
  let program: Program;
  try {
    program = compile(expr).program;
  } catch (err) {
    return { error: `compilation failed: ${(err as Error).message}` };
  }
  const { result } = evaluate(program, bindings);
  if (result instanceof Error || isCelError(result)) return { error: result.message };
  return { value: result };
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
    if ('error' in r) errors.push(`expression '${c.name}' resulted in error: ${r.error}`);
    else if (r.value === false) return { matches: false };
    else if (r.value !== true) errors.push(`expression '${c.name}' resulted in error: must evaluate to bool`);
  }
  return errors.length ? { matches: false, error: errors.join(', ') } : { matches: true };
}
