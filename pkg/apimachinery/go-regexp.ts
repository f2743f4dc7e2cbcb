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

const testers = new Map<string, (s: string) => boolean>();

/**
 * Go's regexp.MatchString for `pattern` (throws Go's error for a pattern RE2 refuses). A pattern of the subset both
 * engines read alike is tested by JavaScript's RegExp, twenty times faster than re2js: a CRD's 13 patterns cost
 * 10 µs a create through re2js.
 */
export function goRegexpTester(pattern: string): (s: string) => boolean {
  let test = testers.get(pattern);
  if (!test) {
    const re = compileGoRegexp(pattern);
    const js = sameInJavaScript(pattern) ? jsRegExp(pattern) : undefined;
    test = js ? (s) => js.test(s) : (s) => re.test(s);
    if (testers.size >= MAX_CACHED) testers.clear();
    testers.set(pattern, test);
  }
  return test;
}

const jsRegExp = (pattern: string): RegExp | undefined => {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
};

/** Escapes both read alike: ASCII digit and word classes (not `\s`: JavaScript's has Unicode spaces), punctuation. */
const SAME_ESCAPES = new Set('dDwW\\./+*?()[]{}|^$-');

/**
 * Whether RE2 and JavaScript's RegExp (u flag: code points as Go's runes) answer alike whether `pattern` matches, for a
 * pattern RE2 accepts: printable ASCII, escapes of SAME_ESCAPES, classes without nested `[` (POSIX classes), groups
 * capturing or `(?:`, anchors, alternation and quantifiers ({n,m} as a repetition only). Not `.` (JavaScript's also
 * refuses \r, U+2028, U+2029), flags, Unicode classes, `\s`, `\b` nor anything else: those stay with re2js.
 */
export function sameInJavaScript(pattern: string): boolean {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    const code = c.charCodeAt(0);
    if (code < 0x20 || code > 0x7e) return false;
    if (c === '\\') {
      if (!SAME_ESCAPES.has(pattern[i + 1] ?? '')) return false;
      i++;
    } else if (inClass) {
      if (c === '[') return false;
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
      // a `]` first in a class is a literal to Go, the end of an empty class to JavaScript
      if (pattern[i + 1] === ']' || (pattern[i + 1] === '^' && pattern[i + 2] === ']')) return false;
    } else if (c === '.' || c === '}') {
      return false;
    } else if (c === '{') {
      // a repetition; any other brace is a literal to Go and an error to JavaScript
      const count = /^\{\d+(?:,\d*)?\}/.exec(pattern.slice(i));
      if (!count) return false;
      i += count[0].length - 1;
    } else if (c === '(' && pattern[i + 1] === '?') {
      if (pattern[i + 2] !== ':') return false;
      i += 2;
    }
  }
  return !inClass;
}
