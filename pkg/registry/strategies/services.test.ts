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
    // a requested port that is taken is refused, as upstream's txnAllocNodePorts words it: 500, not a field's 422
    const taken = { ...lb(), spec: { ...lb().spec, healthCheckNodePort: hc } };
    expect(() => s.beforeCreate!(taken, ctx)).toThrow(expect.objectContaining({
      code: 500, message: `Internal error occurred: failed to allocate requested HealthCheck NodePort ${hc}: provided port is already allocated`,
    }));
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

describe('service IP families on a single-stack IPv4 cluster (upstream initIPFamilyFields)', () => {
  const s = (): ReturnType<typeof serviceStrategy> => serviceStrategy(new IpAllocator('10.112.0.0/12'), new PortAllocator());
  const svc = (spec: Record<string, unknown>): KubeObject => ({
    apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { type: 'ClusterIP', sessionAffinity: 'None', ports: [{ port: 80, protocol: 'TCP' }], ...spec },
  });
  const prepared = (spec: Record<string, unknown>): Record<string, unknown> => {
    const obj = svc(spec);
    s().prepareForCreate!(obj, ctx);
    return obj.spec;
  };
  const refusal = (spec: Record<string, unknown>): string => {
    try {
      s().prepareForCreate!(svc(spec), ctx);
    } catch (err) {
      return `${(err as { code: number }).code} ${(err as Error).message}`;
    }
    return 'accepted';
  };

  it('refuses what the cluster cannot give, with upstream\'s 422', () => {
    expect(refusal({ selector: { a: 'b' }, ipFamilyPolicy: 'RequireDualStack' }))
      .toBe('422 Service "s" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services');
    expect(refusal({ ipFamilies: ['IPv6'] })).toBe('422 Service "s" is invalid: spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster');
    expect(refusal({ ipFamilies: ['IPv4', 'IPv6'] }))
      .toBe('422 Service "s" is invalid: spec.ipFamilyPolicy: Invalid value: "SingleStack": must be \'RequireDualStack\' or \'PreferDualStack\' when multiple IP families are specified');
    expect(refusal({ ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'RequireDualStack' })).toBe('422 Service "s" is invalid: [spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services, spec.ipFamilies[1]: Invalid value: "IPv6": not configured on this cluster]');
    // a family the client left out follows its cluster IP
    expect(refusal({ clusterIP: 'fd00::10' })).toBe('422 Service "s" is invalid: spec.clusterIPs[0]: Invalid value: []string{"fd00::10"}: IPv6 is not configured on this cluster');
  });

  it('defaults the policy and families', () => {
    expect(prepared({})).toMatchObject({ ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'] });
    // PreferDualStack is served single-stack here, and kept
    expect(prepared({ ipFamilyPolicy: 'PreferDualStack' })).toMatchObject({ ipFamilyPolicy: 'PreferDualStack', ipFamilies: ['IPv4'] });
    expect(prepared({ clusterIP: 'None', selector: { a: 'b' } })).toMatchObject({ ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'], clusterIPs: ['None'] });
    const external = prepared({ type: 'ExternalName', externalName: 'db.example.com' });
    expect([external.ipFamilyPolicy, external.ipFamilies]).toEqual([undefined, undefined]);
  });

  it('gives a headless service without a selector both families, unless it asks for one', () => {
    expect(prepared({ clusterIP: 'None' })).toMatchObject({ ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv4', 'IPv6'] });
    expect(prepared({ clusterIP: 'None', ipFamilyPolicy: 'RequireDualStack' })).toMatchObject({ ipFamilies: ['IPv4', 'IPv6'] });
    expect(prepared({ clusterIP: 'None', ipFamilyPolicy: 'PreferDualStack' })).toMatchObject({ ipFamilies: ['IPv4', 'IPv6'] });
    expect(prepared({ clusterIP: 'None', ipFamilyPolicy: 'SingleStack' })).toMatchObject({ ipFamilies: ['IPv4'] });
    // families the cluster lacks are allowed here
    expect(prepared({ clusterIP: 'None', ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv6'] })).toMatchObject({ ipFamilies: ['IPv6'] });
    expect(prepared({ clusterIP: 'None', ipFamilies: ['IPv6'] })).toMatchObject({ ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv6', 'IPv4'] });
  });

  it('on an update: adopts the stored policy, drops the secondary family for SingleStack, refuses dropping it otherwise', () => {
    const strategy = s();
    const stored = svc({ clusterIP: 'None' });
    strategy.prepareForCreate!(stored, ctx);
    Object.freeze(stored.spec.ipFamilies);
    const put = (spec: Record<string, unknown>): KubeObject => {
      const next = svc({ clusterIP: 'None', ...spec });
      strategy.prepareForUpdate!(next, stored, ctx);
      return next;
    };
    expect(put({}).spec).toMatchObject({ ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv4', 'IPv6'] });
    expect(put({ ipFamilyPolicy: 'SingleStack' }).spec).toMatchObject({ ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'] });
    expect(() => put({ ipFamilies: ['IPv4'] }))
      .toThrow('Service "s" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": must be \'SingleStack\' to release the secondary IP family');
    // ExternalName to ClusterIP: a new service's defaults
    const external = svc({ type: 'ExternalName', externalName: 'db.example.com' });
    strategy.prepareForCreate!(external, ctx);
    const toClusterIP = svc({});
    strategy.prepareForUpdate!(toClusterIP, external, ctx);
    expect(toClusterIP.spec).toMatchObject({ ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'] });
  });
});

describe('service node ports (upstream initNodePorts and updateNodePorts)', () => {
  const svc = (spec: Record<string, unknown>): KubeObject => ({
    apiVersion: 'v1', kind: 'Service', metadata: { name: 's' },
    spec: { type: 'NodePort', externalTrafficPolicy: 'Cluster', sessionAffinity: 'None', ...spec },
  });
  const dns = (nodePorts: [number?, number?] = []): Record<string, unknown>[] => [
    { name: 'tcp', port: 53, protocol: 'TCP', ...(nodePorts[0] ? { nodePort: nodePorts[0] } : {}) },
    { name: 'udp', port: 53, protocol: 'UDP', ...(nodePorts[1] ? { nodePort: nodePorts[1] } : {}) },
  ];

  it('gives a LoadBalancer with allocateLoadBalancerNodePorts false no node port, but reserves one it names', async () => {
    const ports = new PortAllocator();
    const s = serviceStrategy(new IpAllocator('10.96.0.0/24'), ports);
    const lb = svc({ type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: [{ name: 'a', port: 80, protocol: 'TCP' }, { name: 'b', port: 81, protocol: 'TCP', nodePort: 30081 }] });
    s.prepareForCreate!(lb, ctx);
    await s.beforeCreate!(lb, ctx);
    expect(lb.spec.ports.map((p: KubeObject) => p.nodePort)).toEqual([undefined, 30081]);
    expect(ports.has(30081)).toBe(true);
    // and an update keeps it so
    const next = svc({ type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: [{ name: 'a', port: 80, protocol: 'TCP' }, { name: 'b', port: 81, protocol: 'TCP', nodePort: 30081 }] });
    s.prepareForUpdate!(next, lb, ctx);
    s.beforeUpdate!(next, lb, ctx)!.commit();
    expect(next.spec.ports.map((p: KubeObject) => p.nodePort)).toEqual([undefined, 30081]);
  });

  it('gives one port number on TCP and UDP one node port on create, the one named for either', async () => {
    const ports = new PortAllocator();
    const s = serviceStrategy(new IpAllocator('10.96.0.0/24'), ports);
    const auto = svc({ ports: dns() });
    s.prepareForCreate!(auto, ctx);
    await s.beforeCreate!(auto, ctx);
    const [tcp, udp] = auto.spec.ports.map((p: KubeObject) => p.nodePort);
    expect(tcp).toBeGreaterThanOrEqual(30000);
    expect(udp).toBe(tcp);
    const named = svc({ ports: dns([undefined, 30053]) });
    s.prepareForCreate!(named, ctx);
    await s.beforeCreate!(named, ctx);
    expect(named.spec.ports.map((p: KubeObject) => p.nodePort)).toEqual([30053, 30053]);
  });

  it('on an update, gives each port without one its own node port, and takes one named for both once', () => {
    const ports = new PortAllocator();
    const s = serviceStrategy(new IpAllocator('10.96.0.0/24'), ports);
    const stored = svc({ type: 'ClusterIP', clusterIP: '10.96.0.10', ports: dns() });
    delete stored.spec.externalTrafficPolicy;
    s.prepareForCreate!(stored, ctx);
    const auto = svc({ clusterIP: '10.96.0.10', ports: dns() });
    s.prepareForUpdate!(auto, stored, ctx);
    s.beforeUpdate!(auto, stored, ctx)!.commit();
    const [tcp, udp] = auto.spec.ports.map((p: KubeObject) => p.nodePort);
    expect(udp).not.toBe(tcp);
    const named = svc({ clusterIP: '10.96.0.10', ports: dns([30053, 30053]) });
    s.prepareForUpdate!(named, stored, ctx);
    s.beforeUpdate!(named, stored, ctx)!.commit();
    expect(ports.has(30053)).toBe(true);
  });
});
