import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types.js';
import { servicePorts, usableEndpoints } from './service-map.js';

const svc = (name: string, spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'ns' }, spec });
const slice = (service: string, ports: { name?: string; port: number; protocol?: string }[], endpoints: unknown[], addressType = 'IPv4'): KubeObject => ({
  apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: `${service}-x`, namespace: 'ns', labels: { 'kubernetes.io/service-name': service } },
  addressType, ports, endpoints,
});
const ep = (ip: string, conditions: Record<string, boolean> = {}, nodeName = 'n1'): unknown => ({ addresses: [ip], conditions, nodeName });

describe('servicePorts', () => {
  it('gives each port its ClusterIPs, NodePort and the endpoints of the same port name and protocol', () => {
    const [http, dns] = servicePorts([
      svc('web', { type: 'NodePort', clusterIP: '10.96.0.5', clusterIPs: ['10.96.0.5'], ports: [{ name: 'http', port: 80, nodePort: 30080 }, { name: 'dns', port: 53, protocol: 'UDP' }] }),
    ], [
      slice('web', [{ name: 'http', port: 8080 }, { name: 'dns', port: 5353, protocol: 'UDP' }], [ep('10.244.0.2'), ep('10.244.0.3')]),
      slice('web', [{ name: 'http', port: 9090 }], [ep('10.244.0.9')], 'IPv6'),
    ]);
    const endpoint = { node: 'n1', ready: true, servingTerminating: false };
    expect(http).toEqual({
      name: 'ns/web:http', protocol: 'TCP', clusterIPs: ['10.96.0.5'], port: 80, nodePort: 30080, loadBalancerIPs: [], affinityMs: undefined,
      endpoints: [{ ip: '10.244.0.2', port: 8080, ...endpoint }, { ip: '10.244.0.3', port: 8080, ...endpoint }], internalLocal: false, externalLocal: false,
    });
    expect(dns).toMatchObject({ name: 'ns/web:dns', protocol: 'UDP', port: 53, endpoints: [{ ip: '10.244.0.2', port: 5353 }, { ip: '10.244.0.3', port: 5353 }] });
  });

  it('uses ready endpoints, or serving terminating ones when none is ready', () => {
    const s = svc('web', { clusterIP: '10.96.0.5', ports: [{ port: 80 }] });
    const ready = servicePorts([s], [slice('web', [{ port: 80 }], [ep('1.1.1.1'), ep('2.2.2.2', { ready: false }), ep('3.3.3.3', { ready: false, serving: true, terminating: true })])]);
    expect(usableEndpoints(ready[0]!.endpoints)).toEqual([{ ip: '1.1.1.1', port: 80 }]);
    const draining = servicePorts([s], [slice('web', [{ port: 80 }], [ep('2.2.2.2', { ready: false }), ep('3.3.3.3', { ready: false, serving: true, terminating: true })])]);
    expect(usableEndpoints(draining[0]!.endpoints)).toEqual([{ ip: '3.3.3.3', port: 80 }]);
  });

  it('under a Local traffic policy uses the given nodes\' endpoints, falling back to their terminating ones by themselves', () => {
    const [p] = servicePorts([svc('web', { type: 'NodePort', clusterIP: '10.96.0.5', internalTrafficPolicy: 'Local', externalTrafficPolicy: 'Local', ports: [{ port: 80, nodePort: 30000 }] })],
      [slice('web', [{ port: 80 }], [ep('1.1.1.1', {}, 'n1'), ep('2.2.2.2', {}, 'n2'), ep('3.3.3.3', { ready: false, serving: true, terminating: true }, 'n3')])]);
    expect(p).toMatchObject({ internalLocal: true, externalLocal: true });
    expect(usableEndpoints(p!.endpoints, ['n2'])).toEqual([{ ip: '2.2.2.2', port: 80 }]);
    expect(usableEndpoints(p!.endpoints, ['n1', 'n2'])).toHaveLength(2);
    // upstream's CategorizeEndpoints: n3's terminating endpoint serves its Local traffic though other nodes have ready ones
    expect(usableEndpoints(p!.endpoints, ['n3'])).toEqual([{ ip: '3.3.3.3', port: 80 }]);
    expect(usableEndpoints(p!.endpoints, ['n4'])).toEqual([]);
    expect(usableEndpoints(p!.endpoints)).toHaveLength(2);
  });

  it('serves a LoadBalancer\'s ingress IPs at its port with the NodePort\'s endpoints, but not those in ipMode Proxy or IPv6', () => {
    const lb = svc('lb', { type: 'LoadBalancer', clusterIP: '10.96.0.8', externalTrafficPolicy: 'Local', ports: [{ port: 80, nodePort: 30001 }] });
    lb.status = { loadBalancer: { ingress: [{ ip: '192.0.2.1', ipMode: 'VIP' }, { ip: '192.0.2.2' }, { ip: '192.0.2.3', ipMode: 'Proxy' }, { ip: '2001:db8::1' }, { hostname: 'lb.example.com' }] } };
    const [p] = servicePorts([lb], [slice('lb', [{ port: 8080 }], [ep('1.1.1.1', {}, 'n1'), ep('2.2.2.2', {}, 'n2')])]);
    expect(p).toMatchObject({ port: 80, nodePort: 30001, loadBalancerIPs: ['192.0.2.1', '192.0.2.2'], externalLocal: true });
    // the same ingress on another type is not served: a Service changed to ClusterIP keeps it until its status is cleared
    expect(servicePorts([{ ...lb, spec: { ...lb.spec, type: 'ClusterIP' } }], [])[0]!.loadBalancerIPs).toEqual([]);
  });

  it('skips ExternalName services and headless ClusterIPs; ClientIP affinity carries its timeout', () => {
    const out = servicePorts([
      svc('ext', { type: 'ExternalName', externalName: 'example.com' }),
      svc('headless', { clusterIP: 'None', ports: [{ port: 80 }] }),
      svc('sticky', { clusterIP: '10.96.0.7', sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } }, ports: [{ port: 80 }] }),
    ], []);
    expect(out.map((p) => [p.name, p.clusterIPs, p.affinityMs])).toEqual([['ns/headless', [], undefined], ['ns/sticky', ['10.96.0.7'], 60_000]]);
  });
});
