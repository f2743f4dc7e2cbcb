// Expectations from upstream's TestPrintService, TestPrintServiceLoadBalancer, TestPrintEndpoint
// and TestPrintEndpointSlice.
import { describe, expect, it } from 'vitest';
import { endpointSlicePrinter, endpointsPrinter, servicePrinter } from './service.js';
import { NOW, obj } from './testing.js';

const svc = (spec: Record<string, unknown>, status: Record<string, unknown> = {}) =>
  servicePrinter.cells(obj('svc', { spec, status }, 120), NOW);

describe('services', () => {
  it('prints a ClusterIP service with its ports and selector', () => {
    expect(
      svc({
        type: 'ClusterIP',
        clusterIP: '10.9.8.7',
        clusterIPs: ['10.9.8.7'],
        ports: [
          { port: 2233, protocol: 'TCP' },
          { port: 53, protocol: 'UDP' },
        ],
        selector: { app: 'web', tier: 'front' },
      }),
    ).toEqual(['svc', 'ClusterIP', '10.9.8.7', '<none>', '2233/TCP,53/UDP', '2m', 'app=web,tier=front']);
  });

  it('prints node ports and external IPs', () => {
    expect(
      svc({
        type: 'NodePort',
        clusterIPs: ['10.9.8.7'],
        externalIPs: ['1.2.3.4', '5.6.7.8'],
        ports: [{ port: 8888, nodePort: 9999, protocol: 'TCP' }],
      }).slice(1, 5),
    ).toEqual(['NodePort', '10.9.8.7', '1.2.3.4,5.6.7.8', '8888:9999/TCP']);
  });

  it('prints headless services and services without ports', () => {
    expect(svc({ type: 'ClusterIP', clusterIPs: ['None'] }).slice(2, 5)).toEqual(['None', '<none>', '<none>']);
    expect(svc({ type: 'ClusterIP' })[2]).toBe('<none>');
    expect(svc({ type: 'ClusterIP', clusterIP: '10.0.0.1' })[2]).toBe('10.0.0.1');
  });

  it('prints load-balancer addresses sorted and in full, <pending> without any', () => {
    const lb = { type: 'LoadBalancer', clusterIPs: ['1.5.6.7'], ports: [{ port: 80, protocol: 'TCP' }] };
    const ingress = [{ ip: '3.4.5.6' }, { ip: '2.3.4.5' }, { ip: '5.6.7.8', hostname: 'host5678' }, { hostname: 'lb.example' }];
    expect(svc(lb, { loadBalancer: { ingress } })[3]).toBe('2.3.4.5,3.4.5.6,5.6.7.8,lb.example');
    expect(svc(lb)[3]).toBe('<pending>');
    expect(svc({ ...lb, externalIPs: ['9.9.9.9'] }, { loadBalancer: { ingress: [{ ip: '2.3.4.5' }] } })[3]).toBe('2.3.4.5,9.9.9.9');
    expect(svc({ ...lb, externalIPs: ['9.9.9.9'] })[3]).toBe('9.9.9.9');
  });

  it('prints the external name of ExternalName services and <unknown> for other types', () => {
    expect(svc({ type: 'ExternalName', externalName: 'my.database.example.com' }).slice(1, 4)).toEqual([
      'ExternalName',
      '<none>',
      'my.database.example.com',
    ]);
    expect(svc({})[3]).toBe('<unknown>');
  });

  it('has the upstream columns', () => {
    expect(servicePrinter.columns.map((c) => `${c.name}:${c.priority}`)).toEqual([
      'Name:0',
      'Type:0',
      'Cluster-IP:0',
      'External-IP:0',
      'Port(s):0',
      'Age:0',
      'Selector:1',
    ]);
  });
});

describe('endpoints', () => {
  const endpoints = (subsets: unknown) => endpointsPrinter.cells(obj('ep', { subsets }), NOW)[1];

  it('prints <none> without subsets', () => expect(endpoints(undefined)).toBe('<none>'));

  it('prints ip:port pairs, bracketing IPv6', () => {
    expect(endpoints([{ addresses: [{ ip: '127.0.0.1' }, { ip: '::1' }], ports: [{ port: 8080 }] }])).toBe(
      '127.0.0.1:8080,[::1]:8080',
    );
  });

  it('prints bare IPs for subsets without ports', () => {
    expect(endpoints([{ addresses: [{ ip: '10.1.1.1' }, { ip: '10.1.1.2' }] }])).toBe('10.1.1.1,10.1.1.2');
  });

  it('shows three and counts the rest', () => {
    expect(
      endpoints([
        { addresses: [{ ip: '1.1.1.1' }, { ip: '2.2.2.2' }], ports: [{ port: 80 }, { port: 443 }] },
        { addresses: [{ ip: '3.3.3.3' }], ports: [{ port: 80 }] },
      ]),
    ).toBe('1.1.1.1:80,2.2.2.2:80,1.1.1.1:443 + 2 more...');
  });
});

describe('endpoint slices', () => {
  it('prints address type, ports and endpoints', () => {
    const slice = obj(
      'web-abc',
      {
        addressType: 'IPv4',
        ports: [{ port: 80 }, { name: 'https' }, {}, { port: 9090 }],
        endpoints: [{ addresses: ['10.1.2.3'] }, { addresses: ['10.1.2.4', '10.1.2.5', '10.1.2.6'] }],
      },
      60,
    );
    expect(endpointSlicePrinter.cells(slice, NOW)).toEqual([
      'web-abc',
      'IPv4',
      '80,https,* + 1 more...',
      '10.1.2.3,10.1.2.4,10.1.2.5 + 1 more...',
      '60s',
    ]);
  });

  it('prints <unset> for empty ports and endpoints', () => {
    expect(endpointSlicePrinter.cells(obj('empty', { addressType: 'IPv6' }), NOW)).toEqual([
      'empty',
      'IPv6',
      '<unset>',
      '<unset>',
      '<unknown>',
    ]);
  });
});
