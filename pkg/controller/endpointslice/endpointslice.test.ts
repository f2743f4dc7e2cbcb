import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { desiredSlices } from './endpointslice.js';
import { TopologyCache } from './topology-hints.js';

const pod = (name: string, ip: string, o: { ready?: boolean; node?: string; phase?: string; ports?: { name: string; containerPort: number }[] } = {}) => ({
  metadata: { name, namespace: 'ns', uid: `u-${name}`, labels: { app: 'a' } },
  spec: { nodeName: o.node ?? 'n1', containers: [{ name: 'c', ports: o.ports }] },
  status: { phase: o.phase ?? 'Running', podIP: ip, conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }] },
});
const svc = (spec: Record<string, unknown>, annotations?: Record<string, string>) =>
  ({ metadata: { name: 's', namespace: 'ns', ...(annotations ? { annotations } : {}) }, spec: { selector: { app: 'a' }, ports: [{ port: 80 }], ...spec } });
// n3 exists without a zone; any other node name is not in the informer
const zoned = (name: string, zone?: string): KubeObject => ({ metadata: { name, labels: zone ? { 'topology.kubernetes.io/zone': zone } : {} } });
const nodes: Record<string, KubeObject> = { n1: zoned('n1', 'zone-a'), n2: zoned('n2', 'zone-b'), n3: zoned('n3') };
const nodeOf = (n: string) => nodes[n];
const addresses = (slices: { endpoints: { addresses: string[] }[] }[]) => slices.flatMap((x) => x.endpoints.map((e) => e.addresses[0]));

describe('the EndpointSlice controller\'s slices', () => {
  it('puts a pod under the ports found on it, skipping only those it lacks (getEndpointPorts)', () => {
    const s = svc({ ports: [{ name: 'http', port: 80, targetPort: 'http' }, { name: 'metrics', port: 9090, targetPort: 'metrics' }] });
    const slices = desiredSlices(s, [
      pod('a', '10.0.0.1', { ports: [{ name: 'http', containerPort: 8080 }, { name: 'metrics', containerPort: 9100 }] }),
      pod('b', '10.0.0.2', { ports: [{ name: 'http', containerPort: 8080 }] }),
      pod('c', '10.0.0.3'),
    ], nodeOf).slices;
    expect(slices.map((x) => [x.ports.map((p) => `${p.name}:${p.port}`), x.endpoints.map((e) => e.addresses[0])])).toEqual([
      [['http:8080', 'metrics:9100'], ['10.0.0.1']],
      [['http:8080'], ['10.0.0.2']],
      [[], ['10.0.0.3']],
    ]);
  });

  it('leaves out terminal pods, whatever their restartPolicy', () => {
    const slices = desiredSlices(svc({}), [pod('a', '10.0.0.1'), pod('f', '10.0.0.2', { phase: 'Failed' }), pod('s', '10.0.0.3', { phase: 'Succeeded' })], nodeOf).slices;
    expect(addresses(slices)).toEqual(['10.0.0.1']);
  });

  it('hints ready endpoints with a zone at their own zone under trafficDistribution PreferClose (trafficdist)', () => {
    const pods = [pod('a', '10.0.0.1'), pod('b', '10.0.0.2', { node: 'n2' }), pod('c', '10.0.0.3', { ready: false }), pod('d', '10.0.0.4', { node: 'n3' })];
    const hints = (s: ReturnType<typeof svc>) => desiredSlices(s, pods, nodeOf).slices[0]!.endpoints.map((e) => e.hints ?? null);
    expect(hints(svc({ trafficDistribution: 'PreferClose' }))).toEqual([{ forZones: [{ name: 'zone-a' }] }, { forZones: [{ name: 'zone-b' }] }, null, null]);
    expect(hints(svc({}))).toEqual([null, null, null, null]);
    // the topology annotation's Auto hints take precedence (the topology cache's, added by the controller)
    expect(hints(svc({ trafficDistribution: 'PreferClose' }, { 'service.kubernetes.io/topology-mode': 'Auto' }))).toEqual([null, null, null, null]);
  });

  it('leaves out a pod whose node is not in the informer, saying so, unless the service publishes not-ready addresses', () => {
    const pods = [pod('a', '10.0.0.1'), pod('gone', '10.0.0.2', { node: 'n-gone' }), pod('z', '10.0.0.3', { node: 'n3' })];
    const { slices, skipped } = desiredSlices(svc({}), pods, nodeOf);
    // the others are still written: the pod on a node that exists without a zone stays, zoneless
    expect(slices[0]!.endpoints.map((e) => [e.addresses[0], e.zone ?? null])).toEqual([['10.0.0.1', 'zone-a'], ['10.0.0.3', null]]);
    expect(skipped).toEqual(['skipping Pod gone for Service ns/s: Node n-gone Not Found']);
    // publishNotReadyAddresses: the pod is published, with its node name and no zone (upstream's podToEndpoint with no node)
    const published = desiredSlices(svc({ publishNotReadyAddresses: true }), pods, nodeOf);
    expect(published.skipped).toEqual([]);
    expect(published.slices[0]!.endpoints.map((e) => [e.addresses[0], e.nodeName, e.zone ?? null])).toEqual([
      ['10.0.0.1', 'n1', 'zone-a'], ['10.0.0.2', 'n-gone', null], ['10.0.0.3', 'n3', null],
    ]);
  });

  it('takes a pod without a node name for one on a missing node (the node lister finds no "")', () => {
    const unscheduled = { ...pod('u', '10.0.0.9'), spec: { containers: [{ name: 'c' }] } };
    const { slices, skipped } = desiredSlices(svc({}), [pod('a', '10.0.0.1'), unscheduled], nodeOf);
    expect(addresses(slices)).toEqual(['10.0.0.1']);
    expect(skipped).toEqual(['skipping Pod u for Service ns/s: Node  Not Found']);
  });

  it('keeps Auto hints for the others when a pod\'s node is missing, not disabling them for an endpoint without zone', () => {
    const topology = new TopologyCache();
    const ready = { status: { conditions: [{ type: 'Ready', status: 'True' }], allocatable: { cpu: '1' } } };
    topology.setNodes([{ ...nodes.n1!, ...ready }, { ...nodes.n2!, ...ready }]);
    const pods = [pod('a', '10.0.0.1'), pod('b', '10.0.0.2', { node: 'n2' }), pod('gone', '10.0.0.3', { node: 'n-gone' })];
    const { slices } = desiredSlices(svc({}, { 'service.kubernetes.io/topology-mode': 'Auto' }), pods, nodeOf);
    expect(topology.addHints('ns/s', slices, []).map((e) => e.reason)).toEqual(['TopologyAwareHintsEnabled']);
    expect(slices[0]!.endpoints.map((e) => e.hints?.forZones[0]?.name)).toEqual(['zone-a', 'zone-b']);
  });
});
