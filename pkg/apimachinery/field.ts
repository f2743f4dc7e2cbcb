// Field errors worded as upstream's k8s.io/apimachinery/pkg/util/validation/field: each helper returns a
// StatusCause whose message is upstream's ErrorBody ("Invalid value: \"x\": detail"), ready for errors.invalid().
//
//   required(field, detail?)               -> "Required value[: detail]"
//   invalidValue(field, value, detail)     -> "Invalid value: <value>: detail"
//   notSupported(field, value, valid[])    -> "Unsupported value: <value>: supported values: \"a\", \"b\""
//   forbidden(field, detail)               -> "Forbidden: detail"
//   duplicate(field, value)                -> "Duplicate value: <value>"
//   notFound(field, value)                 -> "Not found: <value>"
//   tooLong(field, maxBytes)               -> "Too long: may not be more than N bytes"
//   causeToString(c)                       -> "field: body", as field.Error.Error() renders it
import { fieldCause, type StatusCause } from './errors.js';

/** Go's rendering of a bad value in ErrorBody: %q for strings, %v for scalars, %#v for string slices. */
export const formatValue = (value: unknown): string => {
  // a nil value (or pointer) is the string "null" to field.Error's ErrorBody, so it is quoted as strings are
  if (value === null || value === undefined) return '"null"';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    return `[]string{${value.map((v) => JSON.stringify(v)).join(', ')}}`;
  }
  return JSON.stringify(value);
};

const withDetail = (body: string, detail?: string): string => (detail ? `${body}: ${detail}` : body);

export const required = (field: string, detail = ''): StatusCause =>
  fieldCause('FieldValueRequired', field, withDetail('Required value', detail));

export const invalidValue = (field: string, value: unknown, detail = ''): StatusCause =>
  fieldCause('FieldValueInvalid', field, withDetail(`Invalid value: ${formatValue(value)}`, detail));

export const notSupported = (field: string, value: unknown, valid: string[]): StatusCause =>
  fieldCause('FieldValueNotSupported', field, withDetail(`Unsupported value: ${formatValue(value)}`,
    valid.length ? `supported values: ${valid.map((v) => JSON.stringify(v)).join(', ')}` : ''));

export const forbidden = (field: string, detail: string): StatusCause =>
  fieldCause('FieldValueForbidden', field, withDetail('Forbidden', detail));

/** field.InternalError: a failure of the server's own, not of the value. */
export const internalError = (field: string, detail: string): StatusCause =>
  fieldCause('InternalError', field, `Internal error: ${detail}`);

export const duplicate = (field: string, value: unknown): StatusCause =>
  fieldCause('FieldValueDuplicate', field, `Duplicate value: ${formatValue(value)}`);

export const notFound = (field: string, value: unknown): StatusCause =>
  fieldCause('FieldValueNotFound', field, `Not found: ${formatValue(value)}`);

/** field.TooLong as 1.32 words it (its deprecated TooLongMaxLength too). */
export const tooLong = (field: string, maxBytes: number): StatusCause =>
  fieldCause('FieldValueTooLong', field, `Too long: may not be more than ${maxBytes} bytes`);

export const causeToString = (c: StatusCause): string => `${c.field ?? '<nil>'}: ${c.message ?? ''}`;
