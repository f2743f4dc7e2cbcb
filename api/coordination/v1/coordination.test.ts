import { describe, expect, it } from 'vitest';
import { definitions as meta } from '../../meta/v1/index.js';
import { danglingRefs } from '../../meta/v1/refs.js';
import { groupVersion } from './index.js';

describe('coordination/v1', () => {
  it('references only known definitions', () => {
    expect(danglingRefs(groupVersion.definitions, { ...meta, ...groupVersion.definitions })).toEqual([]);
  });

  it('serves namespaced leases with microsecond times', () => {
    expect(groupVersion.resources.map((r) => [r.plural, r.namespaced])).toEqual([['leases', true]]);
    const spec = groupVersion.definitions['io.k8s.api.coordination.v1.LeaseSpec'].properties!;
    expect(spec.renewTime.allOf?.[0].$ref).toMatch(/MicroTime$/);
  });
});
