import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types.js';
import { HealthCheckServers, type HealthCheck } from './health-checks.js';
import { NodeTopology } from './node-topology.js';
import { healthChecks } from './service-map.js';
import { freePort } from '../host/free-port.js';

const lb = (name: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'ns' }, spec: { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ port: 80 }], ...spec },
});
const slice = (service: string, endpoints: unknown[]): KubeObject => ({
  apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: `${service}-x`, namespace: 'ns', labels: { 'kubernetes.io/service-name': service } },
  addressType: 'IPv4', ports: [{ port: 8080 }], endpoints,
});

describe('health check node ports', () => {
  it('are those of LoadBalancers with externalTrafficPolicy Local, with their ready endpoints\' addresses by node', () => {
    const checks = healthChecks([
      lb('web', { healthCheckNodePort: 30001 }),
      lb('cluster', { externalTrafficPolicy: 'Cluster' }),
      { ...lb('np', { healthCheckNodePort: 30002 }), spec: { type: 'NodePort', externalTrafficPolicy: 'Local', healthCheckNodePort: 30002 } },
    ], [slice('web', [
      { addresses: ['10.0.0.1'], nodeName: 'n1', conditions: { ready: true } },
      { addresses: ['10.0.0.2'], nodeName: 'n1', conditions: { ready: false } },
      { addresses: ['10.0.0.3'], nodeName: 'n2', conditions: { ready: true } },
      { addresses: ['10.0.0.4'], conditions: { ready: true } },
    ])]);
    expect(checks).toEqual([{ namespace: 'ns', name: 'web', nodePort: 30001, readyByNode: new Map([['n1', new Set(['10.0.0.1'])], ['n2', new Set(['10.0.0.3'])]]) }]);
  });

  // one proxy for the nodes n1 at 127.0.0.1 and n2 at 127.0.0.2 of one host
  const node = (name: string, address: string): KubeObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { addresses: [{ type: 'InternalIP', address }] } });
  const topology = new NodeTopology([node('n1', '127.0.0.1'), node('n2', '127.0.0.2')], 'n1', ['127.0.0.1']);
  const servers = new HealthCheckServers({ addresses: ['127.0.0.1', '127.0.0.2'], topology: () => topology, logger: pino({ level: 'silent' }) });
  afterAll(() => servers.close());

  it('answer 200 while the node has an endpoint and 503 without, with kube-proxy\'s body and headers; closed when gone', async () => {
    const port = await freePort();
    const check: HealthCheck = { namespace: 'ns', name: 'web', nodePort: port, readyByNode: new Map([['n1', new Set(['10.0.0.1', '10.0.0.2'])]]) };
    await servers.sync([check]);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-load-balancing-endpoint-weight')).toBe('2');
    expect(ok.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(await ok.text())).toEqual({ service: { namespace: 'ns', name: 'web' }, localEndpoints: 2, serviceProxyHealthy: true });
    await servers.sync([{ ...check, readyByNode: new Map() }]);
    const none = await fetch(`http://127.0.0.1:${port}/`);
    expect(none.status).toBe(503);
    await none.text();
    await servers.sync([]);
    expect(servers.listening()).toEqual([]);
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  });

  it('answer for the node whose address the request was sent to, as each node\'s kube-proxy answers for its own', async () => {
    const port = await freePort();
    await servers.sync([{ namespace: 'ns', name: 'web', nodePort: port, readyByNode: new Map([['n2', new Set(['10.0.0.3'])]]) }]);
    const n2 = await fetch(`http://127.0.0.2:${port}/healthz`);
    expect([n2.status, JSON.parse(await n2.text()).localEndpoints]).toEqual([200, 1]);
    const n1 = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect([n1.status, JSON.parse(await n1.text()).localEndpoints]).toEqual([503, 0]);
    await servers.sync([]);
  });
});
