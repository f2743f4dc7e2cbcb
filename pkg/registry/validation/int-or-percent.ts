// IntOrString fields that hold a count or a percentage (maxSurge, maxUnavailable), as upstream's apps validation
// checks them (ValidatePositiveIntOrPercent, IsNotMoreThan100Percent, getIntOrPercentValue).
//
//   validatePositiveIntOrPercent(v, path)   // "25%" or a non-negative integer
//   notMoreThan100Percent(v, path)          // a percentage of at most 100%
//   intOrPercentValue(v): number            // the number or the percentage's number (Go's IntValue() otherwise)
import type { StatusCause } from '../../apimachinery/errors.js';
import { regexError } from '../../apimachinery/names.js';
import { goIntOrString, invalidRendered } from './go-values.js';
import { IS_NEGATIVE_ERROR } from './numbers.js';

const PERCENT_FMT = '[0-9]+%';
const PERCENT = /^[0-9]+%$/;
export const PERCENT_ERROR = regexError("a valid percent string must be a numeric string followed by an ending '%'", PERCENT_FMT, '1%', '93%');

/** Upstream's IsValidPercent. */
export const isValidPercent = (s: string): boolean => PERCENT.test(s);

export function validatePositiveIntOrPercent(v: unknown, path: string): StatusCause[] {
  if (typeof v === 'string') return isValidPercent(v) ? [] : [invalidRendered(path, goIntOrString(v), PERCENT_ERROR)];
  if (typeof v === 'number') return v < 0 ? [invalidRendered(path, String(v), IS_NEGATIVE_ERROR)] : [];
  return [];
}

/** Go's strconv.Atoi of a whole string (IntOrString.IntValue() of a string that is no percentage). */
const atoi = (s: string): number => (/^[+-]?\d+$/.test(s) ? Number(s) : 0);

export const intOrPercentValue = (v: unknown): number => {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return 0;
  return isValidPercent(v) ? Number(v.slice(0, -1)) : atoi(v);
};

export const notMoreThan100Percent = (v: unknown, path: string): StatusCause[] =>
  (typeof v === 'string' && isValidPercent(v) && Number(v.slice(0, -1)) > 100
    ? [invalidRendered(path, goIntOrString(v), 'must not be greater than 100%')] : []);
