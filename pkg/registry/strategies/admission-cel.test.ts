import { beforeAll, describe, expect, it } from 'vitest';
import { admissionScope, loadCel } from '../../apimachinery/cel/index.js';
import { celCompileErrors } from './admission-cel.js';

beforeAll(async () => { await loadCel(); });

describe('celCompileErrors', () => {
  const path = 'spec.validations[0].expression';
  it("is an invalid value for what the checker refuses, upstream's internal error for a program that cannot be made", () => {
    const scope = admissionScope({ params: false, authorizer: false });
    expect(celCompileErrors(path, 'object.nope(', scope)).toMatchObject([{ reason: 'FieldValueInvalid', field: path }]);
    expect(celCompileErrors(path, "object.metadata.name.find(')') == ''", scope)).toEqual([{
      reason: 'InternalError', field: path, message: 'Internal error: program instantiation failed: error parsing regexp: unexpected ): `)`',
    }]);
    expect(celCompileErrors(path, "object.metadata.name.find('a') == ''", scope)).toEqual([]);
  });
});
