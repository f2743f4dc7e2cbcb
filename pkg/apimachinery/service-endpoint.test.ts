import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types.js';
import { endpointUrl, resolveServiceEndpoint, type ServiceGetter } from './service-endpoint.js';

const service = (ports: object[], type = 'ClusterIP'): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'hook', namespace: 'ns' }, spec: { type, ports } });
const endpoints = (subsets: object[]): KubeObject => ({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'hook', namespace: 'ns' }, subsets });
const getter = (svc?: KubeObject, eps?: KubeObject): ServiceGetter => (resource, namespace, name) =>
  (namespace === 'ns' && name === 'hook' ? (resource === 'services' ? svc : eps) : undefined);
const ref = { namespace: 'ns', name: 'hook' };

describe('resolveServiceEndpoint', () => {
  it('fails with the words of upstream ResolveEndpoint, in its order', () => {
    expect(resolveServiceEndpoint(getter(), ref)).toMatchObject({ ok: false, failure: 'ServiceNotFound', message: 'service "hook" not found' });
    expect(resolveServiceEndpoint(getter(service([{ port: 8443 }])), ref))
      .toMatchObject({ ok: false, failure: 'ServicePortError', message: 'no service port 443 found for service "hook"' });
    expect(resolveServiceEndpoint(getter(service([{ port: 443 }], 'ExternalName')), ref))
      .toMatchObject({ ok: false, failure: 'UnsupportedServiceType', message: 'unsupported service type "ExternalName"' });
    expect(resolveServiceEndpoint(getter(service([{ port: 443, name: 'https' }])), ref))
      .toMatchObject({ ok: false, failure: 'EndpointsNotFound', message: 'endpoints "hook" not found', portName: 'https' });
    // only ready addresses, and only the port named as the service port is
    const eps = endpoints([{ notReadyAddresses: [{ ip: '10.0.0.9' }], ports: [{ name: 'https', port: 9443 }] }, { addresses: [{ ip: '10.0.0.8' }], ports: [{ name: 'metrics', port: 8080 }] }]);
    expect(resolveServiceEndpoint(getter(service([{ port: 443, name: 'https' }]), eps), ref))
      .toMatchObject({ ok: false, failure: 'MissingEndpoints', message: 'no endpoints available for service "hook"', portName: 'https' });
  });

  it('picks among every ready address serving the named port, with that endpoint port', () => {
    const eps = endpoints([
      { addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [{ name: 'metrics', port: 8080 }, { name: 'https', port: 9443 }] },
      { addresses: [{ ip: 'fd00::3' }], ports: [{ name: 'https', port: 9444 }] },
    ]);
    const get = getter(service([{ port: 8080, name: 'metrics' }, { port: 443, name: 'https' }]), eps);
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const r = resolveServiceEndpoint(get, ref);
      if (!r.ok) throw new Error(r.message);
      seen.add(endpointUrl(r));
    }
    expect([...seen].sort()).toEqual(['https://10.0.0.1:9443', 'https://10.0.0.2:9443', 'https://[fd00::3]:9444']);
  });

  it('takes the referenced port, and an unnamed service port matches unnamed endpoint ports', () => {
    const get = getter(service([{ port: 8443 }]), endpoints([{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 6443 }] }]));
    expect(resolveServiceEndpoint(get, { ...ref, port: 8443 })).toEqual({ ok: true, host: '10.0.0.1', port: 6443 });
  });
});
