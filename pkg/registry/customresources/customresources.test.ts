import { beforeAll, describe, expect, it } from 'vitest';
import { definitions as metaDefinitions } from '../../../api/meta/v1/index.js';
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import { SchemaIndex } from '../schema/index.js';
import { compileRuleSet, validateRules } from './cel.js';
import { defaultCustomResource } from './defaults.js';
import { pruneCustomResource } from './prune.js';
import { definitionName, pointerToPath } from './schema.js';
import { compileValidator, validateWithSchema } from './validation.js';
import { loadCel } from '../../apimachinery/cel/index.js';

// what the apiserver does before admitting a write
beforeAll(async () => { await loadCel(); });

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['name'],
      'x-kubernetes-validations': [
        { rule: 'self.replicas <= self.max', messageExpression: '"replicas " + string(self.replicas) + " over " + string(self.max)' },
        { rule: 'self.name == oldSelf.name', message: 'name is immutable', fieldPath: '.name' },
      ],
      properties: {
        name: { type: 'string', minLength: 2, maxLength: 5 },
        replicas: { type: 'integer', default: 1, exclusiveMaximum: true, maximum: 10 },
        max: { type: 'integer', default: 3 },
        ratio: { type: 'number', nullable: true },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 2, uniqueItems: true },
        when: { type: 'string', format: 'date-time' },
        choice: { oneOf: [{ type: 'string' }, { type: 'integer' }] } as JSONSchemaProps,
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
};

describe('custom resource schemas', () => {
  it('names definitions by the reversed group and prints JSON pointers as field paths', () => {
    expect(definitionName('stable.example.com', 'v1', 'CronTab')).toBe('com.example.stable.v1.CronTab');
    expect(pointerToPath('/spec/list/0/name')).toBe('spec.list[0].name');
  });

  it('prunes unknown fields, keeps embedded resources and nullable nulls, then defaults', () => {
    const obj: Record<string, any> = {
      apiVersion: 'x/v1', kind: 'X', metadata: { name: 'a', bogus: 1 },
      spec: { name: 'ab', unknown: 1, ratio: null, max: null, template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', nope: 1 }, spec: { any: 1 } } },
    };
    const unknown = pruneCustomResource(new SchemaIndex(metaDefinitions), obj, schema);
    expect(unknown).toEqual(['metadata.bogus', 'spec.unknown', 'spec.template.metadata.nope']);
    defaultCustomResource(obj, schema);
    expect(obj.spec).toEqual({ name: 'ab', ratio: null, replicas: 1, max: 3, template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { any: 1 } } });
  });

  it('words schema errors as upstream', () => {
    const v = compileValidator(schema);
    const causes = validateWithSchema(v, { spec: { name: 'abcdefg', replicas: 10, tags: ['a', 'a', 'b'], when: 'soon', choice: true } });
    expect(causes.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.name: Too long: may not be more than 5 bytes',
      'spec.replicas: Invalid value: 10: spec.replicas in body should be less than 10',
      'spec.tags: Too many: 3: must have at most 2 items',
      'spec.tags: Invalid value: ["a","a","b"]: spec.tags in body shouldn\'t contain duplicates',
      'spec.when: Invalid value: "soon": spec.when in body must be of type date-time: "soon"',
      'spec.choice: Invalid value: true: spec.choice in body must validate one and only one schema (oneOf)',
    ]);
    expect(validateWithSchema(v, { spec: {} }).map((c) => `${c.field}: ${c.message}`)).toEqual(['spec.name: Required value']);
  });

  it('runs CEL rules with int values, messageExpression and transition rules with fieldPath', () => {
    const causes = validateRules({ spec: { name: 'ab', replicas: 5, max: 3 } }, undefined, schema);
    expect(causes).toEqual([{ reason: 'FieldValueInvalid', field: 'spec', message: 'Invalid value: "object": replicas 5 over 3' }]);
    const changed = validateRules({ spec: { name: 'cd', replicas: 1, max: 3 } }, { spec: { name: 'ab', replicas: 1, max: 3 } }, schema);
    expect(changed).toEqual([{ reason: 'FieldValueInvalid', field: 'spec.name', message: 'Invalid value: "object": name is immutable' }]);
  });

  it('runs optionalOldSelf rules on create with oldSelf none and on updates with an optional; messages may read oldSelf', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      properties: { spec: {
        type: 'object',
        properties: { name: { type: 'string' }, size: { type: 'integer' } },
        'x-kubernetes-validations': [
          { rule: 'oldSelf.hasValue() || self.name.startsWith("a")', message: 'a new name starts with a', optionalOldSelf: true },
          { rule: 'self.name == oldSelf.orValue(self).name', messageExpression: '"name was " + oldSelf.value().name', optionalOldSelf: true },
          { rule: 'self.size >= oldSelf.size', messageExpression: '"size was " + string(oldSelf.size)' },
        ],
      } },
    };
    expect(compileRuleSet(s.properties!.spec!, 1, false).map((c) => [c.error, c.messageError, c.usesOldSelf])).toEqual([
      [undefined, undefined, true], [undefined, undefined, true], [undefined, undefined, true],
    ]);
    const messages = (obj: unknown, old?: unknown): string[] => validateRules(obj, old, s).map((c) => c.message ?? '');
    expect(messages({ spec: { name: 'bc', size: 1 } })).toEqual(['Invalid value: "object": a new name starts with a']);
    expect(messages({ spec: { name: 'ab', size: 1 } })).toEqual([]);
    expect(messages({ spec: { name: 'bc', size: 0 } }, { spec: { name: 'ab', size: 1 } })).toEqual(['Invalid value: "object": name was ab', 'Invalid value: "object": size was 1']);
    expect(messages({ spec: { name: 'bc', size: 1 } }, { spec: { name: 'bc', size: 1 } })).toEqual([]);
    // a field that was absent before: oldSelf is none there
    expect(messages({ spec: { name: 'bc', size: 1 } }, { other: 1 })).toEqual(['Invalid value: "object": a new name starts with a']);
  });

  it('stops at upstream\'s per-call cost limit and reports evaluation errors as upstream', () => {
    const nested: JSONSchemaProps = { type: 'array', maxItems: 100, items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, self.all(y, self.all(z, x + y + z >= 0)))' }] };
    const many = Array.from({ length: 75 }, (_, i) => i);
    expect(validateRules(many, undefined, nested)).toEqual([{
      reason: 'FieldValueInvalid', field: '',
      message: 'Invalid value: "array": \'operation cancelled: actual cost limit exceeded\': no further validation rules will be run due to call cost exceeds limit for rule: self.all(x, self.all(y, self.all(z, x + y + z >= 0)))',
    }]);
    expect(validateRules(many.slice(0, 5), undefined, nested)).toEqual([]);
    const divide: JSONSchemaProps = { type: 'object', properties: { a: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: '10 / self.a > 1', message: 'ratio' }] };
    expect(validateRules({ a: 0 }, undefined, divide)[0]?.message).toMatch(/^Invalid value: "object": .* evaluating rule: ratio$/);
  });

  it('gives rules the Kubernetes libraries', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      properties: { endpoint: { type: 'string' }, memory: { type: 'string' }, net: { type: 'string' } },
      'x-kubernetes-validations': [
        { rule: 'isURL(self.endpoint) && url(self.endpoint).getScheme() == "https"', message: 'endpoint must be an https URL' },
        { rule: 'quantity(self.memory).isLessThan(quantity("1Gi"))', message: 'memory must be under 1Gi' },
        { rule: 'cidr("10.0.0.0/8").containsCIDR(self.net)', message: 'net must be inside 10.0.0.0/8' },
      ],
    };
    expect(validateRules({ endpoint: 'https://a.example', memory: '512Mi', net: '10.1.0.0/16' }, undefined, s)).toEqual([]);
    expect(validateRules({ endpoint: 'http://a.example', memory: '2Gi', net: '11.0.0.0/16' }, undefined, s).map((c) => c.message)).toEqual([
      'Invalid value: "object": endpoint must be an https URL',
      'Invalid value: "object": memory must be under 1Gi',
      'Invalid value: "object": net must be inside 10.0.0.0/8',
    ]);
  });
});
