import { describe, expect, it } from 'vitest';
import { definitions as meta } from '../../meta/v1/index.js';
import { danglingRefs } from '../../meta/v1/refs.js';
import { groupVersion } from './index.js';

const { definitions, defaulters } = groupVersion;
const S = 'io.k8s.api.storage.v1.';

describe('storage/v1', () => {
  it('references only known definitions (core aside)', () => {
    const outside = danglingRefs(definitions, { ...meta, ...definitions }).filter((r) => !r.includes('-> io.k8s.api.core.v1.'));
    expect(outside).toEqual([]);
  });

  it('defaults a StorageClass to Delete / Immediate unless set', () => {
    const a: Record<string, any> = { provisioner: 'p' };
    const b: Record<string, any> = { provisioner: 'p', reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' };
    defaulters![`${S}StorageClass`](a);
    defaulters![`${S}StorageClass`](b);
    expect([a.reclaimPolicy, a.volumeBindingMode, b.reclaimPolicy, b.volumeBindingMode])
      .toEqual(['Delete', 'Immediate', 'Retain', 'WaitForFirstConsumer']);
  });

  it('defaults a CSIDriver like upstream', () => {
    const d: Record<string, any> = { spec: { attachRequired: false } };
    defaulters![`${S}CSIDriver`](d);
    expect(d.spec).toEqual({
      attachRequired: false, podInfoOnMount: false, storageCapacity: false, fsGroupPolicy: 'ReadWriteOnceWithFSType',
      volumeLifecycleModes: ['Persistent'], requiresRepublish: false, seLinuxMount: false,
    });
  });

  it('merges CSINode drivers by name', () => {
    expect(definitions[`${S}CSINodeSpec`].properties!.drivers['x-kubernetes-patch-merge-key']).toBe('name');
  });
});
