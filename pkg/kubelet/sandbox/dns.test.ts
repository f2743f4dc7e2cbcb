// The pod's resolv.conf by dnsPolicy, as upstream's kubelet computes it, and the host resolv.conf it starts from.
import { describe, expect, it } from 'vitest';
import { hostNetworkHostsFile, hostsFile, MISSING_CLUSTER_DNS, parseResolvConf, podDnsConfig, resolvConf, type DnsSettings } from './dns.js';

const host = parseResolvConf('# generated\nnameserver 192.0.2.53\nnameserver 192.0.2.54 ; second\nsearch corp.example lab.example\noptions edns0 rotate\n');
const settings: DnsSettings = { clusterDns: ['10.96.0.10'], clusterDomain: 'cluster.local', host };

describe('pod DNS', () => {
  it('parses the host resolv.conf', () => {
    expect(host).toEqual({ servers: ['192.0.2.53', '192.0.2.54'], searches: ['corp.example', 'lab.example'], options: ['edns0', 'rotate'] });
  });

  it('ClusterFirst: cluster servers, the namespace searches then the host\'s, ndots:5', () => {
    const { config, warning } = podDnsConfig({ namespace: 'team' }, settings);
    expect(warning).toBeUndefined();
    expect(resolvConf(config)).toBe('search team.svc.cluster.local svc.cluster.local cluster.local corp.example lab.example\nnameserver 10.96.0.10\noptions ndots:5\n');
  });

  it('ClusterFirst on the host network is Default; ClusterFirstWithHostNet stays cluster', () => {
    expect(podDnsConfig({ namespace: 'a', hostNetwork: true }, settings).config).toEqual(host);
    expect(podDnsConfig({ namespace: 'a', hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' }, settings).config.servers).toEqual(['10.96.0.10']);
  });

  it('ClusterFirst without --cluster-dns falls back to Default with the MissingClusterDNS message', () => {
    const r = podDnsConfig({ namespace: 'a' }, { ...settings, clusterDns: [] });
    expect(r).toEqual({ config: host, warning: MISSING_CLUSTER_DNS, limits: [] });
  });

  it('None takes only dnsConfig; dnsConfig is merged (deduplicated, options by name) in any policy', () => {
    const dnsConfig = { nameservers: ['1.1.1.1'], searches: ['x.example'], options: [{ name: 'ndots', value: '2' }, { name: 'edns0' }] };
    expect(resolvConf(podDnsConfig({ namespace: 'a', dnsPolicy: 'None', dnsConfig }, settings).config)).toBe('search x.example\nnameserver 1.1.1.1\noptions ndots:2 edns0\n');
    const merged = podDnsConfig({ namespace: 'a', dnsConfig: { ...dnsConfig, nameservers: ['10.96.0.10', '1.1.1.1'] } }, settings).config;
    expect(merged.servers).toEqual(['10.96.0.10', '1.1.1.1']);
    expect(merged.options).toEqual(['ndots:2', 'edns0']);
    expect(merged.searches.at(-1)).toBe('x.example');
  });

  it('keeps 3 nameservers, saying so (upstream\'s formDNSNameserversFitsLimits)', () => {
    const r = podDnsConfig({ namespace: 'a', dnsConfig: { nameservers: ['1.1.1.1', '8.8.8.8', '9.9.9.9'] } }, settings);
    expect(r.config.servers).toEqual(['10.96.0.10', '1.1.1.1', '8.8.8.8']);
    expect(r.limits).toEqual(['Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: 10.96.0.10 1.1.1.1 8.8.8.8']);
    expect(podDnsConfig({ namespace: 'a', dnsConfig: { nameservers: ['1.1.1.1', '8.8.8.8'] } }, settings).limits).toEqual([]);
  });

  it('keeps 32 searches, none over 253 characters, 2048 characters in all, saying so (upstream\'s formDNSSearchFitsLimits)', () => {
    const many = Array.from({ length: 40 }, (_, i) => `d${i}.example`);
    const r = podDnsConfig({ namespace: 'a', dnsPolicy: 'None', dnsConfig: { searches: many } }, settings);
    expect(r.config.searches).toEqual(many.slice(0, 32));
    expect(r.limits).toEqual([`Search Line limits were exceeded, some search paths have been omitted, the applied search line is: ${many.slice(0, 32).join(' ')}`]);
    const long = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}`; // 255 characters
    expect(podDnsConfig({ namespace: 'a', dnsPolicy: 'None', dnsConfig: { searches: ['x.example', long, 'y.example'] } }, settings))
      .toMatchObject({ config: { searches: ['x.example', 'y.example'] }, limits: ['Search Line limits were exceeded, some search paths have been omitted, the applied search line is: x.example y.example'] });
    const wide = Array.from({ length: 10 }, (_, i) => `${String(i).repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(63)}.${'g'.repeat(60)}`); // 252 each
    const cut = podDnsConfig({ namespace: 'a', dnsPolicy: 'None', dnsConfig: { searches: wide } }, settings);
    expect(cut.config.searches).toEqual(wide.slice(0, 8)); // 8 × 252 + 7 spaces = 2023
    expect(cut.limits).toHaveLength(1);
    expect(podDnsConfig({ namespace: 'a' }, settings).limits).toEqual([]);
  });

  it('parses the host resolv.conf as upstream\'s parseResolvConf: options add up by name, searches lose a trailing dot and ".", comments are lines', () => {
    expect(parseResolvConf('options timeout:1 ndots:2\noptions attempts:3 ndots:3\nsearch old.example\nsearch a.example. . b.example\n')).toEqual({
      servers: [], searches: ['a.example', 'b.example'], options: ['timeout:1', 'ndots:3', 'attempts:3'],
    });
    // only a line that starts with # is a comment; anything else is a word of its line, as upstream reads it
    expect(parseResolvConf('  # nameserver 192.0.2.1\nnameserver 192.0.2.2 # a\n; nameserver 192.0.2.3\nsearch x.example # y.example\n')).toEqual({
      servers: ['192.0.2.2'], searches: ['x.example', '#', 'y.example'], options: [],
    });
  });

  it('Default copies the host; an empty None writes an empty file', () => {
    expect(podDnsConfig({ namespace: 'a', dnsPolicy: 'Default' }, settings).config).toEqual(host);
    expect(resolvConf(podDnsConfig({ namespace: 'a', dnsPolicy: 'None' }, settings).config)).toBe('');
  });
});

describe('pod /etc/hosts', () => {
  it('names the pod by its FQDN when it has a subdomain, and adds its hostAliases, as upstream\'s managed hosts file', () => {
    const lines = hostsFile('10.244.0.5', 'db-0', {
      fqdn: 'db-0.db.default.svc.cluster.local',
      hostAliases: [{ ip: '10.1.2.3', hostnames: ['foo.local', 'bar.local'] }, { ip: '10.1.2.4', hostnames: ['baz'] }],
    }).split('\n');
    expect(lines[0]).toBe('# Kubernetes-managed hosts file.');
    expect(lines.slice(7)).toEqual([
      '10.244.0.5\tdb-0.db.default.svc.cluster.local\tdb-0', '', '# Entries added by HostAliases.', '10.1.2.3\tfoo.local\tbar.local', '10.1.2.4\tbaz', '',
    ]);
    expect(hostsFile('10.244.0.6', 'web').split('\n').slice(7)).toEqual(['10.244.0.6\tweb', '']);
  });

  it('names the pod by its short hostname when the kernel\'s is its FQDN (setHostnameAsFQDN)', () => {
    const fqdn = 'db-0.db.default.svc.cluster.local';
    expect(hostsFile('10.244.0.5', fqdn, { hostname: 'db-0', fqdn }).split('\n')[7]).toBe(`10.244.0.5\t${fqdn}\tdb-0`);
  });

  it('gives a host-network pod the node\'s hosts file with its hostAliases added, as upstream\'s nodeHostsFileContent', () => {
    expect(hostNetworkHostsFile('127.0.0.1 localhost\n', [{ ip: '10.1.2.3', hostnames: ['foo.local', 'bar.local'] }])).toBe(
      '# Kubernetes-managed hosts file (host network).\n127.0.0.1 localhost\n\n# Entries added by HostAliases.\n10.1.2.3\tfoo.local\tbar.local\n');
  });
});
