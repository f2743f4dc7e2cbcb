// metadataString: a field of an object's metadata read from its JSON text, and nothing else that looks like it.
import { describe, expect, it } from 'vitest';
import { metadataStrings } from './json-text.js';

const metadataString = (text: string, key: string): string | undefined => metadataStrings(text, [key])[key];

describe('metadataStrings', () => {
  const pod = {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      name: 'web', namespace: 'default', resourceVersion: '42', labels: { resourceVersion: 'label' },
      managedFields: [{ manager: 'kubelet', fieldsV1: { 'f:metadata': { 'f:resourceVersion': {} } } }],
    },
    spec: { containers: [{ name: 'c', env: [{ name: 'resourceVersion', value: '"resourceVersion":"7"' }] }] },
  };

  it('reads the field of the top-level metadata, as JSON.parse would', () => {
    expect(metadataString(JSON.stringify(pod), 'resourceVersion')).toBe('42');
    expect(metadataString(JSON.stringify(pod, null, 2), 'name')).toBe('web');
    expect(metadataString(JSON.stringify({ metadata: { name: 'a "quoted" \\ name' } }), 'name')).toBe('a "quoted" \\ name');
  });

  it('is not fooled by the same key elsewhere, in strings, or below metadata', () => {
    const { resourceVersion: _rv, ...meta } = pod.metadata;
    const spec = { resourceVersion: '9', template: { metadata: { resourceVersion: '8' } } };
    expect(metadataString(JSON.stringify({ ...pod, spec, metadata: meta }), 'resourceVersion')).toBeUndefined();
    expect(metadataString(JSON.stringify({ spec, metadata: { name: 'x', resourceVersion: '3' } }), 'resourceVersion')).toBe('3');
    expect(metadataString(JSON.stringify({ items: [{ metadata: { resourceVersion: '5' } }], metadata: {} }), 'resourceVersion')).toBeUndefined();
  });

  it('reads several fields in one scan, in any order', () => {
    expect(metadataStrings(JSON.stringify(pod), ['uid', 'name', 'resourceVersion', 'generateName'])).toEqual({ name: 'web', resourceVersion: '42' });
  });

  it('gives undefined for a value that is not a string, and for text that is not an object', () => {
    expect(metadataString(JSON.stringify({ metadata: { generation: 2 } }), 'generation')).toBeUndefined();
    expect(metadataString('', 'name')).toBeUndefined();
    expect(metadataString('"metadata"', 'name')).toBeUndefined();
  });
});
