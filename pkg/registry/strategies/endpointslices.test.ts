import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import type { RequestContext } from '../context.js';
import { endpointSliceStrategy } from './endpointslices.js';

const ctx = {} as RequestContext;
const strs = (causes: { field?: string; message?: string }[]): string[] => causes.map(causeToString);

describe('EndpointSlice validation', () => {
  const slice = (o: Record<string, unknown>): string[] =>
    strs(endpointSliceStrategy.validate!({ addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'] }], ports: [{ name: 'http', port: 80, protocol: 'TCP' }], ...o } as KubeObject, ctx));

  it('takes usual slices', () => {
    expect(slice({})).toEqual([]);
    expect(slice({ addressType: 'IPv6', endpoints: [{ addresses: ['fd00::1'], hostname: 'web-0' }] })).toEqual([]);
    expect(slice({ addressType: 'FQDN', endpoints: [{ addresses: ['db.example.com'] }] })).toEqual([]);
  });

  it('checks address types, addresses and ports', () => {
    expect(slice({ endpoints: [{ addresses: ['not-an-ip'] }] })).toEqual([
      'endpoints[0].addresses[0]: Invalid value: "not-an-ip": must be a valid IPv4 address',
      'endpoints[0].addresses[0]: Invalid value: "not-an-ip": must be a valid IP address',
    ]);
    expect(slice({ endpoints: [{ addresses: ['169.254.169.254'] }, { addresses: [] }] })).toEqual([
      'endpoints[0].addresses[0]: Invalid value: "169.254.169.254": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
      'endpoints[1].addresses: Required value: must contain at least 1 address',
    ]);
    expect(slice({ addressType: 'IP' })).toEqual(['addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"']);
    expect(slice({ ports: [{ name: 'a', protocol: 'ICMP' }, { name: 'a', protocol: 'TCP', appProtocol: 'bad proto' }] })).toEqual([
      'ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
      'ports[1].name: Duplicate value: "a"',
      expect.stringMatching(/^ports\[1\]\.appProtocol: Invalid value: "bad proto": name part must consist of/),
    ]);
  });

  it('takes loopback addresses, from anyone (the cluster runs on loopback), but checks their format', () => {
    const mk = (address: string) => ({ addressType: 'IPv4', endpoints: [{ addresses: [address] }] }) as KubeObject;
    expect(strs(endpointSliceStrategy.validate!(mk('127.0.0.1'), ctx))).toEqual([]);
    expect(strs(endpointSliceStrategy.validate!(mk('0.0.0.0'), ctx))).toEqual(['endpoints[0].addresses[0]: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)']);
  });

  it('allows the deprecated IP type on update but never a change of type', () => {
    const old = { addressType: 'IP', endpoints: [] } as KubeObject;
    expect(strs(endpointSliceStrategy.validateUpdate!({ addressType: 'IP', endpoints: [] } as KubeObject, old, ctx))).toEqual([]);
    expect(strs(endpointSliceStrategy.validateUpdate!({ addressType: 'IPv4', endpoints: [] } as KubeObject, old, ctx))).toEqual([
      'addressType: Invalid value: "IPv4": field is immutable',
    ]);
  });
});
