// The service proxy against a real apiserver: a Service without selector and an EndpointSlice naming local TCP and
// UDP echo servers; connections to the NodePort (and, as root, to the ClusterIP) reach them, follow endpoint changes,
// are reset once no endpoint is left, and are refused once the Service is gone. Then one proxy for three nodes of one
// host, as `up --nodes 3` runs it: the Local traffic policies and the health check node port go by the node a
// connection is local to.
import { createSocket } from 'node:dgram';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { Client, Resources, type KubeObject } from '../../pkg/client/index.js';
import { startProxy, type RunningProxy } from '../../pkg/proxy/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { eventually } from './kubelet-support.js';

const echoTcp = (tag: string, host = '127.0.0.1'): Promise<Server> => new Promise((resolve) => {
  const s = createServer((c) => c.on('data', (d) => c.end(`${tag}:${d.toString()}`)));
  s.listen(0, host, () => resolve(s));
});

/** What a TCP exchange with host:port (from localAddress, if given) gives: the reply, or the error code. */
const ask = (host: string, port: number, text: string, localAddress?: string): Promise<string> => new Promise((resolve) => {
  let got = '';
  const c = connect({ host, port, localAddress }, () => c.write(text));
  c.on('data', (d) => { got += d.toString(); });
  c.on('end', () => resolve(got));
  c.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
  c.setTimeout(3000, () => { c.destroy(); resolve('timeout'); });
});

const askUdp = (host: string, port: number, text: string): Promise<string> => new Promise((resolve) => {
  const s = createSocket('udp4');
  const t = setTimeout(() => { s.close(); resolve('timeout'); }, 1000);
  s.on('message', (m) => { clearTimeout(t); s.close(); resolve(m.toString()); });
  s.send(text, port, host);
});

describe('service proxy', () => {
  let api: TestApiServer;
  let admin: Client;
  let proxy: RunningProxy;
  const servers: Server[] = [];
  const udp = createSocket('udp4');
  let svc: KubeObject;
  const portOf = (s: Server): number => (s.address() as AddressInfo).port;

  const setEndpoints = async (tcp: Server[], udpPort?: number): Promise<void> => {
    const slices = admin.resource(Resources.endpointSlices, 'default');
    await slices.delete('echo-a').catch(() => undefined);
    await slices.delete('echo-b').catch(() => undefined);
    const labels = { 'kubernetes.io/service-name': 'echo' };
    // one slice per port here: each port has its own endpoints (the echo servers listen on different ports)
    for (const [i, s] of tcp.entries()) {
      await slices.create({
        apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: `echo-${'ab'[i]}`, labels }, addressType: 'IPv4',
        ports: [{ name: 'tcp', port: portOf(s), protocol: 'TCP' }, ...(i === 0 && udpPort ? [{ name: 'udp', port: udpPort, protocol: 'UDP' }] : [])],
        endpoints: [{ addresses: ['127.0.0.1'], conditions: { ready: true } }],
      });
    }
  };

  beforeAll(async () => {
    api = await startTestApiServer();
    admin = await Client.fromKubeconfig(api.kubeconfig, { qps: 0 });
    servers.push(await echoTcp('a'), await echoTcp('b'));
    udp.on('message', (m, from) => udp.send(`u:${m.toString()}`, from.port, from.address));
    await new Promise<void>((r) => udp.bind(0, '127.0.0.1', r));
    svc = await admin.services('default').create({
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'echo' },
      spec: { type: 'NodePort', ports: [{ name: 'tcp', port: 7000, protocol: 'TCP' }, { name: 'udp', port: 7001, protocol: 'UDP' }] },
    });
    await setEndpoints([servers[0]!], udp.address().port);
    proxy = await startProxy({
      client: admin, node: 'n1', nodePortAddresses: ['127.0.0.1'], logger: pino({ level: 'silent' }), syncPeriodMs: 60_000,
      bindClusterIPs: process.platform === 'linux' && process.getuid?.() === 0,
    });
    await proxy.ready;
  });

  afterAll(async () => {
    await proxy?.stop();
    for (const s of servers) s.close();
    udp.close();
    await api?.stop();
  });

  const nodePort = (name: string): number => (svc.spec!.ports as { name: string; nodePort: number }[]).find((p) => p.name === name)!.nodePort;

  it('forwards NodePort connections and UDP flows to the endpoints, round-robin as endpoints are added', async () => {
    expect(await ask('127.0.0.1', nodePort('tcp'), 'hi')).toBe('a:hi');
    expect(await askUdp('127.0.0.1', nodePort('udp'), 'ping')).toBe('u:ping');
    await setEndpoints(servers);
    await eventually(async () => {
      const replies = new Set([await ask('127.0.0.1', nodePort('tcp'), 'x'), await ask('127.0.0.1', nodePort('tcp'), 'x')]);
      return replies.size === 2 && replies.has('a:x') && replies.has('b:x');
    });
  });

  it('serves the ClusterIP when run as root', async (ctx) => {
    if (!proxy.clusterIPs) ctx.skip();
    const ip = svc.spec!.clusterIP as string;
    expect(['a:c', 'b:c']).toContain(await ask(ip, 7000, 'c'));
  });

  it('resets connections while no endpoint is left, and stops listening once the Service is gone', async () => {
    await setEndpoints([]);
    await eventually(async () => (await ask('127.0.0.1', nodePort('tcp'), 'x')) === 'ECONNRESET');
    await admin.services('default').delete('echo');
    await eventually(async () => (await ask('127.0.0.1', nodePort('tcp'), 'x')) === 'ECONNREFUSED');
  });
});

describe('service proxy for the nodes of one host', () => {
  let api: TestApiServer;
  let admin: Client;
  let proxy: RunningProxy;
  const servers: Server[] = [];
  const portOf = (s: Server): number => (s.address() as AddressInfo).port;
  const node = (n: number): KubeObject => ({
    apiVersion: 'v1', kind: 'Node', metadata: { name: `node-${n}` }, spec: { podCIDR: `10.244.${n - 1}.0/24`, podCIDRs: [`10.244.${n - 1}.0/24`] },
    status: { addresses: [{ type: 'InternalIP', address: `127.0.0.${n}` }, { type: 'Hostname', address: `node-${n}` }] },
  });
  /** A Service whose endpoints are an echo server on node-1 (127.0.0.11) and one on node-2 (127.0.0.12). */
  const service = async (name: string, spec: Record<string, unknown>): Promise<KubeObject> => {
    const svc = await admin.services('default').create({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ...spec, ports: [{ name: 'http', port: 80, protocol: 'TCP' }] } });
    for (const [i, s] of servers.entries()) {
      await admin.resource(Resources.endpointSlices, 'default').create({
        apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: `${name}-${i + 1}`, labels: { 'kubernetes.io/service-name': name } }, addressType: 'IPv4',
        ports: [{ name: 'http', port: portOf(s), protocol: 'TCP' }], endpoints: [{ addresses: [`127.0.0.1${i + 1}`], nodeName: `node-${i + 1}`, conditions: { ready: true } }],
      });
    }
    return svc;
  };
  /** The replies of `n` connections (each from `from`, if given). */
  const replies = async (host: string, port: number, n: number, from?: string): Promise<string[]> => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(await ask(host, port, 'x', from));
    return out;
  };
  const health = async (host: string, port: number): Promise<[number, number]> => {
    const r = await fetch(`http://${host}:${port}/healthz`);
    return [r.status, (JSON.parse(await r.text()) as { localEndpoints: number }).localEndpoints];
  };

  beforeAll(async () => {
    api = await startTestApiServer();
    admin = await Client.fromKubeconfig(api.kubeconfig, { qps: 0 });
    for (const n of [1, 2, 3]) await admin.nodes().create(node(n));
    servers.push(await echoTcp('node-1', '127.0.0.11'), await echoTcp('node-2', '127.0.0.12'));
    proxy = await startProxy({
      client: admin, node: 'node-1', nodePortAddresses: ['127.0.0.1', '127.0.0.2', '127.0.0.3'], logger: pino({ level: 'silent' }), syncPeriodMs: 60_000,
      bindClusterIPs: process.platform === 'linux' && process.getuid?.() === 0,
    });
    await proxy.ready;
  });

  afterAll(async () => {
    await proxy?.stop();
    for (const s of servers) s.close();
    await api?.stop();
  });

  it('externalTrafficPolicy Local: the NodePort keeps traffic on the node it was sent to; the health check answers for that node', async () => {
    const svc = await service('external', { type: 'LoadBalancer', externalTrafficPolicy: 'Local' });
    const ports = svc.spec!.ports as { nodePort: number }[];
    const [nodePort, healthPort] = [ports[0]!.nodePort, svc.spec!.healthCheckNodePort as number];
    await eventually(async () => (await ask('127.0.0.2', nodePort, 'x')) === 'node-2:x');
    // from the host (node-1's 127.0.0.1) to node-2's and node-3's addresses, as from one machine to another
    expect(await replies('127.0.0.2', nodePort, 4)).toEqual(Array(4).fill('node-2:x'));
    expect(await ask('127.0.0.3', nodePort, 'x')).toBe('ECONNRESET');
    // a node's own traffic to its NodePort goes to any endpoint, as kube-proxy's for src-type LOCAL
    expect(new Set(await replies('127.0.0.1', nodePort, 4))).toEqual(new Set(['node-1:x', 'node-2:x']));
    expect(new Set(await replies('127.0.0.3', nodePort, 4, '127.0.0.3'))).toEqual(new Set(['node-1:x', 'node-2:x']));
    await eventually(async () => (await health('127.0.0.1', healthPort))[0] === 200);
    expect([await health('127.0.0.1', healthPort), await health('127.0.0.2', healthPort), await health('127.0.0.3', healthPort)])
      .toEqual([[200, 1], [200, 1], [503, 0]]);
  });

  it('internalTrafficPolicy Local: the ClusterIP keeps traffic on the node it comes from (as root)', async (ctx) => {
    if (!proxy.clusterIPs) ctx.skip();
    const ip = (await service('internal', { internalTrafficPolicy: 'Local' })).spec!.clusterIP as string;
    await eventually(async () => (await ask(ip, 80, 'x', '127.0.0.2')) === 'node-2:x');
    expect(await replies(ip, 80, 4, '127.0.0.2')).toEqual(Array(4).fill('node-2:x'));
    expect(await replies(ip, 80, 4, '127.0.0.1')).toEqual(Array(4).fill('node-1:x'));
    expect(await ask(ip, 80, 'x', '127.0.0.3')).toBe('ECONNRESET');
  });
});
