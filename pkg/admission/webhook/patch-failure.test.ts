import { describe, expect, it } from 'vitest';
import { applyWebhookJsonPatch } from './patch-failure.js';

const doc = { metadata: { name: 'p', labels: { a: 'b' } }, spec: { list: [1, 2] } };
const fails = (...ops: unknown[]) => {
  const r = applyWebhookJsonPatch(doc, ops);
  return 'error' in r ? r.error : undefined;
};

describe('webhook JSON patches as evanphx/json-patch v4 applies them', () => {
  it('words the first failing operation as the library does', () => {
    expect(fails({ op: 'replace', path: '/spec/doesnotexist/x', value: 1 })).toBe('replace operation does not apply: doc is missing path: /spec/doesnotexist/x: missing value');
    expect(fails({ op: 'add', path: '/nope/x', value: 1 })).toBe('add operation does not apply: doc is missing path: "/nope/x": missing value');
    expect(fails({ op: 'remove', path: '/metadata/nope' })).toBe("error in remove for path: '/metadata/nope': Unable to remove nonexistent key: nope: missing value");
    expect(fails({ op: 'replace', path: '/spec/list/5', value: 1 })).toBe('replace operation does not apply: doc is missing key: /spec/list/5: missing value');
    expect(fails({ op: 'add', path: '/spec/list/7', value: 1 })).toBe("error in add for path: '/spec/list/7': Unable to access invalid index: 7: invalid index referenced");
    expect(fails({ op: 'test', path: '/metadata/name', value: 'q' })).toBe('testing value /metadata/name failed: test failed');
    expect(fails({ op: 'copy', from: '/x/y', path: '/a' })).toBe('copy operation does not apply: doc is missing from path: /x/y: missing value');
    expect(fails({ op: 'frob', path: '/a' })).toBe('Unexpected kind: frob');
    // the earlier operations apply first
    expect(fails({ op: 'remove', path: '/spec' }, { op: 'add', path: '/spec/x', value: 1 })).toBe('add operation does not apply: doc is missing path: "/spec/x": missing value');
  });

  it('replaces an absent member of an object by adding it, as the library does', () => {
    expect(applyWebhookJsonPatch(doc, [{ op: 'replace', path: '/metadata/labels/c', value: 'd' }, { op: 'add', path: '/spec/list/-', value: 3 }]))
      .toEqual({ patched: { metadata: { name: 'p', labels: { a: 'b', c: 'd' } }, spec: { list: [1, 2, 3] } } });
    expect(doc.metadata.labels).toEqual({ a: 'b' });
  });
});
