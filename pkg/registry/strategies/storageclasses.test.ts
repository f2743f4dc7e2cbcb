import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import type { RequestContext } from '../context.js';
import { storageClassStrategy } from './storageclasses.js';

const ctx = {} as RequestContext;
const strs = (causes: { field?: string; message?: string }[]): string[] => causes.map(causeToString);

describe('StorageClass validation', () => {
  const sc = (o: Record<string, unknown>): string[] =>
    strs(storageClassStrategy.validate!({ provisioner: 'kubernetes.io/no-provisioner', reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate', ...o } as KubeObject, ctx));

  it('checks provisioner, policy and binding mode', () => {
    expect(sc({})).toEqual([]);
    expect(sc({ reclaimPolicy: 'Foo', volumeBindingMode: 'Later' })).toEqual([
      'reclaimPolicy: Unsupported value: "Foo": supported values: "Delete", "Retain"',
      'volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"',
    ]);
    expect(sc({ provisioner: '' })).toEqual(['provisioner: Required value']);
    expect(sc({ provisioner: 'Example.com/Bad Name' })).toEqual([
      expect.stringMatching(/^provisioner: Invalid value: "example.com\/bad name": name part must consist of alphanumeric characters/),
    ]);
  });

  it('keeps provisioner, parameters, reclaimPolicy and volumeBindingMode on update', () => {
    const old = { provisioner: 'a.io/x', parameters: { type: 'gp2' }, reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' } as KubeObject;
    expect(strs(storageClassStrategy.validateUpdate!({ ...old }, old, ctx))).toEqual([]);
    expect(strs(storageClassStrategy.validateUpdate!({ provisioner: 'b.io/x', parameters: { type: 'gp3' }, reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' } as KubeObject, old, ctx))).toEqual([
      'parameters: Forbidden: updates to parameters are forbidden.',
      'provisioner: Forbidden: updates to provisioner are forbidden.',
      'reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.',
      'volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable',
    ]);
  });
});
