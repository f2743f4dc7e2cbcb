// cel-go's two-variable comprehensions (ext.TwoVarComprehensions, in Kubernetes' environment since 1.32):
// all(i, v, p), exists(i, v, p), existsOne(i, v, p), transformList(i, v, [filter,] e), transformMap(k, v,
// [filter,] e) and transformMapEntry(k, v, e). @bufbuild/cel's parser expands only the one-variable macros, so
// each call is rewritten after parsing into a one-variable macro over the target's indices (lists) or keys
// (maps), with the value variable read as target[index]; templates come from the parser itself.
import { celFunc, isCelList, isCelMap, listType, mapType, parse, type CelFunc, type CelInput, type CelValue } from '@bufbuild/cel';
import { DYN } from './library/types.js';

type Expr = ReturnType<typeof parse>['expr'];

// Placeholders the parser accepts: __target__ (the comprehension's target), __filter__, __body__, and helper calls
// spelled __name__(...) that become the "@name" functions below.
const RANGE = '__keys__(__target__)';
const TWO_VAR: Record<string, (i: string, filtered: boolean) => string> = {
  all: (i) => `${RANGE}.all(${i}, __body__)`,
  exists: (i) => `${RANGE}.exists(${i}, __body__)`,
  existsOne: (i) => `${RANGE}.exists_one(${i}, __body__)`,
  transformList: (i, f) => (f ? `${RANGE}.map(${i}, __filter__, __body__)` : `${RANGE}.map(${i}, __body__)`),
  transformMap: (i, f) => (f ? `__zipmap__(${RANGE}.filter(${i}, __filter__), ${RANGE}.map(${i}, __filter__, __body__))` : `__zipmap__(${RANGE}, ${RANGE}.map(${i}, __body__))`),
  transformMapEntry: (i) => `__mergemaps__(${RANGE}.map(${i}, __body__))`,
};
const FILTERABLE = new Set(['transformList', 'transformMap']);

/** The helpers the rewrites call; their names start with "@", which no expression can spell. */
export const comprehensionFuncs: CelFunc[] = [
  celFunc('@keys', [DYN], listType(DYN), (v: CelValue) => {
    if (isCelList(v)) return Array.from({ length: v.size }, (_, i) => BigInt(i));
    if (isCelMap(v)) return [...v.keys()] as CelInput[];
    throw new Error('no such overload: two-variable comprehension over a value that is neither a list nor a map');
  }),
  celFunc('@zipmap', [listType(DYN), listType(DYN)], mapType(DYN, DYN), (keys, values) => {
    const out = new Map<CelInput, CelInput>();
    const vs = [...values];
    [...keys].forEach((k, i) => out.set(k as CelInput, vs[i] as CelInput));
    return out as never;
  }),
  celFunc('@mergemaps', [listType(DYN)], mapType(DYN, DYN), (maps) => {
    const out = new Map<CelInput, CelInput>();
    for (const m of maps) {
      if (!isCelMap(m)) throw new Error('transformMapEntry: the expression must return a map');
      for (const [k, v] of m) {
        if (out.has(k as CelInput)) throw new Error(`insert failed: key ${String(k)} already exists`);
        out.set(k as CelInput, v as CelInput);
      }
    }
    return out as never;
  }),
];

/**
 * Each rewritten node's call as written: Kubernetes 1.32 runs these macros in stored expressions but compiles new
 * ones without them (its compatibility version is 1.31), so the checker sees the call cel-go's parser would leave.
 */
export const twoVarCalls = new WeakMap<Expr, Expr>();

const identName = (e: Expr | undefined): string | undefined => (e?.exprKind.case === 'identExpr' ? e.exprKind.value.name : undefined);

/** Replaces, in place, identifiers named `name` not shadowed by an inner comprehension. */
function substitute(e: Expr | undefined, name: string, make: () => Expr): void {
  if (!e) return;
  const k = e.exprKind;
  const visit = (child: Expr | undefined, set: (x: Expr) => void): void => {
    if (!child) return;
    if (identName(child) === name) set(make());
    else substitute(child, name, make);
  };
  switch (k.case) {
    case 'selectExpr': visit(k.value.operand, (x) => { k.value.operand = x; }); break;
    case 'callExpr':
      visit(k.value.target, (x) => { k.value.target = x; });
      k.value.args.forEach((a, i) => visit(a, (x) => { k.value.args[i] = x; }));
      break;
    case 'listExpr': k.value.elements.forEach((a, i) => visit(a, (x) => { k.value.elements[i] = x; })); break;
    case 'structExpr':
      for (const entry of k.value.entries) {
        visit(entry.value, (x) => { entry.value = x; });
        if (entry.keyKind.case === 'mapKey') {
          const key = entry.keyKind;
          visit(key.value, (x) => { key.value = x; });
        }
      }
      break;
    case 'comprehensionExpr': {
      const c = k.value;
      visit(c.iterRange, (x) => { c.iterRange = x; });
      visit(c.accuInit, (x) => { c.accuInit = x; });
      if ([c.iterVar, c.iterVar2, c.accuVar].includes(name)) break;
      visit(c.loopCondition, (x) => { c.loopCondition = x; });
      visit(c.loopStep, (x) => { c.loopStep = x; });
      visit(c.result, (x) => { c.result = x; });
      break;
    }
    default:
  }
}

/** Rewrites every two-variable comprehension under `e` (children first), in place. */
export function expandTwoVarComprehensions(e: Expr | undefined): void {
  if (!e) return;
  const k = e.exprKind;
  switch (k.case) {
    case 'selectExpr': expandTwoVarComprehensions(k.value.operand); return;
    case 'listExpr': k.value.elements.forEach(expandTwoVarComprehensions); return;
    case 'structExpr': k.value.entries.forEach((x) => { expandTwoVarComprehensions(x.value); if (x.keyKind.case === 'mapKey') expandTwoVarComprehensions(x.keyKind.value); }); return;
    case 'comprehensionExpr': [k.value.iterRange, k.value.accuInit, k.value.loopCondition, k.value.loopStep, k.value.result].forEach(expandTwoVarComprehensions); return;
    case 'callExpr': break;
    default: return;
  }
  const call = k.value;
  const template = TWO_VAR[call.function];
  const [iArg, vArg] = call.args;
  const i = identName(iArg);
  const v = identName(vArg);
  const filtered = call.args.length === 4 && FILTERABLE.has(call.function);
  const target = call.target;
  const expands = Object.hasOwn(TWO_VAR, call.function) && target && i && v && (call.args.length === 3 || filtered);
  if (expands) twoVarCalls.set(e, structuredClone(e));
  expandTwoVarComprehensions(target);
  call.args.forEach(expandTwoVarComprehensions);
  if (!expands) return;
  const valueOf = (): Expr => {
    const index = parse(`__target__[${i}]`).expr;
    substitute(index, '__target__', () => structuredClone(target));
    return index;
  };
  const withValue = (x: Expr): Expr => {
    if (identName(x) === v) return valueOf();
    substitute(x, v, valueOf);
    return x;
  };
  const filter = filtered ? withValue(call.args[2]!) : undefined;
  const body = withValue(call.args[filtered ? 3 : 2]!);
  const rewritten = parse(template(i, filtered)).expr;
  renameHelpers(rewritten);
  substitute(rewritten, '__target__', () => structuredClone(target));
  if (filter) substitute(rewritten, '__filter__', () => structuredClone(filter));
  substitute(rewritten, '__body__', () => structuredClone(body));
  e.exprKind = rewritten.exprKind;
}

/** __name__(...) calls of a template become the "@name" helpers. */
function renameHelpers(e: Expr | undefined): void {
  if (!e) return;
  const k = e.exprKind;
  switch (k.case) {
    case 'callExpr': {
      const m = /^__(\w+)__$/.exec(k.value.function);
      if (m) k.value.function = `@${m[1]}`;
      renameHelpers(k.value.target);
      k.value.args.forEach(renameHelpers);
      return;
    }
    case 'selectExpr': renameHelpers(k.value.operand); return;
    case 'comprehensionExpr': [k.value.iterRange, k.value.accuInit, k.value.loopCondition, k.value.loopStep, k.value.result].forEach(renameHelpers); return;
    default:
  }
}
