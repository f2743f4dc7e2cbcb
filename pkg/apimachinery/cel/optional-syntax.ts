// CEL's optional syntax, which Kubernetes enables: `x.?f` and `x[?k]` (an optional of the field or entry, none when
// absent), selects and indexes after them (applied inside the optional), `[a, ?b]` and `{?k: v}`
// (the element or entry left out when the optional is none). @bufbuild/cel's parser has none of it, so the source is
// first spelled in plain CEL with marker names (`x.__opt__f`, `x[__optidx__(k)]`, `__optmark__(v)`), which
// `lowerOptionalSyntax` then turns into calls of the "@opt…" helpers below (names no expression can spell).
import { celFunc, isCelList, isCelMap, listType, mapType, parse, type CelFunc, type CelInput, type CelValue } from '@bufbuild/cel';
import type { ReflectMessage } from '@bufbuild/protobuf/reflect';
import { BOOL, DYN, OPTIONAL_TYPE, optionalNone, optionalOf, optionalPresent, optionalValue, STRING } from './library/types.js';

type Expr = ReturnType<typeof parse>['expr'];

const SELECT = '__opt__';
const INDEX = '__optidx__';
const MARK = '__optmark__';

interface Frame { open: '(' | '[' | '{'; index: boolean; closeIndex: boolean; wrapping: boolean; wrapNextValue: boolean }

const isIdent = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9_]/.test(c);

/** The source spelled with markers, and for each of its offsets (and its end) the offset in `src` it came from. */
export interface Rewritten {
  text: string;
  /** Absent when the source has no optional syntax (the text is the source). */
  origin?: number[];
}

/** The source with optional syntax spelled with markers; the same source when it has none. */
export function rewriteOptionalSyntax(src: string): Rewritten {
  if (!src.includes('?')) return { text: src };
  let out = '';
  const origin: number[] = [];
  // text written for the source at offset `at` (inserted markers point at the character they stand before or for)
  const emit = (text: string, at: number): void => {
    out += text;
    for (let n = 0; n < text.length; n++) origin.push(at);
  };
  let prev: string | undefined; // the last significant character outside strings ('"' after a string literal)
  const stack: Frame[] = [];
  const top = (): Frame | undefined => stack[stack.length - 1];
  for (let i = 0; i < src.length;) {
    const c = src[i]!;
    // string and bytes literals, raw or not, single or triple quoted: copied as they are
    const lit = /^(?:[rR][bB]?|[bB][rR]?)?("""|'''|"|')/.exec(src.slice(i, i + 5));
    if (lit && (lit[0].length === lit[1]!.length || !isIdent(src[i - 1]))) {
      const quote = lit[1]!;
      const raw = /[rR]/.test(lit[0].slice(0, -quote.length));
      let j = i + lit[0].length;
      while (j < src.length && !src.startsWith(quote, j)) j += !raw && src[j] === '\\' ? 2 : 1;
      j = Math.min(src.length, j + quote.length);
      out += src.slice(i, j);
      for (let n = i; n < j; n++) origin.push(n);
      i = j;
      prev = '"';
      continue;
    }
    if (/\s/.test(c)) {
      emit(c, i++);
      continue;
    }
    const frame = top();
    if (c === '?' && (prev === '.' || prev === '[' || prev === '{' || (prev === ',' && frame && !frame.index && frame.open !== '('))) {
      if (prev === '.') emit(SELECT, i);
      else if (prev === '[' && frame?.index) {
        emit(`${INDEX}(`, i);
        frame.closeIndex = true;
      } else if (frame?.open === '[') {
        emit(`${MARK}(`, i);
        frame.wrapping = true;
      } else if (frame) frame.wrapNextValue = true; // a map entry: its value gets the marker after the ':'
      i++;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') {
      stack.push({ open: c, index: c === '[' && (isIdent(prev) || prev === ')' || prev === ']' || prev === '}' || prev === '"'), closeIndex: false, wrapping: false, wrapNextValue: false });
    } else if (c === ')' || c === ']' || c === '}' || c === ',') {
      if (frame?.wrapping) {
        emit(')', i);
        frame.wrapping = false;
      }
      if (c === ']' && frame?.closeIndex) emit(')', i);
      if (c !== ',') stack.pop();
    } else if (c === ':' && frame?.open === '{' && frame.wrapNextValue) {
      emit(`:${MARK}(`, i);
      frame.wrapNextValue = false;
      frame.wrapping = true;
      prev = ':';
      i++;
      continue;
    }
    emit(c, i);
    prev = c;
    i++;
  }
  origin.push(src.length);
  return { text: out, origin };
}

const OPTIONAL_RESULTS = new Set(['@optSelect', '@optIndex', '@optThenSelect', '@optThenIndex']);

/** A call node of `fn` with `args`, built from the parser's own output. */
function call(fn: string, args: Expr[]): Expr['exprKind'] {
  const e = parse('__f__(0)').expr;
  if (e.exprKind.case !== 'callExpr') throw new Error('unexpected parse');
  e.exprKind.value.function = fn;
  e.exprKind.value.args = args;
  return e.exprKind;
}

const stringConst = (s: string): Expr => parse(JSON.stringify(s)).expr;
const boolList = (flags: boolean[]): Expr => parse(`[${flags.join(', ')}]`).expr;
const marked = (e: Expr | undefined): Expr | undefined =>
  (e?.exprKind.case === 'callExpr' && e.exprKind.value.function === MARK && !e.exprKind.value.target ? e.exprKind.value.args[0] : undefined);
const yieldsOptional = (e: Expr | undefined): boolean => e?.exprKind.case === 'callExpr' && OPTIONAL_RESULTS.has(e.exprKind.value.function);

/** Turns the markers of `rewriteOptionalSyntax` into the helpers' calls, children first, in place. */
export function lowerOptionalSyntax(e: Expr | undefined): void {
  if (!e) return;
  const k = e.exprKind;
  switch (k.case) {
    case 'selectExpr': {
      lowerOptionalSyntax(k.value.operand);
      const { operand, field, testOnly } = k.value;
      if (testOnly || !operand) return;
      if (field.startsWith(SELECT)) e.exprKind = call('@optSelect', [operand, stringConst(field.slice(SELECT.length))]);
      else if (yieldsOptional(operand)) e.exprKind = call('@optThenSelect', [operand, stringConst(field)]);
      return;
    }
    case 'callExpr': {
      lowerOptionalSyntax(k.value.target);
      k.value.args.forEach(lowerOptionalSyntax);
      const [target, index] = k.value.args;
      if (k.value.function !== '_[_]' || !target || !index) return;
      if (index.exprKind.case === 'callExpr' && index.exprKind.value.function === INDEX && index.exprKind.value.args.length === 1) {
        e.exprKind = call('@optIndex', [target, index.exprKind.value.args[0]!]);
      } else if (yieldsOptional(target)) e.exprKind = call('@optThenIndex', [target, index]);
      return;
    }
    case 'listExpr': {
      k.value.elements.forEach(lowerOptionalSyntax);
      const flags = k.value.elements.map((x) => marked(x) !== undefined);
      if (!flags.includes(true)) return;
      k.value.elements = k.value.elements.map((x) => marked(x) ?? x);
      const list = parse('[]').expr;
      list.exprKind = { ...k };
      e.exprKind = call('@optList', [list, boolList(flags)]);
      return;
    }
    case 'structExpr': {
      for (const entry of k.value.entries) {
        lowerOptionalSyntax(entry.value);
        if (entry.keyKind.case === 'mapKey') lowerOptionalSyntax(entry.keyKind.value);
      }
      const entries = k.value.entries;
      const flags = entries.map((x) => marked(x.value) !== undefined);
      if (k.value.messageName || !flags.includes(true) || entries.some((x) => x.keyKind.case !== 'mapKey')) return;
      const keys = parse('[]').expr;
      const values = parse('[]').expr;
      if (keys.exprKind.case !== 'listExpr' || values.exprKind.case !== 'listExpr') return;
      keys.exprKind.value.elements = entries.map((x) => x.keyKind.value as Expr);
      values.exprKind.value.elements = entries.map((x) => marked(x.value) ?? x.value!);
      e.exprKind = call('@optMap', [keys, values, boolList(flags)]);
      return;
    }
    case 'comprehensionExpr':
      [k.value.iterRange, k.value.accuInit, k.value.loopCondition, k.value.loopStep, k.value.result].forEach(lowerOptionalSyntax);
      return;
    default:
  }
}

const isOptional = (v: unknown): v is ReflectMessage =>
  typeof v === 'object' && v !== null && (v as ReflectMessage).desc?.typeName === 'optional.optional_type';

/** The entry of a map or list, or undefined when absent (and an error for what has no entries). */
function entryOf(v: CelValue, key: CelValue): CelValue | undefined {
  if (isCelMap(v)) return v.has(key as never) ? v.get(key as never) : undefined;
  if (isCelList(v)) {
    const i = typeof key === 'bigint' ? Number(key) : typeof key === 'number' ? key : NaN;
    return Number.isInteger(i) && i >= 0 && i < v.size ? v.get(i) : undefined;
  }
  throw new Error(`no such overload: optional access on ${typeof v}`);
}

/** Applies `f` inside an optional: none stays none. */
const within = (o: CelValue, f: (v: CelValue) => CelValue | undefined): CelInput => {
  if (!isOptional(o) || !optionalPresent(o)) return optionalNone() as CelInput;
  const r = f(optionalValue(o) as CelValue);
  return (r === undefined ? optionalNone() : optionalOf(r)) as CelInput;
};

const present = (v: CelValue | undefined): CelInput => (v === undefined ? optionalNone() : optionalOf(v)) as CelInput;

/** Where a plain select or index inside an optional misses, as cel-go answers it. */
const required = (v: CelValue | undefined, key: CelValue): CelValue => {
  if (v === undefined) throw new Error(`no such key: ${String(key)}`);
  return v;
};

/** Keeps present optionals' values, drops none; what is not flagged stays as it is. */
function keep(values: CelValue[], flags: CelValue[]): { at: number[]; values: CelValue[] } {
  const at: number[] = [];
  const out: CelValue[] = [];
  values.forEach((v, i) => {
    if (flags[i] !== true) {
      at.push(i);
      out.push(v);
    } else if (isOptional(v)) {
      if (optionalPresent(v)) {
        at.push(i);
        out.push(optionalValue(v) as CelValue);
      }
    } else throw new Error('no such overload: an optional element or entry needs an optional value');
  });
  return { at, values: out };
}

export const optionalSyntaxFuncs: CelFunc[] = [
  celFunc('@optSelect', [DYN, STRING], OPTIONAL_TYPE, (v, field) => (isOptional(v) ? within(v, (x) => entryOf(x, field)) : present(entryOf(v, field))) as never),
  celFunc('@optIndex', [DYN, DYN], OPTIONAL_TYPE, (v, key) => (isOptional(v) ? within(v, (x) => entryOf(x, key)) : present(entryOf(v, key))) as never),
  celFunc('@optThenSelect', [OPTIONAL_TYPE, STRING], OPTIONAL_TYPE, (o, field) => within(o as CelValue, (x) => required(entryOf(x, field), field)) as never),
  celFunc('@optThenIndex', [OPTIONAL_TYPE, DYN], OPTIONAL_TYPE, (o, key) => within(o as CelValue, (x) => required(entryOf(x, key), key)) as never),
  celFunc('@optList', [listType(DYN), listType(BOOL)], listType(DYN), (list, flags) => keep([...list], [...flags]).values as CelInput[]),
  celFunc('@optMap', [listType(DYN), listType(DYN), listType(BOOL)], mapType(DYN, DYN), (keys, values, flags) => {
    const allKeys = [...keys];
    const kept = keep([...values], [...flags]);
    const out = new Map<CelInput, CelInput>();
    kept.at.forEach((i, j) => out.set(allKeys[i] as CelInput, kept.values[j] as CelInput));
    return out as never;
  }),
];
