import { describe, expect, it } from 'vitest';
import { definitions as meta } from '../../meta/v1/index.js';
import { danglingRefs } from '../../meta/v1/refs.js';
import { groupVersion } from './index.js';

describe('scheduling/v1', () => {
  it('references only known definitions', () => {
    expect(danglingRefs(groupVersion.definitions, { ...meta, ...groupVersion.definitions })).toEqual([]);
  });

  it('defaults preemptionPolicy and keeps an explicit one', () => {
    const def = groupVersion.defaulters!['io.k8s.api.scheduling.v1.PriorityClass'];
    const a: Record<string, any> = { value: 1 };
    const b: Record<string, any> = { value: 1, preemptionPolicy: 'Never' };
    def(a);
    def(b);
    expect([a.preemptionPolicy, b.preemptionPolicy]).toEqual(['PreemptLowerPriority', 'Never']);
    expect(groupVersion.resources[0]).toMatchObject({ plural: 'priorityclasses', namespaced: false, shortNames: ['pc'] });
  });
});
