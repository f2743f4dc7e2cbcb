import { describe, expect, it } from 'vitest';
import { causeToString } from '../../apimachinery/field.js';
import { isValidCIDR, isValidPortName, isValidPortNum, parseIP, validateIP, validateNonSpecialIP } from './network.js';
import { intOrPercentValue, notMoreThan100Percent, validatePositiveIntOrPercent } from './int-or-percent.js';

const msgs = (causes: { field?: string; message?: string }[]): string[] => causes.map(causeToString);

describe('ports', () => {
  it('IsValidPortNum and IsValidPortName', () => {
    expect(isValidPortNum(1)).toEqual([]);
    expect(isValidPortNum(65536)).toEqual(['must be between 1 and 65535, inclusive']);
    expect(isValidPortName('http-alt')).toEqual([]);
    expect(isValidPortName('Http')).toEqual(['must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)']);
    expect(isValidPortName('8080')).toEqual(['must contain at least one letter (a-z)']);
    expect(isValidPortName('a--b')).toEqual(['must not contain consecutive hyphens']);
    expect(isValidPortName('-ab')).toEqual(['must not begin or end with a hyphen']);
    expect(isValidPortName('abcdefghijklmnop')).toEqual(['must be no more than 15 characters']);
  });
});

describe('IP addresses', () => {
  it('parses as ParseIPSloppy does', () => {
    expect(parseIP('10.0.0.1')).toEqual([10, 0, 0, 1]);
    expect(parseIP('010.0.0.1')).toEqual([10, 0, 0, 1]);
    expect(parseIP('10.0.0.256')).toBeUndefined();
    expect(parseIP('::1')).toHaveLength(16);
    expect(parseIP('::ffff:1.2.3.4')?.slice(12)).toEqual([1, 2, 3, 4]);
    expect(parseIP('fe80::1%eth0')).toBeUndefined();
    expect(msgs(validateIP('nope', 'spec.clusterIPs[0]'))).toEqual(['spec.clusterIPs[0]: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']);
    expect(isValidCIDR('10.0.0.0/8')).toBe(true);
    expect(isValidCIDR('2001:db8::/64')).toBe(true);
    expect(isValidCIDR('10.0.0.0/33')).toBe(false);
    expect(isValidCIDR('10.0.0.0')).toBe(false);
  });

  it('refuses special addresses as ValidateNonSpecialIP does', () => {
    const p = 'spec.externalIPs[0]';
    expect(validateNonSpecialIP('203.0.113.7', p)).toEqual([]);
    expect(msgs(validateNonSpecialIP('0.0.0.0', p))).toEqual([`${p}: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)`]);
    expect(msgs(validateNonSpecialIP('::1', p))).toEqual([`${p}: Invalid value: "::1": may not be in the loopback range (127.0.0.0/8, ::1/128)`]);
    expect(msgs(validateNonSpecialIP('169.254.1.1', p))).toEqual([`${p}: Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)`]);
    expect(msgs(validateNonSpecialIP('fe80::1', p))).toEqual([`${p}: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)`]);
    expect(msgs(validateNonSpecialIP('224.0.0.5', p))).toEqual([`${p}: Invalid value: "224.0.0.5": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)`]);
    expect(msgs(validateNonSpecialIP('::ffff:127.0.0.1', p))).toEqual([`${p}: Invalid value: "::ffff:127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)`]);
  });
});

describe('int or percent', () => {
  it('takes counts and percentages, and renders IntOrString as Go does', () => {
    expect(validatePositiveIntOrPercent('25%', 'p')).toEqual([]);
    expect(validatePositiveIntOrPercent(3, 'p')).toEqual([]);
    expect(msgs(validatePositiveIntOrPercent(-1, 'p'))).toEqual(['p: Invalid value: -1: must be greater than or equal to 0']);
    expect(msgs(validatePositiveIntOrPercent('five', 'p'))).toEqual([
      "p: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"five\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
    ]);
    expect(msgs(notMoreThan100Percent('101%', 'p'))).toEqual(['p: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: must not be greater than 100%']);
    expect(notMoreThan100Percent(150, 'p')).toEqual([]);
    expect([intOrPercentValue('30%'), intOrPercentValue(2), intOrPercentValue('7'), intOrPercentValue('x'), intOrPercentValue(undefined)]).toEqual([30, 2, 7, 0, 0]);
  });
});
