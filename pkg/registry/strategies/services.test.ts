import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { testContext } from '../generic/testing.js';
import { IpAllocator, PortAllocator } from './ip-allocator.js';
import { serviceStrategy } from './services.js';

const ctx = testContext();
const nodePort = (): KubeObject => ({
  apiVersion: 'v1', kind: 'Service', metadata: { name: 's' },
  spec: {
    type: 'NodePort', clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack', externalTrafficPolicy: 'Cluster',
    internalTrafficPolicy: 'Cluster', sessionAffinity: 'None', ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 80, nodePort: 30080 }],
  },
});

describe('service strategy updates', () => {
  it('keeps allocated values the client left out, without touching the stored object', () => {
    const s = serviceStrategy(new IpAllocator('10.96.0.0/24'), new PortAllocator());
    const old = Object.freeze(nodePort());
    const next = nodePort();
    delete next.spec.clusterIP;
    delete next.spec.clusterIPs;
    next.spec.ports = [Object.freeze({ name: 'http', port: 80, protocol: 'TCP', targetPort: 80 })];
    s.prepareForUpdate!(next, old, ctx);
    expect(next.spec).toMatchObject({ clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'], ports: [{ nodePort: 30080 }] });
    expect(s.validateUpdate!(next, old, ctx)).toEqual([]);
  });

  it('gives a LoadBalancer with externalTrafficPolicy Local a health check node port, kept on updates and given back', async () => {
    const ips = new IpAllocator('10.96.0.0/24');
    const ports = new PortAllocator();
    const s = serviceStrategy(ips, ports);
    const lb = (): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'lb' }, spec: { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ port: 80, protocol: 'TCP' }] } });
    const created = lb();
    s.prepareForCreate!(created, ctx);
    await s.beforeCreate!(created, ctx);
    const hc = created.spec.healthCheckNodePort as number;
    expect(hc).toBeGreaterThanOrEqual(30000);
    expect(() => ports.allocate(hc)).toThrow();
    // an update that leaves it out keeps it
    const next = lb();
    s.prepareForUpdate!(next, created, ctx);
    expect(next.spec.healthCheckNodePort).toBe(hc);
    // Cluster traffic policy: the port goes back once the update is stored
    const cluster = { ...lb(), spec: { ...lb().spec, externalTrafficPolicy: 'Cluster' } };
    s.prepareForUpdate!(cluster, created, ctx);
    expect(cluster.spec.healthCheckNodePort).toBeUndefined();
    (await s.beforeUpdate!(cluster, created, ctx))!.commit();
    expect(() => ports.allocate(hc)).not.toThrow();
    // a requested port that is taken is refused
    const taken = { ...lb(), spec: { ...lb().spec, healthCheckNodePort: hc } };
    expect(() => s.beforeCreate!(taken, ctx)).toThrow(`spec.healthCheckNodePort: Invalid value: ${hc}: failed to allocate requested HealthCheck NodePort ${hc}: provided port is already allocated`);
  });

  it('moves clusterIPs with a clusterIP the client changed alone, which may then not change', () => {
    const s = serviceStrategy(new IpAllocator('10.96.0.0/24'), new PortAllocator());
    const old = Object.freeze(nodePort());
    const next = nodePort();
    next.spec.clusterIP = '10.96.0.11';
    s.prepareForUpdate!(next, old, ctx);
    expect(next.spec.clusterIPs).toEqual(['10.96.0.11']);
    expect(s.validateUpdate!(next, old, ctx)).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.clusterIPs[0]', message: 'Invalid value: []string{"10.96.0.11"}: may not change once set' },
    ]);
  });

  it('drops what the old type needed on a type change, and gives back its IP and node ports', async () => {
    const ips = new IpAllocator('10.96.0.0/24');
    const ports = new PortAllocator();
    const s = serviceStrategy(ips, ports);
    ips.allocate('10.96.0.10');
    ports.allocate(30080);
    const old = nodePort();
    const toClusterIP = nodePort();
    toClusterIP.spec.type = 'ClusterIP';
    s.prepareForUpdate!(toClusterIP, old, ctx);
    expect(toClusterIP.spec.ports[0].nodePort).toBeUndefined();
    expect(toClusterIP.spec.externalTrafficPolicy).toBeUndefined();
    expect(toClusterIP.spec.clusterIP).toBe('10.96.0.10');
    expect(s.validateUpdate!(toClusterIP, old, ctx)).toEqual([]);
    const toExternal = nodePort();
    toExternal.spec.type = 'ExternalName';
    toExternal.spec.externalName = 'db.example.com';
    s.prepareForUpdate!(toExternal, old, ctx);
    expect([toExternal.spec.clusterIP, toExternal.spec.clusterIPs, toExternal.spec.ipFamilies, toExternal.spec.ipFamilyPolicy]).toEqual([undefined, undefined, undefined, undefined]);
    expect(s.validateUpdate!(toExternal, old, ctx)).toEqual([]);
    const effects = s.beforeUpdate!(toExternal, old, ctx)!;
    // held until the update is stored
    expect(() => ips.allocate('10.96.0.10')).toThrow();
    effects.commit();
    // both are free again: allocating them succeeds
    expect(() => ips.allocate('10.96.0.10')).not.toThrow();
    expect(() => ports.allocate(30080)).not.toThrow();
  });

  it('an update not stored gives back the node ports it took and keeps what the old type held', () => {
    const ips = new IpAllocator('10.96.0.0/24');
    const ports = new PortAllocator();
    const s = serviceStrategy(ips, ports);
    ips.allocate('10.96.0.10');
    const old = nodePort();
    old.spec.type = 'ClusterIP';
    delete old.spec.ports[0].nodePort;
    const toNodePort = nodePort();
    delete toNodePort.spec.ports[0].nodePort;
    s.prepareForUpdate!(toNodePort, old, ctx);
    const effects = s.beforeUpdate!(toNodePort, old, ctx)!;
    const taken = toNodePort.spec.ports[0].nodePort as number;
    expect(taken).toBeGreaterThanOrEqual(30000);
    expect(() => ports.allocate(taken)).toThrow();
    effects.abort();
    expect(() => ports.allocate(taken)).not.toThrow();
    expect(() => ips.allocate('10.96.0.10')).toThrow();
  });
});

describe('service strategy allocation errors', () => {
  const clusterIp = (name: string, clusterIP?: string): KubeObject => ({
    apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { type: 'ClusterIP', ...(clusterIP ? { clusterIP } : {}), ports: [{ port: 80, protocol: 'TCP' }] },
  });
  const create = async (s: ReturnType<typeof serviceStrategy>, svc: KubeObject): Promise<void> => {
    s.prepareForCreate!(svc, ctx);
    await s.beforeCreate!(svc, ctx);
  };
  const OUT_OF_RANGE = 'spec.clusterIPs: Invalid value: []string{"192.168.0.5"}: failed to allocate IP 192.168.0.5: the provided IP (192.168.0.5) is not in the valid range. The range of valid IPs is 10.96.0.0/12';

  it('refuses a clusterIP outside the range as upstream\'s allocIPs does: 422 on spec.clusterIPs', async () => {
    const s = serviceStrategy(new IpAllocator('10.96.0.0/12'), new PortAllocator());
    await expect(create(s, clusterIp('oor', '192.168.0.5'))).rejects.toMatchObject({ code: 422, message: `Service "oor" is invalid: ${OUT_OF_RANGE}` });
  });

  it('reports a clusterIP problem alone, before any node port is looked at', async () => {
    const s = serviceStrategy(new IpAllocator('10.96.0.0/12'), new PortAllocator());
    const svc: KubeObject = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'np' }, spec: { type: 'NodePort', clusterIP: '192.168.0.5', ports: [{ port: 80, protocol: 'TCP', nodePort: 1 }] } };
    await expect(create(s, svc)).rejects.toMatchObject({ code: 422, message: `Service "np" is invalid: ${OUT_OF_RANGE}` });
  });

  it('answers 500 when the range is full, as upstream', async () => {
    const s = serviceStrategy(new IpAllocator('10.0.0.0/30'), new PortAllocator());
    for (const name of ['a', 'b']) await create(s, clusterIp(name));
    await expect(create(s, clusterIp('c'))).rejects.toMatchObject({ code: 500, message: 'Internal error occurred: failed to allocate a serviceIP: range is full' });
  });
});
