import { describe, expect, it } from 'vitest';
import { arr, kind, mapList, obj, str, strMap, type Schema } from '../../../api/schema.js';
import type { KubeObject } from '../../../api/types.js';
import { statusErrorOf } from '../testing/status-error.js';
import { lookup } from '../testdata/schemas.js';
import { apply } from './apply.js';
import { updateManagedFields } from './update.js';

// A custom resource whose CRD made a granular map, a set and a map list's items atomic since they were applied.
const WIDGET = 'com.example.v1.Widget';
const widget = (atomic: boolean): Schema => {
  const a = atomic ? { 'x-kubernetes-map-type': 'atomic' as const } : {};
  return kind({ group: 'example.com', version: 'v1', kind: 'Widget' }, {
    spec: obj({
      granularMap: strMap(undefined, a),
      tags: arr(str(), undefined, { 'x-kubernetes-list-type': atomic ? 'atomic' : 'set' }),
      items: mapList(obj({ name: str(), value: str() }, undefined, a), 'name'),
      other: str(),
    }),
  });
};
const opts = (atomic: boolean, now = '2026-01-02T03:04:05Z') => ({
  force: false, lookup: (name: string) => (name === WIDGET ? widget(atomic) : lookup(name)), rootDefinition: WIDGET, apiVersion: 'example.com/v1', now,
});
const cr = (spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec });

describe('managed fields reconciled with a schema that made fields atomic', () => {
  const applied = apply(undefined, cr({ granularMap: { k1: '1', k2: '2' }, tags: ['a', 'b'], items: [{ name: 'i', value: 'v' }], other: 'x' }), 'A', opts(false));

  it('makes a later apply of those fields conflict with their owner, as upstream\'s reconcileManagedFieldsWithSchemaChanges', () => {
    const e = statusErrorOf(() => apply(applied, cr({ granularMap: { k1: 'changed' }, tags: ['c'], items: [{ name: 'i', value: 'w' }] }), 'B', opts(true)));
    expect(e.message).toBe('Apply failed with 3 conflicts: conflicts with "A":\n- .spec.granularMap\n- .spec.tags\n- .spec.items[name="i"]');
  });

  it('records the owner of the field itself on the next write', () => {
    const out = updateManagedFields(applied, { ...applied, spec: { ...applied.spec, other: 'y' } }, 'editor', opts(true));
    expect(out.metadata?.managedFields?.find((m) => m.manager === 'A')?.fieldsV1).toEqual({
      'f:spec': { 'f:granularMap': {}, 'f:items': { 'k:{"name":"i"}': {} }, 'f:tags': {} },
    });
  });

  it('leaves sets alone while the schema is as it was', () => {
    const out = updateManagedFields(applied, { ...applied, metadata: { ...applied.metadata, labels: { x: 'y' } } }, 'editor', opts(false));
    expect(out.metadata?.managedFields?.find((m) => m.manager === 'A')).toEqual(applied.metadata?.managedFields?.[0]);
  });
});
