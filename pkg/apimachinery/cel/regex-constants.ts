// Constant regular expressions RE2 refuses, caught before a rule runs as Kubernetes' environment catches them:
// cel-go's regex-literal validator (a compile error, "invalid matches argument" at the literal), then, when the
// program is made, cel-go's regex optimizations for matches (Kubernetes evaluates with OptOptimize) and the regex
// library's find/findAll, which compile a constant pattern up front and fail with Go's error.
import type { Ast } from './env.js';
import { goRegexpError } from '../go-regexp.js';

type Expr = NonNullable<Ast>;

const stringConstant = (e: Ast | undefined): string | undefined =>
  (e?.exprKind.case === 'constExpr' && e.exprKind.value.constantKind.case === 'stringValue' ? e.exprKind.value.constantKind.value : undefined);

function children(e: Expr): Array<Ast | undefined> {
  const k = e.exprKind;
  switch (k.case) {
    case 'selectExpr': return [k.value.operand];
    case 'callExpr': return [k.value.target, ...k.value.args];
    case 'listExpr': return k.value.elements;
    case 'structExpr': return k.value.entries.flatMap((x) => [x.keyKind.case === 'mapKey' ? x.keyKind.value : undefined, x.value]);
    case 'comprehensionExpr': return [k.value.iterRange, k.value.accuInit, k.value.loopCondition, k.value.loopStep, k.value.result];
    default: return [];
  }
}

/** Every node below and including `e`, children first (the order cel-go's planner meets them in). */
function* postOrder(e: Ast | undefined): Generator<Expr> {
  if (!e) return;
  for (const c of children(e)) yield* postOrder(c);
  yield e;
}

/**
 * The constant `matches` arguments cel-go's validator refuses. It reads the first argument after any target, so
 * the global matches(s, re) has its string checked rather than its pattern, as upstream.
 */
export function invalidMatchesArguments(ast: Ast): Expr[] {
  return [...postOrder(ast)].flatMap((e) => {
    if (e.exprKind.case !== 'callExpr' || e.exprKind.value.function !== 'matches') return [];
    const arg = e.exprKind.value.args[0];
    const pattern = stringConstant(arg);
    return pattern !== undefined && goRegexpError(pattern) !== undefined ? [arg!] : [];
  });
}

const OPTIMIZED = new Set(['matches', 'find', 'findAll']);

/** Go's error for the first constant pattern of matches, find or findAll RE2 refuses when the program is made. */
export function regexProgramError(ast: Ast): string | undefined {
  for (const e of postOrder(ast)) {
    if (e.exprKind.case !== 'callExpr' || !OPTIMIZED.has(e.exprKind.value.function)) continue;
    const { target, args } = e.exprKind.value;
    // the pattern is the second operand, a target counted first
    const pattern = stringConstant(target ? args[0] : args[1]);
    const error = pattern === undefined ? undefined : goRegexpError(pattern);
    if (error) return error;
  }
  return undefined;
}
