import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import type { RequestContext } from '../context.js';
import { csiNodeStrategy } from './csinodes.js';

const ctx = {} as RequestContext;
const strs = (causes: { field?: string; message?: string }[]): string[] => causes.map(causeToString);
const SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const hostpath = { name: 'hostpath.csi.k8s.io', nodeID: 'node-1', topologyKeys: ['topology.hostpath.csi/node'], allocatable: { count: 100 } };
/** As the kubelet writes it when a driver registers. */
const csiNode = (drivers: unknown[]): KubeObject => ({
  apiVersion: 'storage.k8s.io/v1', kind: 'CSINode',
  metadata: { name: 'node-1', ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: '1f6c' }] },
  spec: { drivers },
});

describe('CSINode validation', () => {
  const v = (drivers: unknown[]): string[] => strs(csiNodeStrategy.validate!(csiNode(drivers), ctx));

  it('takes what the kubelet writes', () => {
    expect(v([])).toEqual([]);
    expect(v([hostpath, { name: 'ebs.csi.aws.com', nodeID: 'i-0123456789abcdef0', topologyKeys: ['topology.ebs.csi.aws.com/zone'] }])).toEqual([]);
    expect(v([{ ...hostpath, nodeID: 'n'.repeat(256) }])).toEqual([]);
  });

  it('refuses bad names, node IDs, counts and topology keys', () => {
    expect(v([{ ...hostpath, nodeID: 'n'.repeat(257), allocatable: { count: -1 } }, { ...hostpath, nodeID: '' }])).toEqual([
      `spec.drivers[0].nodeID: Invalid value: "${'n'.repeat(257)}": must be 256 characters or less`,
      'spec.drivers[0].allocatable.count: Invalid value: -1: must be greater than or equal to 0',
      'spec.drivers[1].nodeID: Required value',
      'spec.drivers[1].name: Duplicate value: "hostpath.csi.k8s.io"',
    ]);
    expect(v([{ name: 'Bad_Driver', nodeID: 'n', topologyKeys: ['a', 'a', ''] }])).toEqual([
      `spec.drivers[0].name: Invalid value: "Bad_Driver": ${SUBDOMAIN}`,
      'spec.drivers[0]: Duplicate value: "a"',
      'spec.drivers[0]: Required value',
      'spec.drivers[0]: Invalid value: "": name part must be non-empty',
      expect.stringMatching(/^spec\.drivers\[0\]: Invalid value: "": name part must consist of alphanumeric characters/),
    ]);
  });

  it('keeps a registered driver on update, and reports an update\'s errors twice as upstream', () => {
    const old = csiNode([hostpath]);
    expect(strs(csiNodeStrategy.validateUpdate!(csiNode([hostpath, { name: 'ebs.csi.aws.com', nodeID: 'i-1' }]), old, ctx))).toEqual([]);
    expect(strs(csiNodeStrategy.validateUpdate!(csiNode([]), old, ctx))).toEqual([]);
    expect(strs(csiNodeStrategy.validateUpdate!(csiNode([{ ...hostpath, nodeID: 'node-2' }]), old, ctx))).toEqual([
      'CSINodeDriver: Invalid value: storage.CSINodeDriver{Name:"hostpath.csi.k8s.io", NodeID:"node-2", TopologyKeys:[]string{"topology.hostpath.csi/node"}, Allocatable:(*storage.VolumeNodeResources)(0xc000010000)}: field is immutable',
    ]);
    expect(strs(csiNodeStrategy.validateUpdate!(csiNode([hostpath, { name: 'b.io', nodeID: '' }]), old, ctx))).toEqual([
      'spec.drivers[1].nodeID: Required value', 'spec.drivers[1].nodeID: Required value',
    ]);
  });
});
