// The cluster DNS against a real apiserver: a Service's name answers with its ClusterIP and its address with its
// name as soon as the watch delivers it, and is gone (NXDOMAIN) once the Service is deleted; a pod's address behind
// Services answers with a name under each of them.
import { createSocket } from 'node:dgram';
import dnsPacket, { type DecodedPacket } from 'dns-packet';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Resources } from '../../pkg/client/index.js';
import { startDns, type RunningDns } from '../../pkg/dns/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { eventually } from './kubelet-support.js';

const ask = (port: number, name: string, type: 'A' | 'PTR' | 'NS' | 'TXT'): Promise<DecodedPacket> => new Promise((resolve) => {
  const s = createSocket('udp4');
  s.on('message', (m) => { s.close(); resolve(dnsPacket.decode(m)); });
  s.send(dnsPacket.encode({ type: 'query', id: 1, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type, name, class: 'IN' }] }), port, '127.0.0.1');
});

describe('cluster DNS', () => {
  let api: TestApiServer;
  let admin: Client;
  let dns: RunningDns;

  beforeAll(async () => {
    api = await startTestApiServer({ controllers: [] });
    admin = await Client.fromKubeconfig(api.kubeconfig, { qps: 0 });
    dns = await startDns({ client: admin, zone: 'cluster.local', host: '127.0.0.1', port: 0, upstreams: [], logger: pino({ level: 'silent' }) });
  });
  afterAll(async () => {
    await dns?.stop();
    await admin?.close();
    await api?.close();
  });

  it('follows Services: name to ClusterIP, ClusterIP to name, NXDOMAIN once deleted', async () => {
    const svc = await admin.services('default').create({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } });
    const ip = svc.spec!.clusterIP as string;
    const a = await eventually(async () => {
      const r = await ask(dns.port, 'web.default.svc.cluster.local', 'A');
      return r.answers?.length ? r : undefined;
    });
    expect(a.answers).toMatchObject([{ type: 'A', data: ip }]);
    expect((await ask(dns.port, `${ip.split('.').reverse().join('.')}.in-addr.arpa`, 'PTR')).answers).toMatchObject([{ type: 'PTR', data: 'web.default.svc.cluster.local' }]);
    expect((await ask(dns.port, 'kubernetes.default.svc.cluster.local', 'A')).answers).toMatchObject([{ data: '10.96.0.1' }]);
    await admin.services('default').delete('web');
    await eventually(async () => ((await ask(dns.port, 'web.default.svc.cluster.local', 'A')).flags! & 0xf) === 3); // NXDOMAIN
  });

  it('answers PTR for a pod address behind Services: one name per Service, following the slices', async () => {
    const ptr = async (): Promise<string[]> => ((await ask(dns.port, '141.0.244.10.in-addr.arpa', 'PTR')).answers ?? []).map((a) => String((a as { data: unknown }).data)).sort();
    const slices = admin.resource(Resources.endpointSlices, 'default');
    for (const svc of ['front', 'back']) {
      await admin.services('default').create({ apiVersion: 'v1', kind: 'Service', metadata: { name: svc }, spec: { ports: [{ port: 80 }] } });
      await slices.create({
        apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: svc, labels: { 'kubernetes.io/service-name': svc } }, addressType: 'IPv4',
        ports: [{ port: 8080, protocol: 'TCP' }], endpoints: [{ addresses: ['10.244.0.141'], conditions: { ready: true } }],
      });
    }
    const both = ['10-244-0-141.back.default.svc.cluster.local', '10-244-0-141.front.default.svc.cluster.local'];
    expect(await eventually(async () => { const names = await ptr(); return names.length === 2 ? names : undefined; })).toEqual(both);
    await slices.delete('back');
    await eventually(async () => (await ptr()).length === 1);
    expect(await ptr()).toEqual([both[1]]);
  });

  it('answers the apex NS with this server (no Service in front of it here: ns.dns.<zone> at its address), and dns-version', async () => {
    const ns = await ask(dns.port, 'cluster.local', 'NS');
    expect(ns.answers).toMatchObject([{ type: 'NS', name: 'cluster.local', data: 'ns.dns.cluster.local' }]);
    expect(ns.additionals).toMatchObject([{ type: 'A', name: 'ns.dns.cluster.local', data: '127.0.0.1' }]);
    expect((await ask(dns.port, 'dns-version.cluster.local', 'TXT')).answers).toMatchObject([{ type: 'TXT', ttl: 28_800, data: [Buffer.from('1.1.0')] }]);
  });

  it('answers pod names in a namespace only once it exists (NXDOMAIN before, as CoreDNS)', async () => {
    const rcode = async (name: string): Promise<number> => (await ask(dns.port, name, 'A')).flags! & 0xf;
    expect(await rcode('10-0-0-1.dns-late.pod.cluster.local')).toBe(3);
    expect(await rcode('dns-late.svc.cluster.local')).toBe(3);
    await admin.namespaces().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'dns-late' } });
    const r = await eventually(async () => { const x = await ask(dns.port, '10-0-0-1.dns-late.pod.cluster.local', 'A'); return x.answers?.length ? x : undefined; });
    expect(r.answers).toMatchObject([{ type: 'A', data: '10.0.0.1' }]);
    expect(await rcode('dns-late.svc.cluster.local')).toBe(0);
  });
});
