// Numeric field checks worded as upstream's core validation (ValidateNonnegativeField and friends).
//
//   nonNegative(value, path): StatusCause[]       // "must be greater than or equal to 0" when value < 0
//   isInt(value): value is number                  // a JSON integer (what decodes into an int32/int64)
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue } from '../../apimachinery/field.js';

export const IS_NEGATIVE_ERROR = 'must be greater than or equal to 0';

export const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** Upstream's ValidateNonnegativeField; absent or non-numeric values are left to the decoder and schema. */
export const nonNegative = (value: unknown, path: string): StatusCause[] =>
  (typeof value === 'number' && value < 0 ? [invalidValue(path, value, IS_NEGATIVE_ERROR)] : []);
