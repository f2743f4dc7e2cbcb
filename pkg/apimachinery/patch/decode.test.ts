import { describe, expect, it } from 'vitest';
import { statusErrorOf } from '../testing/status-error.js';
import { decodeApplyPatch, decodeJson, decodeObjectPatch } from './decode.js';

describe('decode', () => {
  it('words JSON errors as Go does', () => {
    expect(statusErrorOf(() => decodeJson('{"a":')).message).toBe('unexpected end of JSON input');
    expect(statusErrorOf(() => decodeJson('xyz')).message).toBe("invalid character 'x' looking for beginning of value");
    expect(statusErrorOf(() => decodeObjectPatch('[1]')).message).toBe('json: cannot unmarshal array into Go value of type map[string]interface {}');
    expect(decodeObjectPatch(Buffer.from('{"a":1}'))).toEqual({ a: 1 });
  });

  it('decodes apply patches as YAML 1.1 (and JSON, which is YAML)', () => {
    expect(decodeApplyPatch('apiVersion: v1\nkind: ConfigMap\ndata:\n  enabled: yes\n  count: "1"\n')).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', data: { enabled: true, count: '1' } });
    expect(decodeApplyPatch('{"kind":"Pod"}')).toEqual({ kind: 'Pod' });
    expect(statusErrorOf(() => decodeApplyPatch('a: [1')).message).toMatch(/^error decoding YAML: /);
    expect(statusErrorOf(() => decodeApplyPatch('- 1')).message).toBe('error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}');
  });
});
