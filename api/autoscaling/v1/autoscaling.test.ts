import { describe, expect, it } from 'vitest';
import { definitions as meta } from '../../meta/v1/index.js';
import { danglingRefs } from '../../meta/v1/refs.js';
import { groupVersion } from './index.js';

describe('autoscaling/v1', () => {
  it('defines Scale with resolvable refs and serves no resources', () => {
    expect(danglingRefs(groupVersion.definitions, { ...meta, ...groupVersion.definitions })).toEqual([]);
    expect(groupVersion.resources).toEqual([]);
    expect(groupVersion.definitions['io.k8s.api.autoscaling.v1.ScaleStatus'].required).toEqual(['replicas']);
  });
});
