// CEL for admission (webhook matchConditions, ValidatingAdmissionPolicy): @bufbuild/cel with the
// strings extension, objects converted as the CRD validation rules convert them (integers as int).
import { celEnv, isCelError, parse, plan, type CelInput, type CelResult } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { toCel } from '../../registry/customresources/cel.js';

export type Program = (bindings: Record<string, CelInput>) => CelResult;

const env = celEnv({ funcs: strings });
const programs = new Map<string, Program | Error>();

/** Parses and plans an expression once per process; throws the compile error (cached as well). */
export function compileCel(expr: string): Program {
  let p = programs.get(expr);
  if (!p) {
    try {
      p = plan(env, parse(expr)) as Program;
    } catch (err) {
      p = err instanceof Error ? err : new Error(String(err));
    }
    programs.set(expr, p);
  }
  if (p instanceof Error) throw p;
  return p;
}

/** A JSON value (object, request, params) as CEL sees it; null for absent. */
export const celValue = (v: unknown): CelInput => toCel(v, undefined);

export type EvalResult = { value: unknown } | { error: string };

/** Runs an expression; compile and runtime errors become `{ error }`. */
export function evalCel(expr: string, bindings: Record<string, CelInput>): EvalResult {
  let program: Program;
  try {
    program = compileCel(expr);
  } catch (err) {
    return { error: `compilation failed: ${(err as Error).message}` };
  }
  let r: CelResult;
  try {
    r = program(bindings);
  } catch (err) {
    return { error: (err as Error).message };
  }
  if (isCelError(r)) return { error: r.message };
  return { value: r };
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
