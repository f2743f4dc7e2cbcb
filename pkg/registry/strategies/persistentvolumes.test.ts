import { describe, expect, it } from 'vitest';
import { causeToString } from '../../apimachinery/field.js';
import { persistentVolumeStrategy, validatePersistentVolumeSpec } from './persistentvolumes.js';

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

  it('keeps the volume source, volume mode and node affinity of an existing volume', () => {
    const spec = { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, hostPath: { path: '/data', type: '' } };
    const update = (next: Record<string, unknown>, old: Record<string, unknown> = spec): string[] =>
      strs(persistentVolumeStrategy.validateUpdate!({ spec: next }, { spec: old }, undefined as never) as never);
    expect(update({ ...spec, capacity: { storage: '2Gi' }, persistentVolumeReclaimPolicy: 'Retain', claimRef: { name: 'c' } })).toEqual([]);
    expect(update({ ...spec, hostPath: { path: '/other', type: '' } })).toEqual([
      'spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation\n'
      + '  core.PersistentVolumeSource{\n  \t... // 2 identical fields\n'
      + '- \tHostPath: &{Path: "/data", Type: ""},\n+ \tHostPath: &{Path: "/other", Type: ""},\n'
      + '  \t... // 19 identical fields\n  }\n',
    ]);
    expect(update({ ...spec, volumeMode: 'Block' }, { ...spec, volumeMode: 'Filesystem' })).toEqual(['volumeMode: Invalid value: "Block": field is immutable']);
    const csi = { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, csi: { driver: 'd.example.com', volumeHandle: 'v' } };
    const secret = { name: 's', namespace: 'ns' };
    expect(update({ ...csi, csi: { ...csi.csi, controllerExpandSecretRef: secret } }, csi)).toEqual([]);
    expect(update({ ...csi, csi: { ...csi.csi, nodePublishSecretRef: secret } }, csi)[0]).toMatch(/^spec.persistentvolumesource: Forbidden: .*\n- \tCSI: &\{Driver: "d.example.com", VolumeHandle: "v"\},\n\+ \tCSI: &\{Driver: "d.example.com", VolumeHandle: "v", NodePublishSecretRef: \{Name: "s", Namespace: "ns"\}\},\n  }\n$/s);
    const affinity = { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'k', operator: 'In', values: ['a'] }] }] } };
    expect(update({ ...spec, nodeAffinity: affinity })).toEqual([]);
    expect(update({ ...spec, nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'k', operator: 'In', values: ['b'] }] }] } } }, { ...spec, nodeAffinity: affinity })).toEqual([
      'nodeAffinity: Invalid value: core.VolumeNodeAffinity{Required:(*core.NodeSelector)(0xc000010000)}: field is immutable',
    ]);
  });
});
