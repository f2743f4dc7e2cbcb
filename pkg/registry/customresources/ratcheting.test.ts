import { beforeAll, describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import type { KubeObject } from '../../../api/types.js';
import { loadCel } from '../../apimachinery/cel/index.js';
import type { RequestContext } from '../context.js';
import { validateRules } from './cel.js';
import { validateListSetsAndMaps } from './listtype.js';
import { Correlation, ratchetsSchemaError } from './ratcheting.js';
import { customResourceStrategy } from './strategy.js';
import { compileValidator, validateWithSchema } from './validation.js';

beforeAll(async () => { await loadCel(); });

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string' },
        replicas: { type: 'integer', maximum: 3 },
        tags: {
          type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', properties: { name: { type: 'string' }, value: { type: 'string', maxLength: 2 } } },
        },
        words: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string', maxLength: 2 } },
        ports: { type: 'array', items: { type: 'integer', maximum: 10 } },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'integer', maximum: 1 } } },
        both: { type: 'object', allOf: [{ properties: { n: { maximum: 1 } } }], properties: { n: { type: 'integer' } } } as JSONSchemaProps,
      },
    },
  },
};

const validator = compileValidator(schema);
const errors = (obj: Record<string, unknown>, old?: Record<string, unknown>): string[] => {
  const root = old && new Correlation(obj, old, schema);
  return validateWithSchema(validator, obj, '', root && { drop: (e) => ratchetsSchemaError(e, root) }).map((c) => `${c.field}: ${c.message}`);
};

describe('validation ratcheting', () => {
  it('drops schema errors of unchanged values, correlating map lists by key and other lists whole', () => {
    const old = { spec: { replicas: 5, tags: [{ name: 'a', value: 'long' }, { name: 'b' }], words: ['abc'], ports: [11, 1] } };
    // an unchanged object ratchets its own errors (a missing field) too
    expect(errors({ spec: { ...old.spec } }, old)).toEqual([]);
    expect(errors({ spec: { ...old.spec, replicas: 2 } }, old)).toEqual(['spec.name: Required value']);
    expect(errors({ spec: { name: 'x', ...old.spec } }, old)).toEqual([]);
    // reordered, and one item added: the item keyed a is unchanged
    expect(errors({ spec: { name: 'x', replicas: 5, tags: [{ name: 'c' }, { name: 'b' }, { name: 'a', value: 'long' }] } }, old)).toEqual([]);
    expect(errors({ spec: { name: 'x', tags: [{ name: 'a', value: 'lon' }], words: ['abc', 'd'], ports: [11, 2] } }, old)).toEqual([
      'spec.tags[0].value: Too long: may not be more than 2 bytes',
      'spec.words[0]: Too long: may not be more than 2 bytes',
      'spec.ports[0]: Invalid value: 11: spec.ports[0] in body should be less than or equal to 10',
    ]);
    expect(errors({ spec: { name: 'x', replicas: 6 } }, old)).toEqual(['spec.replicas: Invalid value: 6: spec.replicas in body should be less than or equal to 3']);
  });

  it('holds an object with fields the schema does not describe unequal, and allOf errors at the node holding it', () => {
    const old = { spec: { name: 'x', extra: { a: 2, b: 1 }, both: { n: 2 } } };
    // extra keeps an unknown field: its own node is never unchanged, while a is
    expect(errors({ spec: { name: 'x', extra: { a: 2, b: 1 }, both: { n: 2 } } }, old)).toEqual([]);
    const root = new Correlation(old, structuredClone(old), schema);
    expect(root.key('spec')!.key('extra')!.unchanged()).toBe(false);
    expect(root.key('spec')!.key('extra')!.key('a')!.unchanged()).toBe(true);
    expect(errors({ spec: { name: 'x', extra: { a: 2, b: 1 }, both: { n: 2, m: 1 } } }, old)).toEqual([
      'spec.both.n: Invalid value: 2: spec.both.n in body should be less than or equal to 1',
    ]);
  });

  it('makes a failing rule on an unchanged value warn, but not a transition rule', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          'x-kubernetes-validations': [{ rule: 'self.a <= 1', message: 'a at most 1' }, { rule: 'self.a == oldSelf.a', message: 'a is immutable' }],
          properties: { a: { type: 'integer' }, b: { type: 'integer' } },
        },
        items: {
          type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'],
          items: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.v <= 1' }], properties: { k: { type: 'string' }, v: { type: 'integer' } } },
        },
      },
    };
    const old = { spec: { a: 2 }, items: [{ k: 'x', v: 2 }, { k: 'y', v: 0 }] };
    const run = (obj: Record<string, unknown>) => {
      const warnings: string[] = [];
      const causes = validateRules(obj, old, s, { rootField: '<nil>', ratchet: new Correlation(obj, old, s), warn: (w) => warnings.push(w) });
      return { causes: causes.map((c) => `${c.field}: ${c.message}`), warnings };
    };
    expect(run({ spec: { a: 2 }, items: [{ k: 'y', v: 2 }, { k: 'x', v: 2 }] })).toEqual({
      causes: ['items[0]: Invalid value: "object": failed rule: self.v <= 1'],
      warnings: ['spec: Invalid value: "object": a at most 1', 'items[1]: Invalid value: "object": failed rule: self.v <= 1'],
    });
    expect(run({ spec: { a: 3 }, items: [] }).causes).toEqual(['spec: Invalid value: "object": a at most 1', 'spec: Invalid value: "object": a is immutable']);
  });
});

describe('list types', () => {
  const lists: JSONSchemaProps = {
    type: 'object',
    properties: {
      single: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object' } },
      multi: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'port'], items: { type: 'object' } },
      set: { type: 'array', 'x-kubernetes-list-type': 'set', items: {} },
      byName: {
        type: 'object',
        additionalProperties: { type: 'object', properties: { tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } } } },
      },
    },
  };
  const check = (obj: Record<string, unknown>): string[] => validateListSetsAndMaps(obj, lists).map((c) => `${c.field}: ${c.message}`);

  it('reports the second appearance of a key or an item as upstream prints Go values', () => {
    expect(check({
      single: [{ name: 'a' }, {}, { name: 'a', x: 1 }, null, { name: 'a' }],
      multi: [{ name: 'a', port: 80 }, { port: 80, name: 'a', p: 1 }, { name: 'a' }, { name: 'a', port: 1.5 }, { name: 'a', port: 1.5 }],
      set: ['x', 1, '1', 1, { b: [1, null], a: true }, { a: true, b: [1, null] }, null, null, 2.5e-7, 2.5e-7],
      byName: { one: { tags: [1, 1] } },
    })).toEqual([
      'single[2]: Duplicate value: map[string]interface {}{"name":"a"}',
      'single[3]: Duplicate value: map[string]interface {}{}',
      'multi[1]: Duplicate value: map[string]interface {}{"name":"a", "port":80}',
      'multi[4]: Duplicate value: map[string]interface {}{"name":"a", "port":1.5}',
      'set[3]: Duplicate value: 1',
      'set[5]: Duplicate value: map[string]interface {}{"a":true, "b":[]interface {}{1, interface {}(nil)}}',
      'set[7]: Duplicate value: "null"',
      'set[9]: Duplicate value: 2.5e-07',
      'byName[one].tags[1]: Duplicate value: 1',
    ]);
    expect(check({ single: [{ name: 'a' }, 'b'] })).toEqual(['single[1]: Invalid value: "b": must be an object for an array of list-type map']);
  });
});

describe('custom resource strategy', () => {
  const ctx = (): RequestContext => ({ dryRun: false, fieldManager: 'test', fieldValidation: 'Strict', warnings: [], now: new Date() } as RequestContext);
  const s: JSONSchemaProps = {
    type: 'object',
    'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('g')", messageExpression: "'name ' + self.metadata.name + ' must start with g'" }],
    properties: {
      spec: { type: 'object', properties: { n: { type: 'integer', maximum: 3 }, color: { type: 'string', enum: ['red'] } } },
      status: { type: 'object', properties: { ready: { type: 'boolean' } } },
    },
  };
  const strategy = customResourceStrategy({ schema: s, kind: 'Widget', hasStatus: true, terminating: () => false, namespaced: true });
  const obj = (name: string, spec: Record<string, unknown>, status?: Record<string, unknown>): KubeObject =>
    ({ apiVersion: 'ex.io/v1', kind: 'Widget', metadata: { name, namespace: 'default', resourceVersion: '1' }, spec, ...(status && { status }) });
  const out = (causes: { field?: string; message?: string }[]): string[] => causes.map((c) => `${c.field}: ${c.message}`);
  const NOT_CHECKED = '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

  it('runs the rules past non-blocking errors only, a root rule erring at the nil path', () => {
    expect(out(strategy.validate!(obj('x', { n: 4 }), ctx()))).toEqual([
      'spec.n: Invalid value: 4: spec.n in body should be less than or equal to 3',
      '<nil>: Invalid value: "object": name x must start with g',
    ]);
    expect(out(strategy.validate!(obj('x', { color: 'blue' }), ctx()))).toEqual(['spec.color: Unsupported value: "blue": supported values: "red"', NOT_CHECKED]);
    // a blocking error of the metadata (reported by the generic store) keeps the rules from running too
    expect(out(strategy.validate!({ ...obj('', {}), metadata: { namespace: 'default' } }, ctx()))).toEqual([NOT_CHECKED]);
  });

  it('validates a status update against the status schema alone, without ratcheting', () => {
    const old = obj('g1', { n: 4 }, { ready: 1 });
    expect(out(strategy.validateSubresource!(obj('g1', { n: 4 }, { ready: 1 }), old, ctx(), 'status'))).toEqual([
      'status.ready: Invalid value: "integer": ready in body must be of type boolean: "integer"',
      NOT_CHECKED,
    ]);
    expect(strategy.validateSubresource!(obj('g1', { n: 4 }, { ready: true }), old, ctx(), 'status')).toEqual([]);
    const c = ctx();
    expect(strategy.validateUpdate!(obj('g1', { n: 4 }, { ready: 1 }), old, c)).toEqual([]);
  });
});
