import { describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import { compileValidator, validateWithSchema } from './validation.js';

const errorsOf = (schema: JSONSchemaProps, value: unknown): string[] =>
  validateWithSchema(compileValidator({ type: 'object', properties: { v: schema } }), { v: value }).map((c) => `${c.field}: ${c.message}`);

describe('string formats as kube-openapi\'s strfmt', () => {
  it('takes a date only when Go\'s time.Parse("2006-01-02") does: the day within its month', () => {
    const date: JSONSchemaProps = { type: 'string', format: 'date' };
    for (const ok of ['2020-02-29', '2021-12-31', '0000-01-01']) expect(errorsOf(date, ok), ok).toEqual([]);
    for (const bad of ['2020-02-30', '2021-02-29', '2021-04-31', '2021-13-01', '2021-00-10', '2021-1-01', '2021-01-01x']) {
      expect(errorsOf(date, bad), bad).toEqual([`v: Invalid value: "${bad}": v in body must be of type date: "${bad}"`]);
    }
  });

  it('takes a date-time as IsDateTime: a valid date, "t" or "T", a zone required, no leap second', () => {
    const dt: JSONSchemaProps = { type: 'string', format: 'date-time' };
    for (const ok of ['2020-02-29T23:59:59Z', '2020-01-01t00:00:00.123+05:30', '2020-01-01T10:00:00z']) expect(errorsOf(dt, ok), ok).toEqual([]);
    for (const bad of ['2020-02-30T00:00:00Z', '2020-01-01 10:00:00Z', '2020-01-01T10:00:00', '2020-01-01T24:00:00Z', '2020-01-01T10:00:60Z', '2020-01-01T10:00:00+0530']) {
      expect(errorsOf(dt, bad), bad).toHaveLength(1);
    }
  });
});

describe('schema patterns as Go regular expressions (RE2)', () => {
  it('matches RE2 syntax JavaScript lacks, anywhere in the value as Go\'s MatchString', () => {
    const cases: Array<[string, string, boolean]> = [
      ['(?i)^abc$', 'ABC', true], ['^[[:alpha:]]+$', 'abc', true], ['^[[:alpha:]]+$', 'ab1', false], ['^\\pL+\\z', 'héllo', true],
      ['^\\pL+\\z', 'a\n', false], ['^(?P<x>a)$', 'a', true], ['b', 'abc', true], ['^b', 'abc', false],
    ];
    for (const [pattern, value, ok] of cases) {
      expect(errorsOf({ type: 'string', pattern }, value), `${pattern} ~ ${value}`)
        .toEqual(ok ? [] : [`v: Invalid value: ${JSON.stringify(value)}: v in body should match '${pattern}'`]);
    }
  });
});
