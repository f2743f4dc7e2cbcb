import { describe, expect, it } from 'vitest';
import { controllerRef, gvkOf, hasFinalizer, isBeingDeleted, metaOf, namespacedName, newUid, now, parseApiVersion } from './meta.js';

describe('meta helpers', () => {
  const t = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678));

  it('formats times as metav1.Time', () => {
    expect(now(t)).toBe('2026-01-02T03:04:05Z');
    expect(now()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('makes distinct version 4 UUIDs, across refills of its random bytes', () => {
    const uids = Array.from({ length: 1000 }, newUid);
    for (const u of uids) expect(u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(uids).size).toBe(uids.length);
  });

  it('splits apiVersion into group and version', () => {
    expect(parseApiVersion('v1')).toEqual({ group: '', version: 'v1' });
    expect(parseApiVersion('apps/v1')).toEqual({ group: 'apps', version: 'v1' });
    expect(gvkOf({ apiVersion: 'batch/v1', kind: 'Job' })).toEqual({ group: 'batch', version: 'v1', kind: 'Job' });
  });

  it('reads object meta', () => {
    const obj = { metadata: { name: 'p', namespace: 'ns', finalizers: ['f'], deletionTimestamp: '2026-01-01T00:00:00Z',
      ownerReferences: [{ apiVersion: 'v1', kind: 'A', name: 'a', uid: '1' }, { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: '2', controller: true }] } };
    expect(namespacedName(obj)).toBe('ns/p');
    expect(namespacedName({ metadata: { name: 'n' } })).toBe('n');
    expect(isBeingDeleted(obj)).toBe(true);
    expect(hasFinalizer(obj, 'f')).toBe(true);
    expect(hasFinalizer({}, 'f')).toBe(false);
    expect(controllerRef(obj)?.name).toBe('rs');
    const bare: Record<string, any> = {};
    metaOf(bare).name = 'x';
    expect(bare.metadata).toEqual({ name: 'x' });
  });
});
