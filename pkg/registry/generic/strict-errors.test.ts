// Strict decoding errors in upstream's words and order: repeated fields of the body with the object's unknown fields.
import { describe, expect, it } from 'vitest';
import { scanJson } from '../../apimachinery/json-duplicates.js';
import type { BodyFormat, FieldValidation } from '../context.js';
import { jsonPatchOpErrors, reportApplyDuplicates, reportStrictErrors } from './strict-errors.js';
import { testContext } from './testing.js';

const AS = { kind: 'Deployment', version: 'v1' };

/** A context as the handler leaves it after reading `text` as JSON. */
function jsonContext(text: string, fieldValidation: FieldValidation, bodyFormat: BodyFormat = 'json') {
  const duplicates = scanJson(text, true)?.duplicates;
  return testContext({ fieldValidation, bodyFormat, ...(duplicates ? { bodyErrors: { duplicates: { ...duplicates, text } } } : {}) });
}

const BODY = '{"metadata":{"name":"a","name":"b","x":1},"spec":{"u":{"k":1,"k":2},"u":2,"p":true,"p":false,"list":[{"n":1,"z":1,"n":2}]}}';
const UNKNOWN = ['metadata.x', 'spec.u', 'spec.list[0].z'];

describe('reportStrictErrors', () => {
  it('a built-in kind\'s JSON body: document order; repeated under or as an unknown field is unknown only', () => {
    const ctx = jsonContext(BODY, 'Warn');
    reportStrictErrors([...UNKNOWN], ctx, AS, true);
    expect(ctx.warnings).toEqual([
      'duplicate field "metadata.name"', 'unknown field "metadata.x"', 'unknown field "spec.u"', 'duplicate field "spec.p"',
      'unknown field "spec.list[0].z"', 'duplicate field "spec.list[0].n"',
    ]);
    expect(ctx.bodyErrors).toBeUndefined(); // reported once
    reportStrictErrors([], ctx, AS, true);
    expect(ctx.warnings).toHaveLength(6);
  });

  it('Strict makes them one 400 worded as upstream\'s transformDecodeError; Ignore says nothing', () => {
    expect(() => reportStrictErrors([...UNKNOWN], jsonContext(BODY, 'Strict'), AS, true)).toThrow(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: duplicate field "metadata.name", unknown field "metadata.x", ' +
      'unknown field "spec.u", duplicate field "spec.p", unknown field "spec.list[0].z", duplicate field "spec.list[0].n"');
    expect(() => reportStrictErrors([], jsonContext('{"a":1,"a":2}', 'Strict'), undefined, true)).toThrow(/^strict decoding error: duplicate field "a"$/);
    const ignore = jsonContext(BODY, 'Ignore');
    reportStrictErrors([...UNKNOWN], ignore, AS, true);
    expect(ignore.warnings).toEqual([]);
  });

  it('a custom resource (a map) and a patch: every repetition first, then the unknown fields', () => {
    const cr = jsonContext(BODY, 'Warn');
    reportStrictErrors([...UNKNOWN], cr, AS, false);
    expect(cr.warnings).toEqual([
      'duplicate field "metadata.name"', 'duplicate field "spec.u.k"', 'duplicate field "spec.u"', 'duplicate field "spec.p"', 'duplicate field "spec.list[0].n"',
      'unknown field "metadata.x"', 'unknown field "spec.u"', 'unknown field "spec.list[0].z"',
    ]);
    const patch = jsonContext(BODY, 'Warn', 'patch');
    reportStrictErrors([...UNKNOWN], patch, AS, true);
    // a built-in kind's unknown fields in Go's map order: keys sorted at every level
    expect(patch.warnings.slice(5)).toEqual(['unknown field "metadata.x"', 'unknown field "spec.list[0].z"', 'unknown field "spec.u"']);
  });

  it('a YAML body: go-yaml\'s lines first, one error of many lines with Strict', () => {
    const lines = ['line 3: key "a" already set in map', 'line 9: key "b" already set in map'];
    const warn = testContext({ fieldValidation: 'Warn', bodyFormat: 'yaml', bodyErrors: { yaml: lines } });
    reportStrictErrors(['spec.z', 'spec.a'], warn, AS, true);
    expect(warn.warnings).toEqual([...lines, 'unknown field "spec.a"', 'unknown field "spec.z"']);
    const strict = testContext({ fieldValidation: 'Strict', bodyFormat: 'yaml', bodyErrors: { yaml: lines } });
    expect(() => reportStrictErrors(['spec.z'], strict, AS, true)).toThrow(
      'strict decoding error: yaml: unmarshal errors:\n  line 3: key "a" already set in map\n  line 9: key "b" already set in map, unknown field "spec.z"');
  });

  it('an apply configuration\'s repetitions are reported after the apply, on their own', () => {
    const lines = ['line 10: key "paused" already set in map'];
    const warn = testContext({ fieldValidation: 'Warn', bodyFormat: 'apply', bodyErrors: { yaml: lines } });
    reportStrictErrors([], warn, AS, true);
    expect(warn.warnings).toEqual([]);
    reportApplyDuplicates(warn);
    expect(warn.warnings).toEqual(lines);
    const strict = testContext({ fieldValidation: 'Strict', bodyFormat: 'apply', bodyErrors: { yaml: lines } });
    expect(() => reportApplyDuplicates(strict)).toThrow('error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 10: key "paused" already set in map');
  });
});

describe('jsonPatchOpErrors', () => {
  it('checks operations as {op, path, from, value}, in document order', () => {
    const text = '[{"op":"add","path":"/a","value":1,"foo":"bar"},{"op":"add","path":"/b","path":"/c","value":{"x":1,"x":2}},{"bad":1,"bad":2}]';
    expect(jsonPatchOpErrors(JSON.parse(text), text, scanJson(text, true)?.duplicates)).toEqual([
      'json patch unknown field "[0].foo"', 'json patch duplicate field "[1].path"', 'json patch duplicate field "[1].value.x"', 'json patch unknown field "[2].bad"',
    ]);
    expect(jsonPatchOpErrors([{ op: 'remove', path: '/a' }], '[{"op":"remove","path":"/a"}]', undefined)).toEqual([]);
    expect(jsonPatchOpErrors({ op: 'remove' }, '{"op":"remove"}', undefined)).toEqual([]);
  });
});
