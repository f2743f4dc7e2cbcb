import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import dnsPacket, { type DecodedPacket } from 'dns-packet';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterView } from './records.js';
import { DnsServer } from './server.js';

const many = Array.from({ length: 60 }, (_, i) => ({ addresses: [`10.244.0.${i + 1}`], conditions: { ready: true } }));
const view: ClusterView = {
  service: (ns, name) => (ns === 'default' && name === 'web' ? { spec: { clusterIP: '10.96.0.20', ports: [{ port: 80 }] } }
    : ns === 'default' && name === 'big' ? { spec: { clusterIP: 'None', ports: [{ port: 80 }] } }
      : ns === 'default' && name === 'ext' ? { spec: { type: 'ExternalName', externalName: 'example.com' } } : undefined),
  slices: (_ns, svc) => (svc === 'big' ? [{ addressType: 'IPv4', endpoints: many }] : []),
  servicesByIP: () => [],
  slicesByAddress: () => [],
  namespace: (name) => name === 'default',
  self: () => ({ addresses: ['127.0.0.1'], port: 53 }),
};

const query = (name: string, type: 'A' | 'AAAA' = 'A', id = 7): Buffer =>
  dnsPacket.encode({ type: 'query', id, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type, name, class: 'IN' }] });

const askUdp = (port: number, msg: Buffer): Promise<DecodedPacket> => new Promise((resolve, reject) => {
  const s = createSocket('udp4');
  s.on('message', (m) => { s.close(); resolve(dnsPacket.decode(m)); });
  s.send(msg, port, '127.0.0.1', (err) => { if (err) reject(err); });
});

const askTcp = (port: number, msg: Buffer): Promise<DecodedPacket> => new Promise((resolve, reject) => {
  const c = connect(port, '127.0.0.1', () => c.write(dnsPacket.streamEncode(dnsPacket.decode(msg))));
  let buf = Buffer.alloc(0);
  c.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    if (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) { c.end(); resolve(dnsPacket.decode(buf.subarray(2))); }
  });
  c.on('error', reject);
});

describe('DnsServer', () => {
  // the host's resolver: answers every name with 192.0.2.1
  const upstream = createSocket('udp4');
  let server: DnsServer;
  let port: number;

  beforeAll(async () => {
    upstream.on('message', (m, from) => {
      const q = dnsPacket.decode(m);
      upstream.send(dnsPacket.encode({ type: 'response', id: q.id, flags: dnsPacket.RECURSION_AVAILABLE, questions: q.questions, answers: [{ type: 'A', name: q.questions![0]!.name, ttl: 60, data: '192.0.2.1' }] }), from.port, from.address);
    });
    await new Promise<void>((r) => upstream.bind(0, '127.0.0.1', r));
    server = new DnsServer({ view, zone: 'cluster.local.', upstreams: [{ host: '127.0.0.1', port: upstream.address().port }], logger: pino({ level: 'silent' }) });
    port = await server.listen('127.0.0.1', 0);
  });
  afterAll(() => { server.close(); upstream.close(); });

  it('answers cluster names authoritatively over UDP and TCP', async () => {
    for (const ask of [askUdp, askTcp]) {
      const r = await ask(port, query('WEB.default.svc.cluster.local.'));
      expect(r).toMatchObject({ id: 7, rcode: 'NOERROR', flag_aa: true, flag_rd: true });
      expect(r.answers).toMatchObject([{ type: 'A', name: 'WEB.default.svc.cluster.local', data: '10.96.0.20', ttl: 5 }]);
    }
  });

  it('says NXDOMAIN with the zone\'s SOA for names that do not exist, and NODATA for other types', async () => {
    const nx = await askUdp(port, query('nosuch.default.svc.cluster.local'));
    expect(nx).toMatchObject({ rcode: 'NXDOMAIN', answers: [] });
    expect(nx.authorities).toMatchObject([{ type: 'SOA', name: 'cluster.local' }]);
    expect(await askUdp(port, query('web.default.svc.cluster.local', 'AAAA'))).toMatchObject({ rcode: 'NOERROR', answers: [] });
  });

  it('answers the apex\'s SOA in the answer section, not the authority one', async () => {
    const msg = dnsPacket.encode({ type: 'query', id: 3, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type: 'SOA', name: 'cluster.local', class: 'IN' }] });
    const r = await askUdp(port, msg);
    expect(r).toMatchObject({ rcode: 'NOERROR', flag_aa: true, answers: [{ type: 'SOA', name: 'cluster.local', data: { mname: 'ns.dns.cluster.local' } }], authorities: [] });
  });

  it('relays other names to the host\'s resolver', async () => {
    const r = await askUdp(port, query('example.com', 'A', 99));
    expect(r).toMatchObject({ id: 99, answers: [{ name: 'example.com', data: '192.0.2.1' }] });
  });

  it('answers an ExternalName\'s address query with the CNAME and what the host\'s resolver gives for the target', async () => {
    const r = await askUdp(port, query('ext.default.svc.cluster.local', 'A', 5));
    expect(r).toMatchObject({ id: 5, rcode: 'NOERROR', flag_aa: true });
    expect(r.answers).toMatchObject([
      { type: 'CNAME', name: 'ext.default.svc.cluster.local', data: 'example.com' },
      { type: 'A', name: 'example.com', data: '192.0.2.1' },
    ]);
  });

  it('truncates an answer too large for UDP (the client asks again over TCP)', async () => {
    const udp = await askUdp(port, query('big.default.svc.cluster.local'));
    expect(udp).toMatchObject({ flag_tc: true, answers: [] });
    expect((await askTcp(port, query('big.default.svc.cluster.local'))).answers).toHaveLength(60);
  });

  it('answers SERVFAIL when no upstream answers', async () => {
    const lonely = new DnsServer({ view, zone: 'cluster.local', upstreams: [], logger: pino({ level: 'silent' }) });
    const p = await lonely.listen('127.0.0.1', 0);
    try {
      expect(await askUdp(p, query('example.com'))).toMatchObject({ rcode: 'SERVFAIL' });
      // an ExternalName whose target cannot be looked up: no records (CoreDNS skips it)
      expect(await askUdp(p, query('ext.default.svc.cluster.local'))).toMatchObject({ rcode: 'NOERROR', answers: [] });
    } finally {
      lonely.close();
    }
  });
});
