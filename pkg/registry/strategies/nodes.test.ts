import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import type { RequestContext } from '../context.js';
import { nodeStrategy } from './nodes.js';

const ctx = {} as RequestContext;
const node = (spec: Record<string, unknown>): string[] =>
  nodeStrategy.validate!({ metadata: { name: 'n' }, spec } as KubeObject, ctx).map(causeToString);
const LABEL_NAME = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('Node validation', () => {
  it('takes taints and dual-stack pod ranges such as the kubelet, kubectl taint and node-ipam write', () => {
    expect(node({
      taints: [
        { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }, { key: 'dedicated', value: 'gpu', effect: 'NoExecute', timeAdded: '2026-01-01T00:00:00Z' },
        { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
      ],
      podCIDRs: ['10.244.1.0/24', 'fd00:10:244:1::/64'],
    })).toEqual([]);
    expect(node({ podCIDR: '10.244.1.0/24' })).toEqual([]);
  });

  it('refuses bad taints at upstream\'s metadata.taints path, each key and effect pair once', () => {
    expect(node({ taints: [{}, { key: 'a', value: 'bad value', effect: 'Sometimes' }, { key: 'b', effect: 'NoSchedule' }, { key: 'b', value: 'x', effect: 'NoSchedule' }] })).toEqual([
      'metadata.taints[0].key: Invalid value: "": name part must be non-empty',
      `metadata.taints[0].key: Invalid value: "": ${LABEL_NAME}`,
      'metadata.taints[0].effect: Required value',
      'metadata.taints[1].value: Invalid value: "bad value": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')',
      'metadata.taints[1].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      'metadata.taints[3]: Duplicate value: core.Taint{Key:"b", Value:"x", Effect:"NoSchedule", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair',
    ]);
  });

  it('refuses pod ranges that are no CIDR, two of one family, or the same twice', () => {
    expect(node({ podCIDRs: ['10.0.0.0/24', '10.1.0.0/24'] })).toEqual([
      'spec.podCIDRs: Invalid value: []string{"10.0.0.0/24", "10.1.0.0/24"}: may specify no more than one CIDR for each IP family',
    ]);
    expect(node({ podCIDRs: ['10.0.0.0/24', 'fd00::/64', '10.0.0.0/24'] })).toEqual([
      'spec.podCIDRs: Invalid value: []string{"10.0.0.0/24", "fd00::/64", "10.0.0.0/24"}: may specify no more than one CIDR for each IP family',
      'spec.podCIDRs[2]: Duplicate value: "10.0.0.0/24"',
    ]);
    expect(node({ podCIDRs: ['10.0.0.0/24', 'bad'] })).toEqual([
      'spec.podCIDRs[1]: Invalid value: "bad": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      'spec.podCIDRs: Internal error: invalid PodCIDRs. failed to check with dual stack with error:invalid CIDR[1]: <nil> (invalid CIDR address: bad)',
      'spec.podCIDRs: Invalid value: []string{"10.0.0.0/24", "bad"}: may specify no more than one CIDR for each IP family',
    ]);
  });
});
