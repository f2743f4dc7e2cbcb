import { describe, expect, it } from 'vitest';
import { causeToString } from '../../apimachinery/field.js';
import { validatePersistentVolumeClaimSpec } from './persistentvolumeclaims.js';

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
});
