import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types.js';
import { lookup, readyAddresses, type ClusterView } from './records.js';

const services: Record<string, KubeObject> = {
  'default/web': { spec: { clusterIP: '10.96.0.20', ports: [{ name: 'http', port: 80, protocol: 'TCP' }, { port: 81 }] } },
  'default/db': { spec: { clusterIP: 'None', ports: [{ name: 'pg', port: 5432 }] } },
  'default/empty': { spec: { clusterIP: 'None', ports: [{ port: 1 }] } },
  'default/ext': { spec: { type: 'ExternalName', externalName: 'example.com.' } },
  'default/inner': { spec: { type: 'ExternalName', externalName: 'Web.default.svc.cluster.local' } },
  'default/loop': { spec: { type: 'ExternalName', externalName: 'loop.default.svc.cluster.local' } },
  'default/dangling': { spec: { type: 'ExternalName', externalName: 'nosuch.default.svc.cluster.local' } },
  'default/weblocal': { spec: { clusterIP: '10.96.0.21', ports: [{ port: 80, protocol: 'TCP' }] } },
  'default/hl': { spec: { clusterIP: 'None', ports: [{ port: 8080 }] } },
  'default/bare': { spec: { clusterIP: 'None' } },
  'default/kubernetes': { spec: { clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443, protocol: 'TCP' }] } },
  'kube-system/kube-dns': { spec: { clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'], ports: [{ name: 'dns', port: 53, protocol: 'UDP' }] } },
};
const slice = (service: string, endpoints: unknown[], ports: unknown[] = [], namespace = 'default'): KubeObject =>
  ({ metadata: { namespace, labels: { 'kubernetes.io/service-name': service } }, addressType: 'IPv4', ports, endpoints });
const allSlices = [
  slice('db', [
    { addresses: ['10.244.0.5'], hostname: 'db-0', conditions: { ready: true } },
    { addresses: ['10.244.0.6'], conditions: { ready: true } },
    { addresses: ['10.244.0.7'], hostname: 'db-2', conditions: { ready: false } },
  ], [{ name: 'pg', port: 15432, protocol: 'TCP' }]),
  // one pod selected by two ClusterIP services (each slice a port of its own: the same name once)
  slice('web', [{ addresses: ['10.244.0.141'], conditions: { ready: true } }]),
  slice('web', [{ addresses: ['10.244.0.141'], conditions: {} }]),
  slice('api', [{ addresses: ['10.244.0.141'], conditions: { ready: true } }, { addresses: ['10.244.0.142'], conditions: { ready: false } }]),
  slice('hl', [{ addresses: ['10.244.0.8'], conditions: { ready: true } }], [{ port: 8080, protocol: 'TCP' }]),
  slice('bare', [{ addresses: ['10.244.0.9'], hostname: 'b-0', conditions: { ready: true } }]),
  // the DNS server itself, as `up` publishes it; and the apiserver at the same loopback address, another port
  slice('kube-dns', [{ addresses: ['127.0.0.1'], conditions: { ready: true } }], [{ name: 'dns', port: 5353, protocol: 'UDP' }], 'kube-system'),
  slice('kubernetes', [{ addresses: ['127.0.0.1'], conditions: { ready: true } }], [{ name: 'https', port: 6443, protocol: 'TCP' }]),
];
const view: ClusterView = {
  service: (ns, name) => services[`${ns}/${name}`],
  slices: (_ns, svc) => allSlices.filter((s) => s.metadata!.labels!['kubernetes.io/service-name'] === svc),
  servicesByIP: (ip) => Object.entries(services).filter(([, s]) => s.spec!.clusterIP === ip).map(([key, s]) => {
    const [namespace, name] = key.split('/');
    return { ...s, metadata: { namespace, name } };
  }),
  slicesByAddress: (ip) => allSlices.filter((s) => readyAddresses(s).includes(ip)),
  namespace: (name) => name === 'default' || name === 'other',
  self: () => ({ addresses: ['127.0.0.1', '192.168.1.2'], port: 5353 }),
};
const zone = 'cluster.local';
const data = (name: string, type: string): unknown => {
  const r = lookup(view, zone, name, type);
  return r && (r.exists ? r.answers.map((x) => (x as { data: unknown }).data) : 'NXDOMAIN');
};

describe('cluster DNS records', () => {
  it('answers a ClusterIP service with its address, and other types of it with nothing', () => {
    expect(data('web.default.svc.cluster.local', 'A')).toEqual(['10.96.0.20']);
    expect(data('web.default.svc.cluster.local', 'AAAA')).toEqual([]);
    expect(data('nosuch.default.svc.cluster.local', 'A')).toBe('NXDOMAIN');
    expect(data('web.other.svc.cluster.local', 'A')).toBe('NXDOMAIN');
  });

  it('answers a headless service with its ready endpoints, each also by hostname or dashed address', () => {
    expect(data('db.default.svc.cluster.local', 'A')).toEqual(['10.244.0.5', '10.244.0.6']);
    expect(data('db-0.db.default.svc.cluster.local', 'A')).toEqual(['10.244.0.5']);
    expect(data('10-244-0-6.db.default.svc.cluster.local', 'A')).toEqual(['10.244.0.6']);
    expect(data('db-2.db.default.svc.cluster.local', 'A')).toBe('NXDOMAIN');
    expect(data('empty.default.svc.cluster.local', 'A')).toBe('NXDOMAIN');
  });

  it('gives SRV records of named ports, ExternalName as a CNAME, pods by dashed address, PTR of ClusterIPs', () => {
    expect(data('_http._tcp.web.default.svc.cluster.local', 'SRV')).toEqual([{ priority: 0, weight: 100, port: 80, target: 'web.default.svc.cluster.local' }]);
    expect(data('_http._udp.web.default.svc.cluster.local', 'SRV')).toBe('NXDOMAIN');
    expect(data('_pg._tcp.db.default.svc.cluster.local', 'SRV')).toEqual([
      { priority: 0, weight: 50, port: 15432, target: 'db-0.db.default.svc.cluster.local' },
      { priority: 0, weight: 50, port: 15432, target: '10-244-0-6.db.default.svc.cluster.local' },
    ]);
    expect(data('ext.default.svc.cluster.local', 'CNAME')).toEqual(['example.com']);
    expect(data('10-244-1-9.default.pod.cluster.local', 'A')).toEqual(['10.244.1.9']);
    expect(data('20.0.96.10.in-addr.arpa', 'PTR')).toEqual(['web.default.svc.cluster.local']);
  });

  it('answers SRV for a service name as CoreDNS: every port, named or not, its weight 100 shared out; headless, each endpoint at each port of its slice', () => {
    expect(lookup(view, zone, 'weblocal.default.svc.cluster.local', 'SRV')).toEqual({
      exists: true,
      answers: [{ type: 'SRV', name: 'weblocal.default.svc.cluster.local', ttl: 5, class: 'IN', data: { priority: 0, weight: 100, port: 80, target: 'weblocal.default.svc.cluster.local' } }],
      additionals: [{ type: 'A', name: 'weblocal.default.svc.cluster.local', ttl: 5, class: 'IN', data: '10.96.0.21' }],
    });
    expect(data('web.default.svc.cluster.local', 'SRV')).toEqual([
      { priority: 0, weight: 50, port: 80, target: 'web.default.svc.cluster.local' }, { priority: 0, weight: 50, port: 81, target: 'web.default.svc.cluster.local' },
    ]);
    expect(lookup(view, zone, 'web.default.svc.cluster.local', 'SRV')?.additionals).toEqual([{ type: 'A', name: 'web.default.svc.cluster.local', ttl: 5, class: 'IN', data: '10.96.0.20' }]);
    expect(lookup(view, zone, 'hl.default.svc.cluster.local', 'SRV')).toMatchObject({
      answers: [{ data: { priority: 0, weight: 100, port: 8080, target: '10-244-0-8.hl.default.svc.cluster.local' } }],
      additionals: [{ type: 'A', name: '10-244-0-8.hl.default.svc.cluster.local', data: '10.244.0.8' }],
    });
    expect(data('db.default.svc.cluster.local', 'SRV')).toEqual([
      { priority: 0, weight: 50, port: 15432, target: 'db-0.db.default.svc.cluster.local' },
      { priority: 0, weight: 50, port: 15432, target: '10-244-0-6.db.default.svc.cluster.local' },
    ]);
    // a port's name and protocol select (without underscores too); a name no port has: NXDOMAIN
    expect(data('_http._tcp.hl.default.svc.cluster.local', 'SRV')).toBe('NXDOMAIN');
    expect(data('http.tcp.web.default.svc.cluster.local', 'SRV')).toEqual([{ priority: 0, weight: 100, port: 80, target: 'web.default.svc.cluster.local' }]);
    // endpoints without ports: no SRV, their addresses all the same
    expect(data('bare.default.svc.cluster.local', 'SRV')).toEqual([]);
    expect(data('bare.default.svc.cluster.local', 'A')).toEqual(['10.244.0.9']);
    expect(data('empty.default.svc.cluster.local', 'SRV')).toBe('NXDOMAIN');
  });

  it('answers an endpoint\'s name and a port\'s name with addresses, under any service, as CoreDNS\'s findServices', () => {
    expect(data('10-244-0-141.web.default.svc.cluster.local', 'A')).toEqual(['10.244.0.141']);
    expect(data('_http._tcp.web.default.svc.cluster.local', 'A')).toEqual(['10.96.0.20']);
    expect(data('_pg._tcp.db.default.svc.cluster.local', 'A')).toEqual(['10.244.0.5', '10.244.0.6']);
    expect(data('db-0.db.default.svc.cluster.local', 'SRV')).toEqual([{ priority: 0, weight: 100, port: 15432, target: 'db-0.db.default.svc.cluster.local' }]);
    expect(data('x.y.z.web.default.svc.cluster.local', 'A')).toBe('NXDOMAIN');
  });

  it('answers PTR for a ready endpoint address: one name per Service, by hostname or dashed address (CoreDNS\'s serviceRecordForIP)', () => {
    expect(data('141.0.244.10.in-addr.arpa', 'PTR')).toEqual(['10-244-0-141.web.default.svc.cluster.local', '10-244-0-141.api.default.svc.cluster.local']);
    expect(data('5.0.244.10.in-addr.arpa', 'PTR')).toEqual(['db-0.db.default.svc.cluster.local']);
    expect(data('6.0.244.10.in-addr.arpa', 'PTR')).toEqual(['10-244-0-6.db.default.svc.cluster.local']);
    expect(data('6.0.244.10.in-addr.arpa', 'A')).toEqual([]);
    // not ready: not published, so the host's resolvers answer
    expect(data('7.0.244.10.in-addr.arpa', 'PTR')).toBeUndefined();
    expect(data('142.0.244.10.in-addr.arpa', 'PTR')).toBeUndefined();
  });

  it('answers the apex\'s SOA and NS (the Service in front of this server, with its address), and dns-version TXT, as CoreDNS', () => {
    expect(lookup(view, zone, 'cluster.local', 'SOA')?.answers).toMatchObject([
      { type: 'SOA', name: 'cluster.local', ttl: 5, data: { mname: 'ns.dns.cluster.local', rname: 'hostmaster.cluster.local', refresh: 7200, retry: 1800, expire: 86_400, minimum: 5 } },
    ]);
    expect(lookup(view, zone, 'cluster.local', 'NS')).toEqual({
      exists: true,
      answers: [{ type: 'NS', name: 'cluster.local', ttl: 5, class: 'IN', data: 'kube-dns.kube-system.svc.cluster.local' }],
      additionals: [{ type: 'A', name: 'kube-dns.kube-system.svc.cluster.local', ttl: 5, class: 'IN', data: '10.96.0.10' }],
    });
    expect(data('cluster.local', 'A')).toEqual([]);
    expect(data('ns.dns.cluster.local', 'A')).toEqual(['10.96.0.10']);
    expect(data('ns.dns.cluster.local', 'AAAA')).toEqual([]);
    expect(lookup(view, zone, 'dns-version.cluster.local', 'TXT')?.answers).toEqual([{ type: 'TXT', name: 'dns-version.cluster.local', ttl: 28_800, class: 'IN', data: '1.1.0' }]);
    expect(data('dns-version.cluster.local', 'A')).toBe('NXDOMAIN');
    expect(data('web.default.svc.cluster.local', 'TXT')).toEqual([]);
    // no Service in front of this server: ns.dns.<zone> at its own addresses
    const alone = { ...view, self: () => ({ addresses: ['192.0.2.7'], port: 53 }) };
    expect(lookup(alone, zone, 'cluster.local', 'NS')).toMatchObject({
      answers: [{ type: 'NS', data: 'ns.dns.cluster.local' }], additionals: [{ type: 'A', name: 'ns.dns.cluster.local', data: '192.0.2.7' }],
    });
    expect(lookup(alone, zone, 'ns.dns.cluster.local', 'A')?.answers).toMatchObject([{ type: 'A', name: 'ns.dns.cluster.local', data: '192.0.2.7' }]);
  });

  it('answers an address query for an ExternalName with the CNAME and the target\'s records: the zone\'s, or the host resolvers\' to come', () => {
    expect(lookup(view, zone, 'ext.default.svc.cluster.local', 'A')).toEqual({
      exists: true, external: 'example.com', answers: [{ type: 'CNAME', name: 'ext.default.svc.cluster.local', ttl: 5, class: 'IN', data: 'example.com' }],
    });
    expect(lookup(view, zone, 'inner.default.svc.cluster.local', 'A')).toEqual({
      exists: true,
      answers: [
        { type: 'CNAME', name: 'inner.default.svc.cluster.local', ttl: 5, class: 'IN', data: 'Web.default.svc.cluster.local' },
        { type: 'A', name: 'web.default.svc.cluster.local', ttl: 5, class: 'IN', data: '10.96.0.20' },
      ],
    });
    // a target without addresses, or a loop: nothing (as CoreDNS)
    expect(data('inner.default.svc.cluster.local', 'AAAA')).toEqual([]);
    expect(data('dangling.default.svc.cluster.local', 'A')).toEqual([]);
    expect(data('loop.default.svc.cluster.local', 'A')).toEqual([]);
  });

  it('says NXDOMAIN for names in namespaces that do not exist (CoreDNS\'s namespaceExposed)', () => {
    expect(data('10-0-0-1.nosuchns.pod.cluster.local', 'A')).toBe('NXDOMAIN');
    expect(data('nosuchns.pod.cluster.local', 'A')).toBe('NXDOMAIN');
    expect(data('nosuchns.svc.cluster.local', 'A')).toBe('NXDOMAIN');
    expect(data('_http._tcp.web.nosuchns.svc.cluster.local', 'SRV')).toBe('NXDOMAIN');
    expect(data('other.svc.cluster.local', 'A')).toEqual([]);
    expect(data('default.pod.cluster.local', 'A')).toEqual([]);
    expect(data('10-0-0-1.other.pod.cluster.local', 'A')).toEqual(['10.0.0.1']);
  });

  it('leaves names outside the zone, and addresses outside the cluster, to the host\'s resolvers', () => {
    expect(data('example.com', 'A')).toBeUndefined();
    expect(data('1.2.0.192.in-addr.arpa', 'PTR')).toBeUndefined();
    expect(data('svc.cluster.local', 'A')).toEqual([]);
    expect(data('web.default.nope.cluster.local', 'A')).toBe('NXDOMAIN');
  });
});
