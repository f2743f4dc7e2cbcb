import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import type { RequestContext } from '../context.js';
import { leaseStrategy } from './leases.js';

const ctx = {} as RequestContext;
const strs = (causes: { field?: string; message?: string }[]): string[] => causes.map(causeToString);

describe('Lease validation', () => {
  const lease = (spec: Record<string, unknown>): string[] => strs(leaseStrategy.validate!({ spec } as KubeObject, ctx));
  it('checks duration and transitions', () => {
    expect(lease({ holderIdentity: 'node-1', leaseDurationSeconds: 40, leaseTransitions: 0 })).toEqual([]);
    expect(lease({ leaseDurationSeconds: 0, leaseTransitions: -1 })).toEqual([
      'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
      'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });
});

describe('the CoordinatedLeaderElection fields (alpha, off in 1.32)', () => {
  it('are dropped on create, and on update unless the stored lease has them, field by field', () => {
    const created = { spec: { holderIdentity: 'a', strategy: 'OldestEmulationVersion', preferredHolder: 'b' } } as KubeObject;
    leaseStrategy.prepareForCreate!(created, ctx);
    expect(created.spec).toEqual({ holderIdentity: 'a' });
    const updated = { spec: { holderIdentity: 'a', strategy: 'Bogus', preferredHolder: 'b' } } as KubeObject;
    leaseStrategy.prepareForUpdate!(updated, { spec: { strategy: 'OldestEmulationVersion' } } as KubeObject, ctx);
    expect(updated.spec).toEqual({ holderIdentity: 'a', strategy: 'Bogus' });
  });
});
