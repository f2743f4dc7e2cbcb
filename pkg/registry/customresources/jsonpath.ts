// The simple JSONPath of printer columns, selectable fields and scale paths (client-go's jsonpath, the subset
// CRDs use): ".a.b", ".a[0]", ".a['x.y']", ".a[*].b", ".a[?(@.type==\"Ready\")].status".
import { isPlainObject } from '../schema/index.js';

type Step = { key: string } | { index: number } | { all: true } | { filter: { path: string[]; op: '==' | '!='; value: unknown } };

const cache = new Map<string, Step[]>();

export function parseJsonPath(expr: string): Step[] {
  const cached = cache.get(expr);
  if (cached) return cached;
  let s = expr.trim();
  if (s.startsWith('{') && s.endsWith('}')) s = s.slice(1, -1);
  if (s.startsWith('$')) s = s.slice(1);
  const steps: Step[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === '.') {
      i++;
      const m = /^[^.[\]]+/.exec(s.slice(i));
      if (!m) continue;
      steps.push(m[0] === '*' ? { all: true } : { key: m[0] });
      i += m[0].length;
    } else if (c === '[') {
      const end = findClose(s, i);
      const inner = s.slice(i + 1, end).trim();
      i = end + 1;
      if (inner === '*') steps.push({ all: true });
      else if (/^-?\d+$/.test(inner)) steps.push({ index: Number(inner) });
      else if (/^'.*'$|^".*"$/.test(inner)) steps.push({ key: inner.slice(1, -1) });
      else if (inner.startsWith('?(') && inner.endsWith(')')) {
        const m = /^@((?:\.[^.=!\s]+)+)\s*(==|!=)\s*(.+)$/.exec(inner.slice(2, -1).trim());
        if (!m) throw new Error(`unsupported filter ${inner}`);
        const raw = m[3]!.trim();
        const value: unknown = /^'.*'$/.test(raw) ? raw.slice(1, -1) : JSON.parse(raw) as unknown;
        steps.push({ filter: { path: m[1]!.slice(1).split('.'), op: m[2] as '==' | '!=', value } });
      } else throw new Error(`unsupported JSONPath segment [${inner}]`);
    } else {
      const m = /^[^.[\]]+/.exec(s.slice(i));
      if (!m) throw new Error(`unexpected ${c} in ${expr}`);
      steps.push({ key: m[0] });
      i += m[0].length;
    }
  }
  cache.set(expr, steps);
  return steps;
}

function findClose(s: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '\'' || c === '"') quote = c;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i;
  }
  throw new Error(`unclosed [ in ${s}`);
}

/** Every value the path reaches, in order (missing keys give none). */
export function findAll(obj: unknown, expr: string): unknown[] {
  let current: unknown[] = [obj];
  for (const step of parseJsonPath(expr)) {
    const next: unknown[] = [];
    for (const v of current) {
      if ('key' in step) {
        if (isPlainObject(v) && v[step.key] !== undefined) next.push(v[step.key]);
      } else if ('index' in step) {
        if (Array.isArray(v)) {
          const x = v[step.index < 0 ? v.length + step.index : step.index];
          if (x !== undefined) next.push(x);
        }
      } else if ('all' in step) {
        if (Array.isArray(v)) next.push(...v);
        else if (isPlainObject(v)) next.push(...Object.values(v));
      } else if (Array.isArray(v)) {
        const { path, op, value } = step.filter;
        for (const item of v) {
          let x: unknown = item;
          for (const k of path) x = isPlainObject(x) ? x[k] : undefined;
          if ((x === value) === (op === '==')) next.push(item);
        }
      }
    }
    current = next;
  }
  return current;
}

export const findFirst = (obj: unknown, expr: string): unknown => findAll(obj, expr)[0];

/** A simple path (".spec.replicas") as keys, for writing. */
export function simplePath(expr: string): string[] {
  return parseJsonPath(expr).map((s) => {
    if (!('key' in s)) throw new Error(`${expr} is not a simple path`);
    return s.key;
  });
}

export function setPath(obj: Record<string, any>, keys: string[], value: unknown): void {
  let cur = obj;
  keys.slice(0, -1).forEach((k) => {
    if (!isPlainObject(cur[k])) cur[k] = {};
    cur = cur[k] as Record<string, any>;
  });
  cur[keys[keys.length - 1]!] = value;
}
