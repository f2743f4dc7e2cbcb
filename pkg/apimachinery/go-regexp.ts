// Go regular expressions (RE2: `(?i)`, `[[:alpha:]]`, `\pL`, `\z`, `(?P<name>…)`; no lookaround nor backreferences),
// compiled as upstream's regexp.Compile, through re2js, a port of RE2 whose errors are Go's ("error parsing regexp:
// invalid or unsupported Perl syntax: `(?!`"). CRD schema patterns and CEL's matches/find/findAll share them.
import { RE2JS } from 're2js';

const MAX_CACHED = 1000;
const compiled = new Map<string, RE2JS>();

/** The compiled pattern, shared by every user of it; throws Go's error for a pattern RE2 refuses. */
export function compileGoRegexp(pattern: string): RE2JS {
  let re = compiled.get(pattern);
  if (!re) {
    re = RE2JS.compile(pattern);
    // patterns come from CRDs and CEL values: a bound keeps a stream of new ones from growing the cache without end
    if (compiled.size >= MAX_CACHED) compiled.clear();
    compiled.set(pattern, re);
  }
  return re;
}

/** Go's regexp.Compile error text for `pattern`, undefined when it compiles. */
export function goRegexpError(pattern: string): string | undefined {
  try {
    compileGoRegexp(pattern);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
