// The kubernetes service of default names this apiserver, as upstream's endpoint reconciler keeps it: Endpoints and
// an EndpointSlice with its address and port, brought up to date (with the Service's targetPort) when it restarts
// on another port.
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

describe('the kubernetes service', () => {
  let api: TestApiServer | undefined;
  afterAll(async () => { await api?.close(); });

  const state = async (a: TestApiServer): Promise<unknown> => {
    const [svc, ep, slice] = await Promise.all([
      a.api('GET', '/api/v1/namespaces/default/services/kubernetes'),
      a.api('GET', '/api/v1/namespaces/default/endpoints/kubernetes'),
      a.api('GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes'),
    ]);
    return {
      targetPort: svc.body.spec.ports[0].targetPort,
      endpoints: ep.body.subsets,
      slice: { labels: slice.body.metadata.labels, addressType: slice.body.addressType, endpoints: slice.body.endpoints, ports: slice.body.ports },
    };
  };
  const expected = (port: number): unknown => ({
    targetPort: port,
    endpoints: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port, protocol: 'TCP' }] }],
    slice: {
      labels: { 'kubernetes.io/service-name': 'kubernetes' }, addressType: 'IPv4',
      endpoints: [{ addresses: ['127.0.0.1'], conditions: { ready: true } }], ports: [{ name: 'https', port, protocol: 'TCP' }],
    },
  });

  it('has Endpoints and an EndpointSlice naming the apiserver, updated when its port changes', async () => {
    api = await startTestApiServer({ controllers: [] });
    expect(await state(api)).toEqual(expected(api.server.port));
    const first = api.server.port;
    await api.stop();
    api = await startTestApiServer({ controllers: [], dataDir: api.dataDir });
    expect(api.server.port).not.toBe(first);
    expect(await state(api)).toEqual(expected(api.server.port));
  });
});
