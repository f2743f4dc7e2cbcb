import { describe, expect, it } from 'vitest';
import { statusErrorOf } from '../testing/status-error.js';
import { applyJsonPatch } from './json-patch.js';

const deploy = () => ({ metadata: { name: 'web', labels: { app: 'web' } }, spec: { replicas: 1, template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } } });

describe('applyJsonPatch', () => {
  it('applies kubectl-style operations without mutating the input', () => {
    const doc = deploy();
    const out = applyJsonPatch(doc, [
      { op: 'replace', path: '/spec/replicas', value: 3 },
      { op: 'add', path: '/metadata/labels/tier', value: 'fe' },
      { op: 'add', path: '/spec/template/spec/containers/-', value: { name: 'side', image: 'busybox' } },
      { op: 'remove', path: '/metadata/labels/app' },
      { op: 'test', path: '/spec/replicas', value: 3 },
    ]);
    expect(out.spec.replicas).toBe(3);
    expect(out.metadata.labels).toEqual({ tier: 'fe' });
    expect(out.spec.template.spec.containers.map((c) => c.name)).toEqual(['c', 'side']);
    expect(doc.spec.replicas).toBe(1);
  });

  it('answers 422 as upstream\'s generic server response, with empty details, whichever operation does not apply', () => {
    const failing: unknown[][] = [
      [{ op: 'test', path: '/spec/replicas', value: 2 }],
      [{ op: 'remove', path: '/metadata/labels/nope' }],
      [{ op: 'replace', path: '/spec/missing/paused', value: true }],
      [{ op: 'replace', path: '/spec/template/spec/containers/1', value: {} }],
      [{ op: 'add', path: '/status/x/y', value: 1 }],
      [{ op: 'frob', path: '/a' }],
      [{ op: 'move', from: '/metadata/labels', path: '/metadata/labels/x' }],
      [{ op: 'copy', path: '/a' }],
    ];
    for (const patch of failing) {
      const e = statusErrorOf(() => applyJsonPatch(deploy(), patch));
      expect([e.code, e.reason, e.message, e.details]).toEqual([422, 'Invalid', 'the server rejected our request due to an error in our request', {}]);
    }
  });

  it('replaces a key an object lacks by setting it, as upstream\'s evanphx/json-patch v4 does', () => {
    const out = applyJsonPatch(deploy(), [{ op: 'replace', path: '/spec/paused', value: true }, { op: 'replace', path: '/metadata/labels/a~1b', value: 'x' }]);
    expect([out.spec, out.metadata.labels]).toEqual([{ ...deploy().spec, paused: true }, { app: 'web', 'a/b': 'x' }]);
  });

  it('never reaches a prototype through a path', () => {
    for (const path of ['/__proto__/polluted', '/metadata/constructor/prototype/polluted']) {
      expect(statusErrorOf(() => applyJsonPatch(deploy(), [{ op: 'add', path, value: 1 }])).code).toBe(422);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('rejects malformed patches with 400 and huge ones with 413', () => {
    expect(statusErrorOf(() => applyJsonPatch(deploy(), { op: 'add' })).message).toBe('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
    const many = Array.from({ length: 10001 }, () => ({ op: 'test', path: '/spec/replicas', value: 1 }));
    const e = statusErrorOf(() => applyJsonPatch(deploy(), many));
    expect(e.code).toBe(413);
    expect(e.message).toBe('Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001');
  });
});
