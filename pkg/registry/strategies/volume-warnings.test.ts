import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { systemContext } from '../context.js';
import { persistentVolumeClaimStrategy } from './persistentvolumeclaims.js';
import { persistentVolumeStrategy } from './persistentvolumes.js';

const ctx = systemContext('');
const BETA_CLASS = 'volume.beta.kubernetes.io/storage-class';
const CLASS_WARNING = `metadata.annotations[${BETA_CLASS}]: deprecated since v1.8; use "storageClassName" attribute instead`;

describe('PersistentVolumeClaim warnings (GetWarningsForPersistentVolumeClaim)', () => {
  const claim = (annotations: Record<string, string> | undefined, resources: KubeObject): KubeObject =>
    ({ metadata: { name: 'c', annotations }, spec: { accessModes: ['ReadWriteOnce'], resources } });

  it('warns of the beta storage-class annotation and fractional storage, on create and on update', () => {
    const pvc = claim({ [BETA_CLASS]: 'fast' }, { requests: { storage: '0.5' }, limits: { storage: '1500m' } });
    const expected = [
      CLASS_WARNING,
      'spec.resources.requests[storage]: fractional byte value "500m" is invalid, must be an integer',
      'spec.resources.limits[storage]: fractional byte value "1500m" is invalid, must be an integer',
    ];
    expect(persistentVolumeClaimStrategy.warningsOnCreate!(pvc, ctx)).toEqual(expected);
    // upstream warns of the new object on every update, changed or not
    expect(persistentVolumeClaimStrategy.warningsOnUpdate!(pvc, pvc, ctx)).toEqual(expected);
  });

  it('has nothing to say of a usual claim', () => {
    expect(persistentVolumeClaimStrategy.warningsOnCreate!(claim(undefined, { requests: { storage: '1Gi' } }), ctx)).toEqual([]);
    expect(persistentVolumeClaimStrategy.warningsOnCreate!(claim({ other: 'x' }, { requests: { storage: '1500' } }), ctx)).toEqual([]);
  });
});

describe('PersistentVolume warnings (GetWarningsForPersistentVolume)', () => {
  const volume = (spec: KubeObject, annotations?: Record<string, string>): KubeObject =>
    ({ metadata: { name: 'v', annotations }, spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, ...spec } });

  it('warns of the beta storage-class annotation, Recycle, deprecated node labels and plugins, in upstream order', () => {
    const pv = volume({
      persistentVolumeReclaimPolicy: 'Recycle',
      nodeAffinity: { required: { nodeSelectorTerms: [
        { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['n1'] }] },
        { matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }, { key: 'failure-domain.beta.kubernetes.io/zone', operator: 'In', values: ['a'] }] },
      ] } },
      rbd: { monitors: ['m'], image: 'i' },
      glusterfs: { endpoints: 'e', path: 'p' },
      storageos: {},
      scaleIO: {},
      photonPersistentDisk: { pdID: 'x' },
      cephfs: { monitors: ['m'] },
    }, { [BETA_CLASS]: 'slow' });
    const expected = [
      CLASS_WARNING,
      'spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.',
      'spec.nodeAffinity.required.nodeSelectorTerms[1].matchExpressions[1].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
      'spec.cephfs: deprecated in v1.28, non-functional in v1.31+',
      'spec.photonPersistentDisk: deprecated in v1.11, non-functional in v1.16+',
      'spec.scaleIO: deprecated in v1.16, non-functional in v1.22+',
      'spec.storageOS: deprecated in v1.22, non-functional in v1.25+',
      'spec.glusterfs: deprecated in v1.25, non-functional in v1.26+',
      'spec.rbd: deprecated in v1.28, non-functional in v1.31+',
    ];
    expect(persistentVolumeStrategy.warningsOnCreate!(pv, ctx)).toEqual(expected);
    expect(persistentVolumeStrategy.warningsOnUpdate!(pv, pv, ctx)).toEqual(expected);
  });

  it('has nothing to say of a usual volume', () => {
    expect(persistentVolumeStrategy.warningsOnCreate!(volume({ hostPath: { path: '/data' }, persistentVolumeReclaimPolicy: 'Retain' }), ctx)).toEqual([]);
    // plugins that are deprecated for pods only, or null, are not warned of
    expect(persistentVolumeStrategy.warningsOnCreate!(volume({ flocker: { datasetName: 'd' }, quobyte: null, cephfs: null }), ctx)).toEqual([]);
  });
});
