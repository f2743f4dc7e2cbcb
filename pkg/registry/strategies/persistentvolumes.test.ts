import { describe, expect, it } from 'vitest';
import { causeToString } from '../../apimachinery/field.js';
import { validatePersistentVolumeSpec } from './persistentvolumes.js';

const strs = (causes: { field?: string; message?: string }[]): string[] => causes.map(causeToString);

describe('PersistentVolume validation', () => {
  const pv = (spec: Record<string, unknown>): string[] =>
    strs(validatePersistentVolumeSpec({ accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, hostPath: { path: '/data' }, ...spec }));

  it('takes usual volumes', () => {
    expect(pv({})).toEqual([]);
    expect(pv({ hostPath: undefined, nfs: { server: 'nfs.example.com', path: '/exports' }, persistentVolumeReclaimPolicy: 'Recycle', storageClassName: 'slow' })).toEqual([]);
    expect(pv({ hostPath: undefined, csi: { driver: 'ebs.csi.aws.com', volumeHandle: 'vol-1' }, volumeMode: 'Block' })).toEqual([]);
  });

  it('checks modes, capacity, policy, sources and node affinity', () => {
    expect(pv({ persistentVolumeReclaimPolicy: 'Foo' })).toEqual([
      'spec.persistentVolumeReclaimPolicy: Unsupported value: "Foo": supported values: "Delete", "Recycle", "Retain"',
    ]);
    expect(pv({ accessModes: [], capacity: undefined })).toEqual([
      'spec.accessModes: Required value',
      'spec.capacity: Required value',
      'spec.capacity: Unsupported value: core.ResourceList(nil): supported values: "storage"',
    ]);
    expect(pv({ capacity: { storage: '0' }, nfs: { server: 's', path: 'rel' } })).toEqual([
      'spec.capacity[storage]: Invalid value: "0": must be greater than zero',
      'spec.nfs: Forbidden: may not specify more than 1 volume type',
    ]);
    expect(pv({ hostPath: undefined })).toEqual(['spec: Required value: must specify a volume type']);
    expect(pv({ hostPath: undefined, local: { path: '/mnt/disk' } })).toEqual(['spec.nodeAffinity: Required value: Local volume requires node affinity']);
    expect(pv({ nodeAffinity: {}, volumeMode: 'Raw', hostPath: { path: '/' }, persistentVolumeReclaimPolicy: 'Recycle' })).toEqual([
      'spec.nodeAffinity.required: Required value: must specify required node constraints',
      "spec.persistentVolumeReclaimPolicy: Forbidden: may not be 'recycle' for a hostPath mount of '/'",
      'spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"',
    ]);
    expect(pv({ nodeAffinity: { required: { nodeSelectorTerms: [] } } })).toEqual([
      'spec.nodeAffinity.required.nodeSelectorTerms: Required value: must have at least one node selector term',
    ]);
  });
});
