import { describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import { versionDefinitions } from './schema.js';

const props = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        port: { 'x-kubernetes-int-or-string': true },
        checked: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }], maxLength: 3 },
        patterned: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer', maximum: 5 }, { type: 'string', pattern: '^a' }] },
        ports: { type: 'array', items: { 'x-kubernetes-int-or-string': true } },
        tpl: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, required: ['spec'] },
      },
    },
  },
} as unknown as JSONSchemaProps;

describe('a custom kind\'s published definitions', () => {
  const published = versionDefinitions(props, 'ex.io', 'v1', 'Widget', 'WidgetList', { selectableFields: [{ jsonPath: '.spec.port' }] })['io.ex.v1.Widget']!;
  const spec = published.properties!.spec!.properties!;

  it('unfold an int-or-string into anyOf integer or string, as upstream\'s builder; its own anyOf pattern stays as written', () => {
    expect(spec.port).toEqual({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] });
    expect(spec.ports!.items).toEqual({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] });
    expect(spec.checked).toEqual(props.properties!.spec!.properties!.checked);
    expect(spec.patterned!.allOf).toEqual([{ anyOf: [{ type: 'integer' }, { type: 'string' }] }]);
  });

  it('give an embedded resource its apiVersion, kind and metadata, the first two required', () => {
    expect(Object.keys(spec.tpl!.properties!)).toEqual(['apiVersion', 'kind', 'metadata']);
    expect(spec.tpl!.properties!.metadata!.allOf?.[0]?.$ref).toBe('#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    expect(spec.tpl!.required).toEqual(['spec', 'kind', 'apiVersion']);
  });

  it('carry the selectable fields as upstream\'s x-kubernetes-selectable-fields', () => {
    expect(published['x-kubernetes-selectable-fields' as never]).toEqual([{ fieldPath: 'spec.port' }]);
  });

  it('are not what the decoder reads', () => {
    const decoded = versionDefinitions(props, 'ex.io', 'v1', 'Widget', 'WidgetList')['io.ex.v1.Widget']!;
    expect(decoded.properties!.spec!.properties!.port).toEqual({ 'x-kubernetes-int-or-string': true });
  });
});
