// Ajv's `pattern` keyword as upstream's: a Go regular expression (see apimachinery/go-regexp.ts) matched as its
// MatchString, anywhere in the value.
import type { CodeOptions } from 'ajv';
import { goRegexpTester } from '../../apimachinery/go-regexp.js';

/** Ajv's `code.regExp`: the schemas' `pattern` keyword matched with RE2. */
export const goRegExpEngine: NonNullable<CodeOptions['regExp']> = Object.assign(
  (pattern: string) => {
    const test = goRegexpTester(pattern);
    // the key ajv shares a compiled pattern under within one validator
    return { test, toString: () => `re2:${pattern}` };
  },
  { code: 're2js' },
);
