import { beforeAll, describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import { loadCel } from '../../apimachinery/cel/index.js';
import type { RequestContext } from '../context.js';
import { customResourceStrategy } from './strategy.js';

beforeAll(async () => { await loadCel(); });

const ctx = (): RequestContext => ({ dryRun: false, fieldManager: 'test', fieldValidation: 'Strict', warnings: [], now: new Date() } as RequestContext);
const strategyOf = (schema: JSONSchemaProps) => customResourceStrategy({ schema, kind: 'Application', hasStatus: false, terminating: () => false, namespaced: true });
const app = (metadata: KubeObject['metadata'], spec: unknown = { project: 'default' }): KubeObject =>
  ({ apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { namespace: 'default', ...metadata }, spec } as KubeObject);

describe('the root metadata schema (upstream validates the whole object, metadata included)', () => {
  it('takes a required metadata as the object\'s own metadata (argo-cd\'s CRDs: required [metadata, spec])', () => {
    const strategy = strategyOf({
      type: 'object', required: ['metadata', 'spec'],
      properties: { metadata: { type: 'object' }, spec: { type: 'object', properties: { project: { type: 'string' } } } },
    });
    expect(strategy.validate!(app({ name: 'guestbook' }), ctx())).toEqual([]);
    const { spec: _s, ...noSpec } = app({ name: 'guestbook' });
    expect(strategy.validate!(noSpec as KubeObject, ctx()).map(causeToString)).toEqual(['spec: Required value']);
  });

  it('enforces the schemas of metadata.name and metadata.generateName with upstream\'s paths and texts', () => {
    const strategy = strategyOf({
      type: 'object',
      properties: {
        metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 5, pattern: '^[a-z]+$' }, generateName: { type: 'string', maxLength: 3 } } },
        spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    });
    expect(strategy.validate!(app({ name: 'abc' }), ctx())).toEqual([]);
    expect(strategy.validate!(app({ name: 'toolongname1' }), ctx()).map(causeToString)).toEqual([
      'metadata.name: Too long: may not be more than 5 bytes',
      'metadata.name: Invalid value: "toolongname1": metadata.name in body should match \'^[a-z]+$\'',
    ]);
    expect(strategy.validate!(app({ name: 'ab-cd' }), ctx()).map(causeToString)).toEqual([
      'metadata.name: Invalid value: "ab-cd": metadata.name in body should match \'^[a-z]+$\'',
    ]);
    // the name generated from generateName is checked too, as upstream validates after generating it
    expect(strategy.validate!(app({ generateName: 'abcd', name: 'abcdx' }), ctx()).map(causeToString)).toEqual([
      'metadata.generateName: Too long: may not be more than 3 bytes',
    ]);
  });

  it('ratchets an update that left an invalid name as it was (the schema tightened after the object was made)', () => {
    const strategy = strategyOf({
      type: 'object',
      properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 5 } } }, spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    });
    const old = app({ name: 'toolongname1', resourceVersion: '1' }, { a: 1 });
    expect(strategy.validateUpdate!(app({ name: 'toolongname1', resourceVersion: '1' }, { a: 2 }), old, ctx())).toEqual([]);
  });

  it('lets rules read metadata.name while the schema checks it first', () => {
    const strategy = strategyOf({
      type: 'object',
      properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 10 } } }, spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      'x-kubernetes-validations': [{ rule: 'self.metadata.name.startsWith("app")', message: 'name starts with app' }],
    });
    expect(strategy.validate!(app({ name: 'app1' }), ctx())).toEqual([]);
    expect(strategy.validate!(app({ name: 'web1' }), ctx()).map(causeToString)).toEqual(['<nil>: Invalid value: "object": name starts with app']);
    // a too-long name is a blocking error: the rules do not run
    expect(strategy.validate!(app({ name: 'webwebwebweb' }), ctx()).map(causeToString)).toEqual([
      'metadata.name: Too long: may not be more than 10 bytes',
      '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
  });
});

describe('finalizer warnings (upstream\'s generateWarningsFromObj)', () => {
  const strategy = strategyOf({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
  it('warns of each finalizer neither standard nor qualified with a path, sorted, on create', () => {
    expect(strategy.warningsOnCreate!(app({ name: 'a', finalizers: ['example.com/x', 'bad_name', 'kubernetes', 'finalizer.example.com', '-x'] }), ctx())).toEqual([
      'metadata.finalizers: "-x": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
      'metadata.finalizers: "-x": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers',
      'metadata.finalizers: "bad_name": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers',
      'metadata.finalizers: "finalizer.example.com": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers',
    ]);
  });

  it('warns on update only of the finalizers it adds', () => {
    const old = app({ name: 'a', finalizers: ['bad_name'] });
    expect(strategy.warningsOnUpdate!(app({ name: 'a', finalizers: ['bad_name'] }), old, ctx())).toEqual([]);
    expect(strategy.warningsOnUpdate!(app({ name: 'a', finalizers: ['bad_name', 'other'] }), old, ctx())).toEqual([
      'metadata.finalizers: "other": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers',
    ]);
  });
});
