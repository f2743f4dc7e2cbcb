// CEL's regular expressions, Go's (RE2) as cel-go's: the standard `matches` (a method and, as cel-go declares it, a
// global function), true when the pattern matches anywhere in the string as Go's MatchString; and Kubernetes' regex
// library (upstream: apiserver/pkg/cel/library/regex.go), `find` and `findAll` as Go's FindString and FindAllString.
// A pattern RE2 refuses is, at evaluation, Go's error as is for matches and "Illegal regex: <it>" for find/findAll;
// a constant one is refused when the rule is compiled (see regex-constants.ts). Compiled patterns are cached.
import { celFunc, celMethod, listType, type CelFunc } from '@bufbuild/cel';
import { compileGoRegexp } from '../../go-regexp.js';
import { BOOL, INT, STRING } from './types.js';

function illegal(pattern: string): ReturnType<typeof compileGoRegexp> {
  try {
    return compileGoRegexp(pattern);
  } catch (err) {
    throw new Error(`Illegal regex: ${(err as Error).message}`);
  }
}

/** Go's FindAllString: at most `limit` matches (all when negative), an empty match right after a match left out. */
function findAll(s: string, pattern: string, limit: number): string[] {
  const m = illegal(pattern).matcher(s);
  const out: string[] = [];
  let prevEnd = -1;
  while ((limit < 0 || out.length < limit) && m.find()) {
    const [start, end] = [m.start(), m.end()];
    if (start !== end || start !== prevEnd) out.push(m.group() ?? '');
    prevEnd = end;
  }
  return out;
}

export const regexFuncs: CelFunc[] = [
  // replaces @bufbuild/cel's own (the same overload, registered later), which compiles the pattern on every call
  celMethod('matches', STRING, [STRING], BOOL, function (p) { return compileGoRegexp(p).test(this); }),
  celFunc('matches', [STRING, STRING], BOOL, (s, p) => compileGoRegexp(p).test(s)),
  celMethod('find', STRING, [STRING], STRING, function (p) { return findAll(this, p, 1)[0] ?? ''; }),
  celMethod('findAll', STRING, [STRING], listType(STRING), function (p) { return findAll(this, p, -1); }),
  celMethod('findAll', STRING, [STRING, INT], listType(STRING), function (p, n) { return findAll(this, p, Number(n)); }),
];
