import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { defaulters } from '../../../api/storage/v1/defaults.js';
import { causeToString } from '../../apimachinery/field.js';
import type { RequestContext } from '../context.js';
import { csiDriverStrategy } from './csidrivers.js';

const ctx = {} as RequestContext;
const strs = (causes: { field?: string; message?: string }[]): string[] => causes.map(causeToString);

/** A driver's CSIDriver as its deployment ships it, defaulted as the decoder does. */
const driver = (spec: Record<string, unknown> = {}): KubeObject => {
  const d: KubeObject = { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: 'hostpath.csi.k8s.io' }, spec: { attachRequired: false, podInfoOnMount: true, volumeLifecycleModes: ['Persistent', 'Ephemeral'], fsGroupPolicy: 'File', ...spec } };
  defaulters['io.k8s.api.storage.v1.CSIDriver']!(d);
  return d;
};

describe('CSIDriver validation', () => {
  const v = (spec: Record<string, unknown>): string[] => strs(csiDriverStrategy.validate!(driver(spec), ctx));

  it('takes usual drivers', () => {
    expect(v({})).toEqual([]);
    expect(v({ storageCapacity: true, requiresRepublish: true, seLinuxMount: true, tokenRequests: [{ audience: '' }, { audience: 'vault', expirationSeconds: 3600 }] })).toEqual([]);
  });

  it('refuses unknown policies and modes, and bad token requests', () => {
    expect(v({ fsGroupPolicy: 'Always', volumeLifecycleModes: ['Persistent', 'Inline'] })).toEqual([
      'spec.fsGroupPolicy: Unsupported value: "Always": supported values: "File", "None", "ReadWriteOnceWithFSType"',
      'spec.volumeLifecycleModes: Unsupported value: "Inline": supported values: "Persistent", "Ephemeral"',
    ]);
    expect(v({ tokenRequests: [{ audience: 'a', expirationSeconds: 60 }, { audience: 'a', expirationSeconds: 1 }, { audience: 'b', expirationSeconds: 2 ** 33 }] })).toEqual([
      'spec.tokenRequests[0].expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
      'spec.tokenRequests[1].audience: Duplicate value: "a"',
      'spec.tokenRequests[2].expirationSeconds: Invalid value: 8589934592: may not specify a duration larger than 2^32 seconds',
    ]);
    // what the defaults set, required when absent (at upstream's spec.attachedRequired)
    expect(strs(csiDriverStrategy.validate!({ metadata: { name: 'd' }, spec: {} } as KubeObject, ctx))).toEqual([
      'spec.attachedRequired: Required value', 'spec.podInfoOnMount: Required value', 'spec.storageCapacity: Required value', 'spec.seLinuxMount: Required value',
    ]);
  });

  it('keeps attachRequired and volumeLifecycleModes on update, and raises the generation with the spec', () => {
    const old = driver();
    expect(strs(csiDriverStrategy.validateUpdate!(driver({ podInfoOnMount: false, fsGroupPolicy: 'None', storageCapacity: true }), old, ctx))).toEqual([]);
    expect(strs(csiDriverStrategy.validateUpdate!(driver({ attachRequired: true, volumeLifecycleModes: ['Persistent'] }), old, ctx))).toEqual([
      'spec.attachedRequired: Invalid value: true: field is immutable',
      'spec.volumeLifecycleModes: Invalid value: []storage.VolumeLifecycleMode{"Persistent"}: field is immutable',
    ]);
    const next = driver({ storageCapacity: true });
    csiDriverStrategy.prepareForUpdate!(next, old, ctx);
    expect(next.metadata?.generation).toBe(1);
    const same = driver();
    csiDriverStrategy.prepareForUpdate!(same, old, ctx);
    expect(same.metadata?.generation).toBeUndefined();
  });
});
