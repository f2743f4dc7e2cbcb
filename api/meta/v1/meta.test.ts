import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { definitions } from './index.js';
import { danglingRefs } from './refs.js';

const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

describe('meta/v1 definitions', () => {
  it('resolve every $ref inside meta', () => {
    expect(danglingRefs(definitions, definitions)).toEqual([]);
  });

  it('merge ownerReferences by uid and finalizers as a set', () => {
    const meta = definitions[`${M}ObjectMeta`].properties!;
    expect(meta.ownerReferences['x-kubernetes-patch-merge-key']).toBe('uid');
    expect(meta.ownerReferences['x-kubernetes-list-map-keys']).toEqual(['uid']);
    expect(meta.finalizers['x-kubernetes-list-type']).toBe('set');
    expect(meta.finalizers['x-kubernetes-patch-strategy']).toBe('merge');
  });

  it('validate real objects with ajv', () => {
    const ajv = new Ajv({ strict: false, validateFormats: false });
    for (const [name, schema] of Object.entries(definitions)) ajv.addSchema(schema, `#/components/schemas/${name}`);
    const check = (name: string, value: unknown) => ajv.validate({ $ref: `#/components/schemas/${M}${name}` }, value);
    expect(check('ObjectMeta', { name: 'a', labels: { app: 'x' }, ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u' }] })).toBe(true);
    expect(check('OwnerReference', { apiVersion: 'v1', kind: 'Pod', name: 'p' })).toBe(false);
    expect(check('LabelSelector', { matchLabels: { app: 1 } })).toBe(false);
    expect(ajv.validate({ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString' }, true)).toBe(false);
    expect(ajv.validate({ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity' }, '100m')).toBe(true);
  });
});
