import { describe, expect, it } from 'vitest';
import type { StatusCause } from '../../apimachinery/errors.js';
import { isDNS1123Subdomain } from '../../apimachinery/names.js';
import { validateDNSConfig, validateHostAliases } from './dns.js';
import { isIPSloppy } from './ip.js';

const config = (c: unknown, policy = 'ClusterFirst'): string[] => {
  const causes: StatusCause[] = [];
  validateDNSConfig(c, policy, 'spec.dnsConfig', causes);
  return causes.map((x) => `${x.field}: ${x.message}`);
};
const IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

describe('validateDNSConfig', () => {
  it('requires name servers with dnsPolicy None', () => {
    expect(config(undefined, 'None')).toEqual(['spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None']);
    expect(config({ searches: ['a'] }, 'None')).toEqual(['spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None']);
    expect(config({ nameservers: ['1.1.1.1'] }, 'None')).toEqual([]);
  });

  it('bounds name servers and search domains and checks them', () => {
    expect(config({ nameservers: ['1.1.1.1', '8.8.8.8', '9.9.9.9', 'dns'] })).toEqual([
      'spec.dnsConfig.nameservers: Invalid value: []string{"1.1.1.1", "8.8.8.8", "9.9.9.9", "dns"}: must not have more than 3 nameservers',
      `spec.dnsConfig.nameservers[3]: Invalid value: "dns": ${IP}`,
    ]);
    const many = Array.from({ length: 33 }, (_, i) => `d${i}.example.com`);
    expect(config({ searches: many })[0]).toMatch(/^spec\.dnsConfig\.searches: Invalid value: \[\]string\{"d0\.example\.com", .*: must not have more than 32 search paths$/);
    expect(config({ searches: Array.from({ length: 32 }, (_, i) => `${String(i).padStart(2, '0')}${'b'.repeat(56)}.x`) })).toEqual([]); // 1951 characters
    const long = Array.from({ length: 32 }, (_, i) => `${String(i).padStart(2, '0')}${'c'.repeat(61)}.x`);
    expect(config({ searches: long })).toEqual([expect.stringMatching(/: must not have more than 2048 characters \(including spaces\) in the search list$/)]);
    expect(config({ searches: ['svc.cluster.local.', 'Bad_Domain.'], options: [{ name: 'ndots', value: '1' }, { value: '2' }] })).toEqual([
      `spec.dnsConfig.searches[1]: Invalid value: "Bad_Domain": ${isDNS1123Subdomain('Bad_Domain')[0]}`,
      'spec.dnsConfig.options[1]: Required value: must not be empty',
    ]);
  });
});

describe('validateHostAliases', () => {
  it('checks the IP and host names', () => {
    const causes: StatusCause[] = [];
    validateHostAliases([{ ip: '10.0.0.300', hostnames: ['ok.local', 'Not_OK'] }, { ip: '010.0.0.1' }, { ip: 'fe80::1%eth0' }], 'spec.hostAliases', causes);
    expect(causes.map((x) => `${x.field}: ${x.message}`)).toEqual([
      `spec.hostAliases[0].ip: Invalid value: "10.0.0.300": ${IP}`,
      `spec.hostAliases[0].hostnames[1]: Invalid value: "Not_OK": ${isDNS1123Subdomain('Not_OK')[0]}`,
      `spec.hostAliases[2].ip: Invalid value: "fe80::1%eth0": ${IP}`,
    ]);
  });

  it('reads IPs as 1.32\'s ParseIPSloppy does', () => {
    expect(['1.2.3.4', '010.001.0.1', '::1', '2001:db8::ffff', '::ffff:1.2.3.4'].map(isIPSloppy)).toEqual([true, true, true, true, true]);
    expect(['1.2.3', '256.1.1.1', '', ' 1.2.3.4', 'fe80::1%eth0', 'a:b'].map(isIPSloppy)).toEqual([false, false, false, false, false, false]);
  });
});
