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

  it('answers 422 with the json-patch reason when an operation does not apply', () => {
    const e = statusErrorOf(() => applyJsonPatch(deploy(), [{ op: 'test', path: '/spec/replicas', value: 2 }]));
    expect(e.code).toBe(422);
    expect(e.reason).toBe('Invalid');
    expect(e.message).toBe('the server rejected our request due to an error in our request');
    expect(e.details?.causes?.[0].message).toBe('testing value /spec/replicas failed: test failed');
    expect(statusErrorOf(() => applyJsonPatch(deploy(), [{ op: 'remove', path: '/metadata/labels/nope' }])).details?.causes?.[0].message)
      .toBe("error in remove for path: '/metadata/labels/nope': Unable to remove nonexistent key: nope: missing value");
    expect(statusErrorOf(() => applyJsonPatch(deploy(), [{ op: 'replace', path: '/spec/paused', value: true }])).details?.causes?.[0].message)
      .toBe('replace operation does not apply: doc is missing key: /spec/paused: missing value');
    expect(statusErrorOf(() => applyJsonPatch(deploy(), [{ op: 'add', path: '/status/x/y', value: 1 }])).details?.causes?.[0].message)
      .toBe('add operation does not apply: doc is missing path: "/status/x/y": missing value');
    expect(statusErrorOf(() => applyJsonPatch(deploy(), [{ op: 'frob', path: '/a' }])).code).toBe(422);
    expect(statusErrorOf(() => applyJsonPatch(deploy(), [{ op: 'move', from: '/metadata/labels', path: '/metadata/labels/x' }])).details?.causes?.[0].message)
      .toBe('move operation does not apply: doc is missing destination path: /metadata/labels/x: missing value');
    expect(statusErrorOf(() => applyJsonPatch(deploy(), [{ op: 'copy', path: '/a' }])).details?.causes?.[0].message)
      .toBe('copy operation does not apply: missing from field: missing value');
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
