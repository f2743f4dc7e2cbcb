import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { causeToString } from '../../apimachinery/field.js';
import { validateContainerVolumes } from './volume-mounts.js';

const C = 'spec.containers[0]';
const volumes = new Map<string, KubeObject>([
  ['data', { name: 'data', emptyDir: {} }],
  ['claim', { name: 'claim', persistentVolumeClaim: { claimName: 'pvc' } }],
  ['eph', { name: 'eph', ephemeral: { volumeClaimTemplate: {} } }],
]);
const errors = (container: KubeObject): string[] => {
  const out: StatusCause[] = [];
  validateContainerVolumes(container, volumes, C, out);
  return out.map(causeToString);
};

describe('volumeMounts', () => {
  it('want a declared volume and unique mount paths', () => {
    expect(errors({ volumeMounts: [{ name: 'nope', mountPath: '/a' }, { name: 'data', mountPath: '/a' }] })).toEqual([
      `${C}.volumeMounts[0].name: Not found: "nope"`,
      `${C}.volumeMounts[1].mountPath: Invalid value: "/a": must be unique`,
    ]);
  });

  it('check sub paths, at the unindexed path upstream reports them at', () => {
    expect(errors({ volumeMounts: [{ name: 'data', mountPath: '/a', subPath: '/abs/../x', subPathExpr: '$(POD)' }] })).toEqual([
      `${C}.volumeMounts.subPath: Invalid value: "/abs/../x": must be a relative path`,
      `${C}.volumeMounts.subPath: Invalid value: "/abs/../x": must not contain '..'`,
      `${C}.volumeMounts[0].subPathExpr: Invalid value: "$(POD)": subPathExpr and subPath are mutually exclusive`,
    ]);
  });

  it('check mount propagation and recursive read-only', () => {
    expect(errors({ volumeMounts: [
      { name: 'data', mountPath: '/a', mountPropagation: 'Sideways' },
      { name: 'data', mountPath: '/b', mountPropagation: 'Bidirectional', recursiveReadOnly: 'Enabled' },
      { name: 'data', mountPath: '/c', recursiveReadOnly: 'Maybe' },
    ] })).toEqual([
      `${C}.volumeMounts.mountPropagation: Unsupported value: "Sideways": supported values: "Bidirectional", "HostToContainer", "None"`,
      `${C}.volumeMounts.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers`,
      `${C}.volumeMounts.recursiveReadOnly: Forbidden: may only be specified when readOnly is true`,
      `${C}.volumeMounts.recursiveReadOnly: Forbidden: may only be specified when mountPropagation is None or not specified`,
      `${C}.volumeMounts.recursiveReadOnly: Unsupported value: "Maybe": supported values: "Disabled", "Enabled", "IfPossible"`,
    ]);
    expect(errors({ securityContext: { privileged: true }, volumeMounts: [{ name: 'data', mountPath: '/a', mountPropagation: 'Bidirectional' }] })).toEqual([]);
  });
});

describe('volumeDevices', () => {
  it('want a claim volume, unique names and paths, not also mounted', () => {
    expect(errors({
      volumeMounts: [{ name: 'claim', mountPath: '/dev/x' }],
      volumeDevices: [
        { name: 'claim', devicePath: '/dev/x' }, { name: 'data', devicePath: '/dev/y' }, { name: 'eph', devicePath: '/dev/y' },
        { name: 'eph', devicePath: '/dev/../z' }, { name: 'gone', devicePath: '/dev/w' },
      ],
    })).toEqual([
      `${C}.volumeMounts[0].name: Invalid value: "claim": must not already exist in volumeDevices`,
      `${C}.volumeMounts[0].mountPath: Invalid value: "/dev/x": must not already exist as a path in volumeDevices`,
      `${C}.volumeDevices[0].name: Invalid value: "claim": must not already exist in volumeMounts`,
      `${C}.volumeDevices[0].devicePath: Invalid value: "/dev/x": must not already exist as a path in volumeMounts`,
      `${C}.volumeDevices[1].name: Invalid value: "data": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode`,
      `${C}.volumeDevices[2].devicePath: Invalid value: "/dev/y": must be unique`,
      `${C}.volumeDevices[3].name: Invalid value: "eph": must be unique`,
      `${C}.volumeDevices[3].devicePath: Invalid value: "/dev/../z": can not contain backsteps ('..')`,
      `${C}.volumeDevices[4].name: Not found: "gone"`,
    ]);
  });
});
