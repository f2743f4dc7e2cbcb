// client-go's util/jsonpath, as printer columns and selectable fields use it (with missing keys allowed): fields
// (".a.b", "['a']", "a\.b" escaped), slices "[start:end:step]" with negative bounds, "[*]", unions "[0,2]",
// recursive descent "..", filters "[?(@.x)]" and "[?(@.x<op>y)]" with == != < > <= >= (no && or ||, as upstream),
// literals; the errors it raises (an index out of bounds, a comparison of unlike types) end the evaluation.
// Scale paths are plain dot paths (upstream splits them on ".").
import { goFloat } from '../../apimachinery/go-format.js';
import { isPlainObject } from '../schema/index.js';

type Param = { known: boolean; value: number; derived?: boolean };
type Node =
  | { t: 'list'; nodes: Node[] }
  | { t: 'text'; text: string }
  | { t: 'field'; name: string }
  | { t: 'array'; params: [Param, Param, Param] }
  | { t: 'filter'; left: Node; right: Node; op: string }
  | { t: 'literal'; value: unknown }
  | { t: 'wildcard' }
  | { t: 'recursive' }
  | { t: 'union'; lists: Node[] }
  | { t: 'identifier'; name: string };
type List = Extract<Node, { t: 'list' }>;

/** An evaluation error with what the failing step returned with it (a filter's exists test reads that, as in Go). */
class PathError extends Error {
  constructor(message: string, readonly partial: unknown[]) {
    super(message);
  }
}

/** A float literal of a path ("1.0"): Go compares it with an integer as unlike types. */
class GoFloat {
  constructor(readonly value: number) {}
}

const EOF = '';
const SLICE = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/;
const DICT_KEY = /^'([^']*)'$/;
const FILTER = /^([^!<>=]+)([!<>=]+)(.+?)$/;
const isTerminator = (r: string): boolean => r === EOF || ' \t\r\n.,[]$@{}'.includes(r);
const isAlphaNumeric = (r: string): boolean => r !== EOF && /^[_\p{L}\p{Nd}]$/u.test(r);

/** client-go's Parser: text with {actions}. */
class Parser {
  private pos = 0;
  private start = 0;
  private width = 0;
  readonly root: List = { t: 'list', nodes: [] };

  constructor(private readonly input: string) {
    this.parseText(this.root);
  }

  private consume(): string {
    const v = this.input.slice(this.start, this.pos);
    this.start = this.pos;
    return v;
  }

  private next(): string {
    if (this.pos >= this.input.length) {
      this.width = 0;
      return EOF;
    }
    const r = String.fromCodePoint(this.input.codePointAt(this.pos)!);
    this.width = r.length;
    this.pos += r.length;
    return r;
  }

  private backup(): void {
    this.pos -= this.width;
  }

  private peek(): string {
    const r = this.next();
    this.backup();
    return r;
  }

  private parseText(cur: List): void {
    for (;;) {
      if (this.input.startsWith('{', this.pos)) {
        if (this.pos > this.start) cur.nodes.push({ t: 'text', text: this.consume() });
        this.pos++;
        this.consume();
        const action: List = { t: 'list', nodes: [] };
        cur.nodes.push(action);
        this.parseInsideAction(action);
        return;
      }
      if (this.next() === EOF) break;
    }
    if (this.pos > this.start) cur.nodes.push({ t: 'text', text: this.consume() });
  }

  private parseInsideAction(cur: List): void {
    for (;;) {
      const rest = this.input.slice(this.pos);
      if (rest.startsWith('}')) {
        this.pos++;
        this.consume();
        this.parseText(this.root);
        return;
      }
      if (rest.startsWith('[?(')) this.parseFilter(cur);
      else if (rest.startsWith('..')) this.parseRecursive(cur);
      else {
        const r = this.next();
        if (r === EOF || r === '\r' || r === '\n') throw new Error('unclosed action');
        if (r === ' ' || r === '@' || r === '$') this.consume();
        else if (r === '[') this.parseArray(cur);
        else if (r === '"' || r === '\'') this.parseQuote(cur, r);
        else if (r === '.') this.parseField(cur);
        else if (r === '+' || r === '-' || /^\p{Nd}$/u.test(r)) {
          this.backup();
          this.parseNumber(cur);
        } else if (isAlphaNumeric(r)) {
          this.backup();
          this.parseIdentifier(cur);
        } else throw new Error(`unrecognized character in action: U+${r.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} '${r}'`);
      }
    }
  }

  private parseIdentifier(cur: List): void {
    while (!isTerminator(this.next()));
    this.backup();
    const v = this.consume();
    cur.nodes.push(v === 'true' || v === 'false' ? { t: 'literal', value: v === 'true' } : { t: 'identifier', name: v });
  }

  private parseRecursive(cur: List): void {
    if (cur.nodes.at(-1)?.t === 'recursive') throw new Error('invalid multiple recursive descent');
    this.pos += 2;
    this.consume();
    cur.nodes.push({ t: 'recursive' });
    if (isAlphaNumeric(this.peek())) this.parseField(cur);
  }

  private parseNumber(cur: List): void {
    if (this.peek() === '+' || this.peek() === '-') this.next();
    for (;;) {
      const r = this.next();
      if (r !== '.' && !/^\p{Nd}$/u.test(r)) {
        this.backup();
        break;
      }
    }
    const v = this.consume();
    if (/^[+-]?\d+$/.test(v)) cur.nodes.push({ t: 'literal', value: Number(v) });
    else if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(v)) cur.nodes.push({ t: 'literal', value: new GoFloat(Number(v)) });
    else throw new Error(`cannot parse number ${v}`);
  }

  private parseArray(cur: List): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === '\n') throw new Error('unterminated array');
      if (r === ']') break;
    }
    let text = this.consume().slice(1, -1);
    if (text === '*') text = ':';
    const parts = text.split(',');
    if (parts.length > 1) {
      cur.nodes.push({ t: 'union', lists: parts.map((p) => action(`[${p.replace(/^ +| +$/g, '')}]`)) });
      return;
    }
    const key = DICT_KEY.exec(text);
    if (key) {
      cur.nodes.push(...action(`.${key[1]}`).nodes);
      return;
    }
    const m = SLICE.exec(text);
    if (!m) throw new Error(`invalid array index ${text}`);
    const params: [Param, Param, Param] = [{ known: false, value: 0 }, { known: false, value: 0 }, { known: false, value: 0 }];
    for (let i = 0; i < 3; i++) {
      const raw = m[i + 1] ?? '';
      if (raw !== '') {
        const v = i > 0 ? raw.slice(1) : raw;
        if (i > 0 && v === '') params[i] = { known: false, value: 0 };
        else if (/^-?\d+$/.test(v)) params[i] = { known: true, value: Number(v) };
        else throw new Error(`array index ${v} is not a number`);
      } else if (i === 1) params[i] = { known: true, value: params[0].value + 1, derived: true };
    }
    cur.nodes.push({ t: 'array', params });
  }

  private parseFilter(cur: List): void {
    this.pos += 3;
    this.consume();
    let begin = false;
    let end = false;
    let pair = '';
    for (;;) {
      const r = this.next();
      if (r === EOF || r === '\n') throw new Error('unterminated filter');
      if (r === '"' || r === '\'') {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (this.input[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === ')' && begin === end) break;
    }
    if (this.next() !== ']') throw new Error('unclosed array expect ]');
    const text = this.consume().slice(0, -2);
    const m = FILTER.exec(text);
    if (!m) cur.nodes.push({ t: 'filter', left: action(text), right: { t: 'list', nodes: [] }, op: 'exists' });
    else cur.nodes.push({ t: 'filter', left: action(m[1]!), right: action(m[3]!), op: m[2]! });
  }

  private parseQuote(cur: List, quote: string): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === '\n') throw new Error('unterminated quoted string');
      if (r === quote && this.input[this.pos - 2] !== '\\') break;
    }
    const v = this.consume();
    cur.nodes.push({ t: 'text', text: unquote(v) });
  }

  private parseField(cur: List): void {
    this.consume();
    for (;;) {
      const r = this.next();
      if (r === '\\') this.next();
      else if (isTerminator(r)) {
        this.backup();
        break;
      }
    }
    const v = this.consume();
    cur.nodes.push(v === '*' ? { t: 'wildcard' } : { t: 'field', name: v.replace(/\\/g, '') });
  }
}

/** The one action of "{text}" (client-go's parseAction). */
const action = (text: string): List => new Parser(`{${text}}`).root.nodes[0] as List;

const ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };

/** strconv-style unquoting of a '…' or "…" literal (client-go's UnquoteExtend). */
function unquote(s: string): string {
  const quote = s[0]!;
  const body = s.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === quote) throw new Error(`unquote string ${s} error invalid syntax`);
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i];
    if (e === undefined) throw new Error(`unquote string ${s} error invalid syntax`);
    if (e === quote) out += e;
    else if (ESCAPES[e]) out += ESCAPES[e];
    else {
      const hex = ({ x: 2, u: 4, U: 8 } as Record<string, number>)[e];
      const digits = body.slice(i + 1, i + 1 + (hex ?? 0));
      if (!hex || !new RegExp(`^[0-9a-fA-F]{${hex}}$`).test(digits)) throw new Error(`unquote string ${s} error invalid syntax`);
      out += String.fromCodePoint(parseInt(digits, 16));
      i += hex;
    }
  }
  return out;
}

const goType = (v: unknown): string =>
  typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'bool' : typeof v === 'number' ? (Number.isInteger(v) ? 'int64' : 'float64')
    : v instanceof GoFloat ? 'float64' : isPlainObject(v) ? 'map[string]interface {}' : 'interface {}';

function evalArray(input: unknown[], params: [Param, Param, Param]): unknown[] {
  const result: unknown[] = [];
  const fail = (message: string): never => {
    throw new PathError(message, input);
  };
  for (const value of input) {
    if (value === null || value === undefined) continue;
    if (!Array.isArray(value)) return fail(`${goType(value)} is not array or slice`);
    const len = value.length;
    let start = params[0].known ? params[0].value : 0;
    if (start < 0) start += len;
    let end = params[1].known ? params[1].value : len;
    if (end < 0 || (end === 0 && params[1].derived)) end += len;
    if (end === start) return result;
    if (start >= len || start < 0) fail(`array index out of bounds: index ${start}, length ${len}`);
    if (end > len || end < 0) fail(`array index out of bounds: index ${end - 1}, length ${len}`);
    if (start > end) fail(`starting index ${start} is greater than ending index ${end}`);
    const step = params[2].known ? params[2].value : 1;
    if (step <= 0) fail('step must be > 0');
    for (let i = start; i < end; i += step) result.push(value[i]);
  }
  return result;
}

/** The children a wildcard or a recursive descent visits: a map's values, a list's items, a string's bytes. */
const children = (v: unknown): unknown[] =>
  isPlainObject(v) ? Object.values(v) : Array.isArray(v) ? v : typeof v === 'string' ? [...Buffer.from(v)] : [];

function evalRecursive(input: unknown[]): unknown[] {
  const result: unknown[] = [];
  for (const value of input) {
    if (value === null || value === undefined) continue;
    const kids = children(value);
    if (kids.length) result.push(value, ...evalRecursive(kids));
  }
  return result;
}

type Kind = 'bool' | 'int' | 'float' | 'string';
function basicKind(v: unknown): Kind {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (v instanceof GoFloat) return 'float';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  throw new Error('invalid type for comparison');
}

/** The Go template comparison functions client-go's filters call (eq, ne, lt, gt, le, ge). */
function compare(op: string, left: unknown, right: unknown): boolean {
  if (!['==', '!=', '<', '>', '<=', '>='].includes(op)) throw new Error(`unrecognized filter operator ${op}`);
  const [k1, k2] = [basicKind(left), basicKind(right)];
  if (k1 !== k2) throw new Error('incompatible types for comparison');
  const [a, b] = [left instanceof GoFloat ? left.value : left, right instanceof GoFloat ? right.value : right] as [number | string | boolean, number | string | boolean];
  if (op === '==') return a === b;
  if (op === '!=') return a !== b;
  if (k1 === 'bool') throw new Error('invalid type for comparison');
  switch (op) {
    case '<': return a < b;
    case '>': return a > b;
    case '<=': return a <= b;
    default: return a >= b;
  }
}

function evalFilter(input: unknown[], node: Extract<Node, { t: 'filter' }>): unknown[] {
  const result: unknown[] = [];
  const sides = (item: unknown, side: Node): unknown[] => {
    const values = walk([item], side);
    if (values.length > 1) throw new PathError('can only compare one element at a time', input);
    return values;
  };
  for (const value of input) {
    if (!Array.isArray(value)) throw new PathError(`${goType(value)} is not array or slice and cannot be filtered`, input);
    for (const item of value) {
      if (node.op === 'exists') {
        let found: unknown[];
        try {
          found = walk([item], node.left);
        } catch (err) {
          found = err instanceof PathError ? err.partial : [];
        }
        if (found.length) result.push(item);
        continue;
      }
      const [left] = sides(item, node.left);
      if (left === undefined) continue;
      const [right] = sides(item, node.right);
      if (right === undefined) continue;
      let pass: boolean;
      try {
        pass = compare(node.op, left, right);
      } catch (err) {
        throw new PathError((err as Error).message, result);
      }
      if (pass) result.push(item);
    }
  }
  return result;
}

function walk(input: unknown[], node: Node): unknown[] {
  switch (node.t) {
    case 'list':
      return node.nodes.reduce((cur, n) => walk(cur, n), input);
    case 'text':
      return [node.text];
    case 'field': {
      const out: unknown[] = [];
      for (const v of input) if (isPlainObject(v) && Object.hasOwn(v, node.name)) out.push(v[node.name]);
      return out;
    }
    case 'array':
      return evalArray(input, node.params);
    case 'filter':
      return evalFilter(input, node);
    case 'literal':
      return input.map(() => node.value);
    case 'wildcard':
      return input.flatMap(children);
    case 'recursive':
      return evalRecursive(input);
    case 'union':
      try {
        return node.lists.flatMap((l) => walk(input, l));
      } catch (err) {
        throw new PathError((err as Error).message, input);
      }
    case 'identifier':
      // range and end (templates looping over lists) are not for a single value: unsupported here
      throw new PathError(`unrecognized identifier ${node.name}`, input);
  }
}

export interface JsonPath {
  /** The values of each action of the template, missing keys giving none; throws what client-go's evaluation returns. */
  findResults(data: unknown): unknown[][];
}

const compiled = new Map<string, JsonPath>();

/** Parses "{.a.b}"-style templates as client-go's JSONPath.Parse; throws its parse errors. */
export function parseJsonPath(template: string): JsonPath {
  let p = compiled.get(template);
  if (!p) {
    const { root } = new Parser(template);
    p = { findResults: (data) => root.nodes.map((n) => walk([data], n)) };
    compiled.set(template, p);
  }
  return p;
}

/** The first value a column or selectable field's path ("{" + path + "}") reaches; undefined when none or on error. */
export function findFirst(obj: unknown, path: string): unknown {
  try {
    return parseJsonPath(`{${path}}`).findResults(obj)[0]?.[0];
  } catch {
    return undefined;
  }
}

/** Go's encoding/json of a decoded value: map keys sorted, <, > and & escaped. */
const goJson = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) => (isPlainObject(x) ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]])) : x))
    .replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** client-go's PrintResults of one value: maps and lists as JSON, null as "<no value>", numbers as Go prints them. */
export function printJsonPathValue(v: unknown): string {
  if (v === null || v === undefined) return '<no value>';
  if (isPlainObject(v) || Array.isArray(v)) return goJson(v);
  if (v instanceof GoFloat) return goFloat(v.value);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloat(v);
  return String(v);
}

/** A scale path (".spec.replicas") as keys. */
export const simplePath = (expr: string): string[] => expr.replace(/^\./, '').split('.');

export function getPath(obj: unknown, keys: string[]): unknown {
  let cur = obj;
  for (const k of keys) cur = isPlainObject(cur) ? cur[k] : undefined;
  return cur;
}

export function setPath(obj: Record<string, any>, keys: string[], value: unknown): void {
  let cur = obj;
  keys.slice(0, -1).forEach((k) => {
    if (!isPlainObject(cur[k])) cur[k] = {};
    cur = cur[k] as Record<string, any>;
  });
  cur[keys[keys.length - 1]!] = value;
}
