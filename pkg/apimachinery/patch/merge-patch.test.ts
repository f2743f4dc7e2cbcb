import { describe, expect, it } from 'vitest';
import { statusErrorOf } from '../testing/status-error.js';
import { applyMergePatch } from './merge-patch.js';

const deploy = () => ({ metadata: { name: 'web', labels: { app: 'web' } }, spec: { replicas: 1, template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } } });

describe('applyMergePatch', () => {
  it('merges objects, deletes on null and replaces lists', () => {
    const out = applyMergePatch(deploy(), {
      metadata: { labels: { app: null, tier: 'fe' } },
      spec: { replicas: 2, template: { spec: { containers: [{ name: 'x', image: 'y' }] } } },
      status: { nested: { a: null, b: 1 } },
    });
    expect(out.metadata.labels).toEqual({ tier: 'fe' });
    expect(out.spec.replicas).toBe(2);
    expect(out.spec.template.spec.containers).toEqual([{ name: 'x', image: 'y' }]);
    expect((out as Record<string, unknown>).status).toEqual({ nested: { b: 1 } });
  });

  it('rejects a non-object patch', () => {
    expect(statusErrorOf(() => applyMergePatch(deploy(), [1])).code).toBe(400);
  });
});
