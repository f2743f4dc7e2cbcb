import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import type { RequestContext } from '../context.js';
import { endpointsStrategy } from './endpoints.js';

const ctx = {} as RequestContext;
const check = (subsets: unknown[]): string[] =>
  endpointsStrategy.validate!({ subsets } as KubeObject, ctx).map(causeToString);

describe('Endpoints validation', () => {
  it('takes usual endpoints', () => {
    expect(check([{ addresses: [{ ip: '10.0.0.1', hostname: 'web-0', nodeName: 'node-1' }], ports: [{ port: 80, protocol: 'TCP' }] }])).toEqual([]);
    expect(check([{ notReadyAddresses: [{ ip: 'fd00::1' }], ports: [{ name: 'a', port: 80, protocol: 'TCP' }, { name: 'b', port: 81, protocol: 'UDP' }] }])).toEqual([]);
  });

  it('refuses what upstream refuses, with its words', () => {
    expect(check([{ ports: [{ port: 80, protocol: 'TCP' }] }])).toEqual(['subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`']);
    expect(check([{ addresses: [{ ip: 'not-an-ip' }] }])).toEqual([
      'subsets[0].addresses[0].ip: Invalid value: "not-an-ip": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'subsets[0].addresses[0].ip: Invalid value: "not-an-ip": must be a valid IP address',
    ]);
    expect(check([{ addresses: [{ ip: '169.254.169.254' }] }])).toEqual(['subsets[0].addresses[0].ip: Invalid value: "169.254.169.254": may not be in the link-local range (169.254.0.0/16, fe80::/10)']);
    expect(check([{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 0, protocol: 'ICMP' }, { name: 'b', port: 81, protocol: 'TCP' }] }])).toEqual([
      'subsets[0].ports[0].name: Required value',
      'subsets[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'subsets[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
    ]);
  });

  it('takes loopback addresses (the cluster runs on loopback: a Service may front a local process)', () => {
    expect(check([{ addresses: [{ ip: '127.0.0.1' }] }])).toEqual([]);
  });
});
