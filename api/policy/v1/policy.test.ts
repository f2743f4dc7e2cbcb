import { describe, expect, it } from 'vitest';
import { definitions as meta } from '../../meta/v1/index.js';
import { danglingRefs } from '../../meta/v1/refs.js';
import { groupVersion } from './index.js';

describe('policy/v1', () => {
  it('references only known definitions', () => {
    expect(danglingRefs(groupVersion.definitions, { ...meta, ...groupVersion.definitions })).toEqual([]);
  });

  it('serves pdbs with a status subresource and defines Eviction', () => {
    const pdb = groupVersion.resources[0];
    expect([pdb.plural, pdb.shortNames, pdb.subresources?.map((s) => s.name)]).toEqual(['poddisruptionbudgets', ['pdb'], ['status']]);
    expect(groupVersion.definitions['io.k8s.api.policy.v1.Eviction']['x-kubernetes-group-version-kind'])
      .toEqual([{ group: 'policy', version: 'v1', kind: 'Eviction' }]);
  });

  it('replaces the selector whole on strategic merge', () => {
    const spec = groupVersion.definitions['io.k8s.api.policy.v1.PodDisruptionBudgetSpec'].properties!;
    expect(spec.selector['x-kubernetes-patch-strategy']).toBe('replace');
  });
});
