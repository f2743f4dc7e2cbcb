import { describe, expect, it } from 'vitest';
import { desiredSlices } from './endpointslice.js';

const pod = (name: string, ip: string, o: { ready?: boolean; node?: string; phase?: string; ports?: { name: string; containerPort: number }[] } = {}) => ({
  metadata: { name, namespace: 'ns', uid: `u-${name}`, labels: { app: 'a' } },
  spec: { nodeName: o.node ?? 'n1', containers: [{ name: 'c', ports: o.ports }] },
  status: { phase: o.phase ?? 'Running', podIP: ip, conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }] },
});
const svc = (spec: Record<string, unknown>, annotations?: Record<string, string>) =>
  ({ metadata: { name: 's', namespace: 'ns', ...(annotations ? { annotations } : {}) }, spec: { selector: { app: 'a' }, ports: [{ port: 80 }], ...spec } });
const zones: Record<string, string> = { n1: 'zone-a', n2: 'zone-b' };
const zoneOf = (n: string): string | undefined => zones[n];

describe('the EndpointSlice controller\'s slices', () => {
  it('puts a pod under the ports found on it, skipping only those it lacks (getEndpointPorts)', () => {
    const s = svc({ ports: [{ name: 'http', port: 80, targetPort: 'http' }, { name: 'metrics', port: 9090, targetPort: 'metrics' }] });
    const slices = desiredSlices(s, [
      pod('a', '10.0.0.1', { ports: [{ name: 'http', containerPort: 8080 }, { name: 'metrics', containerPort: 9100 }] }),
      pod('b', '10.0.0.2', { ports: [{ name: 'http', containerPort: 8080 }] }),
      pod('c', '10.0.0.3'),
    ], zoneOf);
    expect(slices.map((x) => [x.ports.map((p) => `${p.name}:${p.port}`), x.endpoints.map((e) => e.addresses[0])])).toEqual([
      [['http:8080', 'metrics:9100'], ['10.0.0.1']],
      [['http:8080'], ['10.0.0.2']],
      [[], ['10.0.0.3']],
    ]);
  });

  it('leaves out terminal pods, whatever their restartPolicy', () => {
    const slices = desiredSlices(svc({}), [pod('a', '10.0.0.1'), pod('f', '10.0.0.2', { phase: 'Failed' }), pod('s', '10.0.0.3', { phase: 'Succeeded' })], zoneOf);
    expect(slices.flatMap((x) => x.endpoints.map((e) => e.addresses[0]))).toEqual(['10.0.0.1']);
  });

  it('hints ready endpoints with a zone at their own zone under trafficDistribution PreferClose (trafficdist)', () => {
    const pods = [pod('a', '10.0.0.1'), pod('b', '10.0.0.2', { node: 'n2' }), pod('c', '10.0.0.3', { ready: false }), pod('d', '10.0.0.4', { node: 'n3' })];
    const hints = (s: ReturnType<typeof svc>) => desiredSlices(s, pods, zoneOf)[0]!.endpoints.map((e) => e.hints ?? null);
    expect(hints(svc({ trafficDistribution: 'PreferClose' }))).toEqual([{ forZones: [{ name: 'zone-a' }] }, { forZones: [{ name: 'zone-b' }] }, null, null]);
    expect(hints(svc({}))).toEqual([null, null, null, null]);
    // the topology annotation's Auto hints take precedence (the topology cache's, added by the controller)
    expect(hints(svc({ trafficDistribution: 'PreferClose' }, { 'service.kubernetes.io/topology-mode': 'Auto' }))).toEqual([null, null, null, null]);
  });
});
