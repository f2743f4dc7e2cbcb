// CEL expressions of admission configurations are compiled when they are written, so a broken one is a 422 at
// create time rather than a failure on every request (upstream: the CEL compile checks of admissionregistration
// validation).
import { compile } from '../../apimachinery/cel/index.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue } from '../../apimachinery/field.js';

export function celCompileErrors(path: string, expression: string): StatusCause[] {
  try {
    compile(expression);
    return [];
  } catch (err) {
    return [invalidValue(path, expression, `compilation failed: ${(err as Error).message}`)];
  }
}
