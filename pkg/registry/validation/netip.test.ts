import { describe, expect, it } from 'vitest';
import { cidrWarnings, ipWarnings, netipString } from './netip.js';
import { parseIP } from './network.js';

const canonical = (s: string): string => netipString(parseIP(s)!);

describe('netip', () => {
  it('prints IPv6 as RFC 5952 does, as Go\'s netip.Addr.String', () => {
    expect(canonical('2001:0DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
    expect(canonical('2001:db8:0:1:0:0:0:1')).toBe('2001:db8:0:1::1'); // the longer run
    expect(canonical('2001:0:0:1:0:0:1:1')).toBe('2001::1:0:0:1:1'); // the first of equal runs
    expect(canonical('2001:db8:0:1:1:1:1:1')).toBe('2001:db8:0:1:1:1:1:1'); // one zero group stays
    expect(canonical('0:0:0:0:0:0:0:0')).toBe('::');
    expect(canonical('fe80:0:0:0:0:0:0:0')).toBe('fe80::');
    expect(canonical('::FFFF:10.0.0.1')).toBe('::ffff:10.0.0.1');
    expect(canonical('::10.0.0.1')).toBe('::a00:1');
    expect(canonical('10.0.0.1')).toBe('10.0.0.1');
  });

  it('warns of what netip refuses or would print otherwise', () => {
    expect(ipWarnings('spec.externalIPs[0]', '1.2.3.04')).toEqual(['spec.externalIPs[0]: IP address was accepted, but will be invalid in a future Kubernetes release: ParseAddr("1.2.3.04"): IPv4 field has octet with leading zero']);
    expect(ipWarnings('spec.loadBalancerIP', '2001:DB8::1')).toEqual(['spec.loadBalancerIP: IPv6 address "2001:DB8::1" is not in RFC 5952 canonical format ("2001:db8::1"), which may cause controller apply-loops']);
    expect(ipWarnings('x', '1.2.3.4')).toEqual([]);
    expect(ipWarnings('x', '2001:db8::1')).toEqual([]);
    expect(ipWarnings('x', '0.0.0.0')).toEqual([]);
    expect(cidrWarnings('r[0]', '010.0.0.0/8')).toEqual(['r[0]: IP prefix was accepted, but will be invalid in a future Kubernetes release: netip.ParsePrefix("010.0.0.0/8"): ParseAddr("010.0.0.0"): IPv4 field has octet with leading zero']);
    expect(cidrWarnings('r[0]', '10.0.0.0/08')).toEqual(['r[0]: IP prefix was accepted, but will be invalid in a future Kubernetes release: netip.ParsePrefix("10.0.0.0/08"): bad bits after slash: "08"']);
    expect(cidrWarnings('r[0]', '2001:DB8::/32')).toEqual(['r[0]: IPv6 prefix "2001:DB8::/32" is not in RFC 5952 canonical format ("2001:db8::/32"), which may cause controller apply-loops']);
    expect(cidrWarnings('r[0]', '10.1.0.0/16')).toEqual([]);
    expect(cidrWarnings('r[0]', '10.1.2.3/16')).toEqual([]); // bits past the prefix are netip's too
    expect(cidrWarnings('r[0]', '2001:db8::/32')).toEqual([]);
  });
});
