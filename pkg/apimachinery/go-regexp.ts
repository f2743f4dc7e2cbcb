// Schema `pattern`s are Go regular expressions (RE2: `(?i)`, `[[:alpha:]]`, `\pL`, `\z`, `(?P<name>…)`; no lookaround
// nor backreferences), compiled as upstream's regexp.Compile and matched as its MatchString (anywhere in the value),
// through re2js, a port of RE2 whose errors are Go's ("error parsing regexp: invalid or unsupported Perl syntax: `(?!`").
import type { CodeOptions } from 'ajv';
import { RE2JS } from 're2js';

const MAX_CACHED = 1000;
const compiled = new Map<string, RE2JS>();

/** The compiled pattern, shared by every schema that has it; throws Go's error for a pattern RE2 refuses. */
export function compileGoRegexp(pattern: string): RE2JS {
  let re = compiled.get(pattern);
  if (!re) {
    re = RE2JS.compile(pattern);
    // patterns come from CRDs: a bound keeps a stream of edited ones from growing the cache without end
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

/** Ajv's `code.regExp`: the schemas' `pattern` keyword matched with RE2. */
export const goRegExpEngine: NonNullable<CodeOptions['regExp']> = Object.assign(
  (pattern: string) => {
    const re = compileGoRegexp(pattern);
    // the key ajv shares a compiled pattern under within one validator
    return { test: (s: string) => re.test(s), toString: () => `re2:${pattern}` };
  },
  { code: 're2js' },
);
