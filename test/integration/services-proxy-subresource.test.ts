// services/<name>[:port]/proxy as upstream's service REST ResourceLocation answers it: only Endpoints addresses
// backed by a pod that has this IP are dialed; the Service is only read for a port number; the Endpoints of the
// name decide the rest (ExternalName services and selector-less ones without Endpoints are "not found").
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type KubeObject } from '../../pkg/client/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

describe('services/proxy', () => {
  let api: TestApiServer;
  let admin: Client;
  let backend: Server;
  let port = 0;

  const endpoints = (name: string, addresses: Record<string, unknown>[], portName = 'http'): KubeObject => ({
    apiVersion: 'v1', kind: 'Endpoints', metadata: { name }, subsets: [{ addresses, ports: [{ name: portName, port }] }],
  });
  const service = (name: string, spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec });
  const get = async (path: string): Promise<{ status: number; body: any }> => api.api('GET', `/api/v1/namespaces/default/services/${path}`);

  beforeAll(async () => {
    backend = createServer((req, res) => res.end(`backend ${req.url}`));
    await new Promise<void>((r) => backend.listen(0, '127.0.0.1', r));
    port = (backend.address() as AddressInfo).port;
    api = await startTestApiServer();
    admin = await Client.fromKubeconfig(api.kubeconfig, { qps: 0 });
    await admin.pods('default').create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    await admin.pods('default').patch('web-0', 'merge', { status: { podIP: '127.0.0.1', podIPs: [{ ip: '127.0.0.1' }] } }, { subresource: 'status' });
    const svcs = admin.services('default');
    const eps = admin.endpoints('default');
    await svcs.create(service('web', { ports: [{ name: 'http', port: 80 }] }));
    await eps.create(endpoints('web', [{ ip: '127.0.0.1', targetRef: { kind: 'Pod', namespace: 'default', name: 'web-0' } }]));
    await svcs.create(service('manual', { ports: [{ name: 'web', port: 80 }] }));
    await eps.create(endpoints('manual', [{ ip: '127.0.0.1' }], 'web'));
    await svcs.create(service('stale', { ports: [{ name: 'http', port: 80 }] }));
    await eps.create(endpoints('stale', [{ ip: '127.0.0.2', targetRef: { kind: 'Pod', namespace: 'default', name: 'web-0' } }]));
    await svcs.create(service('ext', { type: 'ExternalName', externalName: '127.0.0.1', ports: [{ port: 80 }] }));
    await svcs.create(service('noeps', { ports: [{ name: 'http', port: 80 }] }));
    await eps.create({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'empty' } });
    await svcs.create(service('empty', { ports: [{ name: 'http', port: 80 }] }));
  });

  afterAll(async () => {
    await admin?.close();
    await api?.close();
    backend?.close();
  });

  it('reaches an address backed by a pod with that IP, by port number or name', async () => {
    for (const id of ['web:80', 'web:http', 'http:web:http']) {
      expect(await get(`${id}/proxy/x?y=1`)).toMatchObject({ status: 200, body: 'backend /x?y=1' });
    }
  });

  it('sends the path on decoded and cleaned, escaped again as Go does (upstream builds it from the request info\'s parts)', async () => {
    // the Python client escapes `/` in a path parameter: stats%2Fsummary must reach the backend as /stats/summary
    for (const base of ['/api/v1/namespaces/default/services/web:80', `/api/v1/namespaces/default/pods/web-0:${port}`]) {
      const via = async (rest: string): Promise<unknown> => (await api.api('GET', `${base}/proxy/${rest}`)).body;
      expect(await via('stats%2Fsummary')).toBe('backend /stats/summary');
      expect(await via('a%20b/c%3Fd/e!f?q=%2F')).toBe('backend /a%20b/c%3Fd/e%21f?q=%2F');
      expect(await via('x//y/./z/../..%2F..%2F..%2Fetc%2Fpasswd')).toBe('backend /etc/passwd');
      expect(await via('logs%2F')).toBe('backend /logs/');
    }
  });

  it('dials a pod\'s port as Go does: a name is a TCP service of the host, not a container port', async () => {
    const pod = async (id: string): Promise<{ status: number; body: any }> => api.api('GET', `/api/v1/namespaces/default/pods/${id}/proxy/`);
    expect(await pod('web-0:no-such-service')).toMatchObject({ status: 503, body: { reason: 'ServiceUnavailable', message: 'error trying to reach service: dial tcp: lookup tcp/no-such-service: unknown port' } });
    expect(await pod('web-0:70000')).toMatchObject({ status: 503, body: { message: 'error trying to reach service: dial tcp: address 70000: invalid port' } });
    // https to a plain-HTTP server: crypto/tls's words for the answer to its hello
    for (const path of [`pods/https:web-0:${port}/proxy/`, 'services/https:web:80/proxy/']) {
      expect(await api.api('GET', `/api/v1/namespaces/default/${path}`))
        .toMatchObject({ status: 503, body: { message: 'error trying to reach service: tls: first record does not look like a TLS handshake' } });
    }
    expect(await pod(`web-0:${port}`)).toMatchObject({ status: 200, body: 'backend /' });
  });

  it('redirects a GET of .../proxy to .../proxy/; other methods go to the backend\'s /', async () => {
    const r = await api.api('GET', '/api/v1/namespaces/default/services/web:80/proxy?a=1');
    expect(r).toMatchObject({ status: 301, headers: { location: '/api/v1/namespaces/default/services/web:80/proxy/?a=1' } });
    expect(await api.api('POST', '/api/v1/namespaces/default/services/web:80/proxy', '')).toMatchObject({ status: 200, body: 'backend /' });
  });

  it('does not dial addresses without a targetRef, or whose pod lacks the IP: 503 naming the whole id', async () => {
    expect(await get('manual:web/proxy/')).toMatchObject({ status: 503, body: { reason: 'ServiceUnavailable', message: 'no endpoints available for service "manual:web"' } });
    expect(await get('http:stale:80/proxy/')).toMatchObject({ status: 503, body: { message: 'no endpoints available for service "http:stale:80"' } });
  });

  it('an Endpoints object without subsets: 503 naming the service', async () => {
    expect(await get('empty/proxy/')).toMatchObject({ status: 503, body: { message: 'no endpoints available for service "empty"' } });
  });

  it('an unknown port number: 503; a missing Service is only read for a port number', async () => {
    expect(await get('web:9999/proxy/')).toMatchObject({ status: 503, body: { reason: 'ServiceUnavailable', message: 'no service port 9999 found for service "web"' } });
    expect(await get('nope:80/proxy/')).toMatchObject({ status: 404, body: { message: 'services "nope" not found', details: { name: 'nope', kind: 'services' } } });
    expect(await get('nope/proxy/')).toMatchObject({ status: 404, body: { message: 'endpoints "nope" not found', details: { name: 'nope', kind: 'endpoints' } } });
  });

  it('ExternalName and selector-less services without Endpoints: endpoints not found (no external dialing)', async () => {
    expect(await get('ext/proxy/')).toMatchObject({ status: 404, body: { reason: 'NotFound', message: 'endpoints "ext" not found' } });
    expect(await get('ext:80/proxy/')).toMatchObject({ status: 404, body: { message: 'endpoints "ext" not found' } });
    expect(await get('noeps:http/proxy/')).toMatchObject({ status: 404, body: { message: 'endpoints "noeps" not found' } });
  });
});
