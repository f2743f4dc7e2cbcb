import { describe, expect, it } from 'vitest';
import { causeToString } from '../../apimachinery/field.js';
import type { KubeObject } from '../../../api/types.js';
import { systemContext } from '../context.js';
import { persistentVolumeClaimStrategy, validatePersistentVolumeClaimSpec, validatePersistentVolumeClaimUpdate } from './persistentvolumeclaims.js';

const check = (spec: Record<string, unknown>): string[] =>
  validatePersistentVolumeClaimSpec({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec }).map(causeToString);

describe('PersistentVolumeClaim validation', () => {
  it('takes a usual claim', () => {
    expect(check({})).toEqual([]);
    expect(check({ storageClassName: 'fast', volumeMode: 'Block', dataSource: { kind: 'PersistentVolumeClaim', name: 'src' } })).toEqual([]);
  });

  it('checks access modes, storage, class, volume mode and data sources', () => {
    expect(check({ accessModes: [], resources: {} })).toEqual(['spec.accessModes: Required value: at least 1 access mode is required', 'spec.resources[storage]: Required value']);
    expect(check({ accessModes: ['ReadWriteOncePod', 'ReadWriteOnce', 'WriteSometimes'] })).toEqual([
      'spec.accessModes: Unsupported value: "WriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
      'spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes',
    ]);
    expect(check({ resources: { requests: { storage: '0' } } })).toEqual(['spec.resources[storage]: Invalid value: "0": must be greater than zero']);
    expect(check({ storageClassName: 'Fast', volumeMode: 'Raw' })).toEqual([
      expect.stringMatching(/^spec\.storageClassName: Invalid value: "Fast": a lowercase RFC 1123 subdomain/),
      'spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"',
    ]);
    expect(check({ dataSource: { kind: 'Pod', name: 'p' }, dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'q' } })).toEqual([
      "spec.dataSource: Invalid value: \"Pod\": must be 'PersistentVolumeClaim' when referencing the default apiGroup",
      'spec: Invalid value: "spec.dataSource": must match dataSourceRef',
    ]);
  });

  describe('updates', () => {
    const spec = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'standard', volumeMode: 'Filesystem' };
    type Claim = { spec?: Record<string, unknown>; status?: Record<string, unknown>; annotations?: Record<string, string> };
    const claim = (c: Claim) => ({ metadata: { name: 'c', annotations: c.annotations }, spec: c.spec ?? spec, status: c.status });
    const update = (next: Claim, old: Claim = {}): string[] => validatePersistentVolumeClaimUpdate(claim(next), claim(old)).map(causeToString);
    const bound = { phase: 'Bound', capacity: { storage: '1Gi' } };

    it('takes a volume name once, and a bound claim\'s new storage request', () => {
      expect(update({ spec: { ...spec, volumeName: 'pv-1' } })).toEqual([]);
      expect(update({ spec: { ...spec, volumeName: 'pv-2' } }, { spec: { ...spec, volumeName: 'pv-1' } })[0]).toMatch(/^spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n  core.PersistentVolumeClaimSpec\{\n  \t... \/\/ 3 identical fields\n- \tVolumeName: "pv-1",\n\+ \tVolumeName: "pv-2",\n  \t... \/\/ 5 identical fields\n  \}\n$/);
      expect(update({ spec: { ...spec, resources: { requests: { storage: '2Gi' } } }, status: bound }, { status: bound })).toEqual([]);
    });

    it('refuses other changes, a pending claim\'s new request and a shrink to status.capacity', () => {
      expect(update({ spec: { ...spec, accessModes: ['ReadWriteMany'] } })).toEqual([
        'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n'
        + '  core.PersistentVolumeClaimSpec{\n- \tAccessModes: []core.PersistentVolumeAccessMode{"ReadWriteOnce"},\n'
        + '+ \tAccessModes: []core.PersistentVolumeAccessMode{"ReadWriteMany"},\n  \t... // 8 identical fields\n  }\n',
      ]);
      expect(update({ spec: { ...spec, storageClassName: 'other' } })[0]).toMatch(/- \tStorageClassName: &"standard",\n\+ \tStorageClassName: &"other",/);
      expect(update({ spec: { ...spec, resources: { requests: { storage: '2Gi' } } } })[0]).toMatch(/- \tResources: \{Requests: \{Storage: "1Gi"\}\},\n\+ \tResources: \{Requests: \{Storage: "2Gi"\}\},/);
      const big = { ...spec, resources: { requests: { storage: '5Gi' } } };
      expect(update({ spec: { ...spec, resources: { requests: { storage: '2Gi' } } }, status: bound }, { spec: big, status: bound })).toEqual([]);
      expect(update({ spec, status: bound }, { spec: big, status: bound })).toEqual(['spec.resources.requests.storage: Forbidden: field can not be less than status.capacity']);
      expect(update({ spec: { ...spec, volumeMode: 'Block' } })).toEqual([expect.stringMatching(/^spec: Forbidden: /), 'volumeMode: Invalid value: "Block": field is immutable']);
    });

    it('lets a class be named where there was none, or only the beta annotation', () => {
      const { storageClassName: _none, ...unnamed } = spec;
      expect(update({ spec }, { spec: unnamed })).toEqual([]);
      const annotations = { 'volume.beta.kubernetes.io/storage-class': 'standard' };
      expect(update({ spec, annotations }, { spec: unnamed, annotations })).toEqual([]);
      expect(update({ spec: { ...spec, storageClassName: 'other' }, annotations }, { spec: unnamed, annotations })[0]).toMatch(/^spec: Forbidden/);
      expect(update({ spec: unnamed, annotations: { 'volume.beta.kubernetes.io/storage-class': 'other' } }, { spec: unnamed, annotations })).toEqual([
        'metadata.annotations.volume.beta.kubernetes.io/storage-class: Invalid value: "other": field is immutable',
      ]);
    });
  });
});

describe('PersistentVolumeClaim creation', () => {
  it('starts Pending whatever status the client sent, as upstream\'s cleared status read back defaulted', () => {
    const pvc: KubeObject = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c' }, spec: {}, status: { phase: 'Bound', capacity: { storage: '1Gi' } } };
    persistentVolumeClaimStrategy.prepareForCreate!(pvc, systemContext('default'));
    expect(pvc.status).toEqual({ phase: 'Pending' });
  });
});
