// The CEL environment Kubernetes 1.32 gives CRD validation rules and admission expressions (upstream:
// apiserver/pkg/cel/environment/base.go): standard CEL with the strings extension, then Kubernetes' lists, regex,
// urls, quantity, ip, cidr, format and authorizer libraries, cel-go's sets and optional values. Two-variable
// comprehensions run (1.32 evaluates them in stored expressions) but the checker refuses them in new ones, as 1.32 does.
// One environment serves both x-kubernetes-validations and ValidatingAdmissionPolicy; each expression is parsed
// and planned once per process.
//
// @bufbuild/cel tracks no cost, so every function is wrapped to count its calls: 1 per call, plus a tenth of the
// size of a string or list argument (a quarter of size times pattern for regular expressions), as cel-go's
// runtime cost tracker charges, and the authorizer library's calls what Kubernetes charges for them (a check 350000);
// `evaluate` reports what one evaluation spent and stops it past its limit.
import { celEnv, celError, isCelError, isCelList, isCelMap, parse, plan, type CelFunc, type CelInput, type CelResult } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { comprehensionFuncs, expandTwoVarComprehensions } from './comprehensions.js';
import { BAIL, compileFast, type Charges } from './fast-path.js';
import { COST_LIMIT_EXCEEDED, PER_CALL_LIMIT } from './cost.js';
import { authzCallCost, authzFuncs } from './library/authz.js';
import { formatFuncs } from './library/format.js';
import { listFuncs } from './library/lists.js';
import { netFuncs } from './library/net.js';
import { optionalFuncs } from './library/optional.js';
import { issue } from './issue.js';
import { lowerOptionalSyntax, optionalSyntaxFuncs, rewriteOptionalSyntax } from './optional-syntax.js';
import { quantityFuncs } from './library/quantity.js';
import { regexFuncs } from './library/regex.js';
import { stringCastFuncs } from './library/string-casts.js';
import { registry } from './library/types.js';
import { urlFuncs } from './library/urls.js';

export type Program = (bindings: Record<string, CelInput>) => CelResult;
export type Ast = ReturnType<typeof parse>['expr'];

const LIBRARIES: CelFunc[] = [...stringCastFuncs, ...comprehensionFuncs, ...strings, ...listFuncs, ...regexFuncs, ...urlFuncs, ...quantityFuncs, ...netFuncs, ...formatFuncs, ...optionalFuncs, ...optionalSyntaxFuncs, ...authzFuncs];
const REGEX = new Set(['matches', 'find', 'findAll']);

let spent = 0;
let limit = Number.POSITIVE_INFINITY;


const sizeOf = (v: unknown): number => (typeof v === 'string' ? v.length : typeof v !== 'object' || v === null ? 0 : v instanceof Uint8Array ? v.length : isCelList(v) || isCelMap(v) ? v.size : 0);

function counted(f: CelFunc): CelFunc {
  const regex = REGEX.has(f.name);
  const fixed = authzCallCost(f.name);
  const wrapped = Object.create(f) as CelFunc & { call: CelFunc['call'] };
  // Each overload of a function is wrapped, and a call tries them in turn: only the one that answers is charged.
  wrapped.call = (id, target, args) => {
    const result = f.call(id, target, args);
    if (result === undefined) return result;
    if (fixed) spent += fixed(args);
    else {
      let size = target === undefined ? 0 : sizeOf(target);
      if (regex) size = (target === undefined ? sizeOf(args[0]) * sizeOf(args[1]) : size * sizeOf(args[0])) * 2.5;
      else for (let i = 0; i < args.length; i++) size = Math.max(size, sizeOf(args[i]));
      spent += 1 + Math.ceil(size * 0.1);
    }
    if (spent > limit) throw new Error(COST_LIMIT_EXCEEDED);
    return result;
  };
  return wrapped;
}

const base = celEnv({ registry, funcs: LIBRARIES });
const env = celEnv({ registry, funcs: [...LIBRARIES, ...[...base.funcs].map(counted)] });

export interface Compiled {
  program: Program;
  /** The interpreter alone (`program` may answer through the fast path first): what the fast path is checked against. */
  interpreted: Program;
  ast: Ast;
  /** Offsets of the AST's nodes by id in the expression as written (for compile errors worded as cel-go's). */
  positions: Record<string, number>;
}

const compiled = new Map<string, Compiled | Error>();

/** Every function of the environment by name (namespaced ones as `optional.of`). */
export const functionNames: ReadonlySet<string> = new Set([...env.funcs].map((f) => f.name));
/** One overload as cel-go's checker resolves a call: on a target or not, its parameters' and result's types (`list(dyn)`). */
export interface Overload {
  member: boolean;
  params: string[];
  result: string;
}
/** The overloads of every function of the environment by name: what a new expression may call. */
export const declarations: ReadonlyMap<string, Overload[]> = [...base.funcs].reduce((m, f) => {
  const o = { member: f.target !== undefined, params: [...(f.target ? [f.target] : []), ...f.arguments].map(String), result: String(f.result) };
  return m.set(f.name, [...(m.get(f.name) ?? []), o]);
}, new Map<string, Overload[]>());
/** What the fast path's calls cost: the counted functions' charge for one call with arguments of `size`. */
const charges: Charges = {
  charge(size) {
    spent += 1 + Math.ceil(size * 0.1);
    return spent <= limit;
  },
};

/** The interpreter's program, tried first through the fast path's closures when the expression allows them. */
function withFastPath(slow: Program, ast: Ast): Program {
  const fast = ast && compileFast(ast, functionNames, charges);
  if (!fast) return slow;
  return (bindings) => {
    const before = spent;
    const v = fast(bindings);
    if (v !== BAIL) return v as CelResult;
    spent = before;
    return slow(bindings);
  };
}

/** An offset in the text the parser read (rewritten without optional syntax) as one in the expression as written. */
const original = (at: number, origin: number[] | undefined): number => (origin ? origin[Math.min(at, origin.length - 1)]! : at);

function originalPositions(positions: Record<string, number>, origin: number[] | undefined): Record<string, number> {
  if (!origin) return positions;
  const out: Record<string, number> = {};
  for (const [id, at] of Object.entries(positions)) out[id] = original(at, origin);
  return out;
}

/** A parse error rendered as cel-go renders its syntax errors, at its place in the expression as written. */
function syntaxError(err: unknown, expr: string, origin: number[] | undefined): Error {
  const message = err instanceof Error ? err.message : String(err);
  const offset = (err as { location?: { start?: { offset?: unknown } } }).location?.start?.offset;
  if (typeof offset !== 'number') return new Error(message);
  return new Error(issue(expr, original(offset, origin), `Syntax error: ${message.replace(/^<input>:\d+:\d+: /, '')}`));
}

/** Parses and plans `expr` once per process; throws its syntax error (remembered as well). */
export function compile(expr: string): Compiled {
  let c = compiled.get(expr);
  if (!c) {
    const rewritten = rewriteOptionalSyntax(expr);
    try {
      const parsed = parse(rewritten.text);
      lowerOptionalSyntax(parsed.expr);
      expandTwoVarComprehensions(parsed.expr);
      const interpreted = plan(env, parsed) as Program;
      c = { program: withFastPath(interpreted, parsed.expr), interpreted, ast: parsed.expr, positions: originalPositions(parsed.sourceInfo?.positions ?? {}, rewritten.origin) };
    } catch (err) {
      c = syntaxError(err, expr, rewritten.origin);
    }
    compiled.set(expr, c);
  }
  if (c instanceof Error) throw c;
  return c;
}

/** cel-go's words for the evaluation errors @bufbuild/cel words its own way (a rule's error shows them to clients). */
const CEL_GO_WORDS: Array<[RegExp, string]> = [
  // a key a map lacks (an object's unset field reads as one)
  [/^field not found: /, 'no such key: '],
  [/^u?int divide by zero$/, 'division by zero'],
  [/^u?int modulus by zero$/, 'modulus by zero'],
  [/^int overflow during .*$/, 'integer overflow'],
  [/^uint overflow during .*$/, 'unsigned integer overflow'],
  [/^index (-?\d+) out of bounds \[0, -?\d+\)$/, 'index out of bounds: $1'],
];
const celGoWords = (message: string): string => CEL_GO_WORDS.reduce((m, [from, to]) => m.replace(from, to), message);

/**
 * Runs a program, stopped past `costLimit` (upstream's per-call limit); `cost` is what it spent. A thrown error becomes
 * the result. An evaluation started inside another (a lazily evaluated variable) adds its cost to the outer one's.
 */
export function evaluate(program: Program, bindings: Record<string, CelInput>, costLimit = PER_CALL_LIMIT): { result: CelResult | Error; cost: number } {
  const outer = { spent, limit };
  spent = 0;
  limit = costLimit;
  let result: CelResult | Error;
  try {
    result = program(bindings);
  } catch (err) {
    result = err instanceof Error ? err : new Error(String(err));
  }
  if (isCelError(result)) {
    const words = celGoWords(result.message);
    if (words !== result.message) result = celError(words, result.exprId);
  } else if (result instanceof Error) {
    const words = celGoWords(result.message);
    if (words !== result.message) result = new Error(words);
  }
  const cost = spent;
  spent = outer.spent + cost;
  limit = outer.limit;
  return { result, cost };
}

/** Whether the expression reads a variable (oldSelf makes a transition rule; a messageExpression may not). */
export function reads(e: Ast | undefined, name: string): boolean {
  if (!e) return false;
  const k = e.exprKind;
  switch (k.case) {
    case 'identExpr': return k.value.name === name;
    case 'selectExpr': return reads(k.value.operand, name);
    case 'callExpr': return reads(k.value.target, name) || k.value.args.some((a) => reads(a, name));
    case 'listExpr': return k.value.elements.some((x) => reads(x, name));
    case 'structExpr': return k.value.entries.some((x) => reads(x.value, name) || (x.keyKind.case === 'mapKey' && reads(x.keyKind.value, name)));
    case 'comprehensionExpr': return [k.value.iterRange, k.value.accuInit, k.value.loopCondition, k.value.loopStep, k.value.result].some((x) => reads(x, name));
    default: return false;
  }
}
