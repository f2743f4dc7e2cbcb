// Kubernetes' regex library (upstream: apiserver/pkg/cel/library/regex.go): find and findAll on strings. Patterns
// run as JavaScript regular expressions (RE2 syntax is a subset for the patterns CRDs use).
import { celMethod, listType, type CelFunc } from '@bufbuild/cel';
import { INT, STRING } from './types.js';

const compiled = new Map<string, RegExp>();
function regex(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (!re) {
    re = new RegExp(pattern, 'gu');
    compiled.set(pattern, re);
  }
  re.lastIndex = 0;
  return re;
}

function findAll(s: string, pattern: string, limit: number): string[] {
  if (limit === 0) return [];
  const out: string[] = [];
  for (const m of s.matchAll(regex(pattern))) {
    out.push(m[0]);
    if (limit > 0 && out.length >= limit) break;
  }
  return out;
}

export const regexFuncs: CelFunc[] = [
  celMethod('find', STRING, [STRING], STRING, function (p) { return findAll(this, p, 1)[0] ?? ''; }),
  celMethod('findAll', STRING, [STRING], listType(STRING), function (p) { return findAll(this, p, -1); }),
  celMethod('findAll', STRING, [STRING, INT], listType(STRING), function (p, n) { return findAll(this, p, Number(n)); }),
];
