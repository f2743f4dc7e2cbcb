import { describe, expect, it } from 'vitest';
import { withoutManagedFields } from './managed-fields-text.js';

const managedFields = [
  { manager: 'kubectl', operation: 'Update', apiVersion: 'v1', time: '2026-11-28T08:49:17Z', fieldsType: 'FieldsV1',
    fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"c]\\\\"}': { '.': {} } } } } },
  { manager: 'kubelet', operation: 'Update', subresource: 'status', fieldsV1: { 'f:status': { 'f:phase': {} } } },
];

/** What parsing and then deleting gives: the result withoutManagedFields must parse to. */
const expected = (event: unknown): unknown => {
  const copy = structuredClone(event) as { object: { metadata?: Record<string, unknown> } };
  if (copy.object.metadata) delete copy.object.metadata.managedFields;
  return copy;
};

const event = (metadata: Record<string, unknown>, rest: Record<string, unknown> = {}): unknown =>
  ({ type: 'MODIFIED', object: { apiVersion: 'v1', kind: 'Pod', metadata, ...rest } });

describe('withoutManagedFields', () => {
  const cases: [string, unknown][] = [
    ['in the middle of metadata', event({ name: 'p', managedFields, uid: 'u' }, { spec: { nodeName: 'n' } })],
    ['last in metadata', event({ name: 'p', labels: { a: 'b' }, managedFields })],
    ['alone in metadata', event({ managedFields })],
    ['after strings that hold brackets, quotes and backslashes', event({ name: 'p', annotations: { x: '"managedFields":[ \\" ]} {', y: 'a\\' }, managedFields, uid: 'u' })],
    ['with type after object', { object: { metadata: { name: 'p', managedFields } }, type: 'ADDED' }],
  ];
  for (const [name, ev] of cases) {
    it(`drops the metadata field ${name}`, () => {
      const text = JSON.stringify(ev);
      const out = withoutManagedFields(text);
      expect(out.length).toBeLessThan(text.length);
      expect(JSON.parse(out)).toEqual(expected(ev));
      const spaced = JSON.stringify(ev, null, 2);
      expect(JSON.parse(withoutManagedFields(spaced))).toEqual(expected(ev));
    });
  }

  it('leaves a managedFields key that is not the event object\'s metadata field, and text it cannot read', () => {
    const inSpec = event({ name: 'w' }, { spec: { managedFields: [{ a: 1 }] } });
    const specFirst = { type: 'ADDED', object: { apiVersion: 'x/v1', kind: 'W', spec: { managedFields: [1] }, metadata: { name: 'w', managedFields } } };
    const nested = event({ name: 'p', annotations: { managedFields: 'x' }, ownerReferences: [{ managedFields: [] }] });
    for (const ev of [inSpec, specFirst, nested, event({ name: 'p', managedFields: null })]) {
      const text = JSON.stringify(ev);
      expect(withoutManagedFields(text)).toBe(text);
    }
    const unterminated = '{"type":"ADDED","object":{"metadata":{"managedFields":[{"a":"b"}';
    expect(withoutManagedFields(unterminated)).toBe(unterminated);
    expect(withoutManagedFields('{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"5"}}}')).toBe('{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"5"}}}');
  });
});
