// The endpointslice controller's topology-aware hints (in this process): a service annotated topology-mode Auto over
// pods on ready nodes in two zones gets a zone hint on each ready endpoint and a TopologyAwareHintsEnabled event; one
// without the annotation gets none; removing the annotation removes the hints, with TopologyAwareHintsDisabled, as
// does a node change that leaves a single zone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Resources, type KubeObject } from '../../pkg/client/index.js';
import type { TestApiServer } from '../support/apiserver.js';
import { eventually, setPodStatus, startControllersCluster, stopControllersCluster } from './controllers-support.js';

let s: TestApiServer;
let c: Client;
let cm: { stop(): Promise<void> };

beforeAll(async () => ({ s, c, cm } = await startControllersCluster({ controllers: ['endpointslice'] })), 30_000);
afterAll(() => stopControllersCluster({ s, c, cm }));

type Endpoint = { addresses: string[]; zone?: string; hints?: { forZones: { name: string }[] } };
const hintsOf = async (service: string): Promise<[string, string | undefined, string | null][] | undefined> => {
  const l = await c.resource(Resources.endpointSlices, 'default').list({ labelSelector: `kubernetes.io/service-name=${service}` });
  const endpoints = l.items.flatMap((x) => (x.endpoints ?? []) as Endpoint[]);
  return endpoints.map((e): [string, string | undefined, string | null] => [e.addresses[0]!, e.zone, e.hints?.forZones.map((z) => z.name).join() ?? null])
    .sort((a, b) => a[0].localeCompare(b[0]));
};
const reasons = async (service: string): Promise<string[]> =>
  (await c.events('default').list()).items.filter((e) => e.involvedObject.name === service && e.involvedObject.kind === 'Service').map((e) => `${e.reason}: ${e.message}`);

describe('topology-aware hints', () => {
  it('are given under topology-mode Auto, in proportion to the zones\' CPU, and taken away with the annotation', async () => {
    // zone-a has three times zone-b's CPU: it gets three of the four endpoints, one of them from zone-b
    for (const [name, zone, cpu] of [['n-a', 'zone-a', '3'], ['n-b', 'zone-b', '1']] as const) {
      await c.nodes().create({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'topology.kubernetes.io/zone': zone } } });
      await c.nodes().patch(name, 'merge', {
        status: { allocatable: { cpu }, capacity: { cpu }, conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'ready' }] },
      }, { subresource: 'status' });
    }
    const pods: [string, string, string][] = [['p1', 'n-a', '10.0.0.1'], ['p2', 'n-a', '10.0.0.2'], ['p3', 'n-b', '10.0.0.3'], ['p4', 'n-b', '10.0.0.4']];
    for (const [name, nodeName, ip] of pods) {
      await c.pods('default').create({
        apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels: { app: 'zoned' } },
        spec: { nodeName, containers: [{ name: 'c', image: 'nginx' }] },
      } satisfies KubeObject);
      await setPodStatus(c, 'default', name, true, ip);
    }
    const svc = (name: string, annotations: Record<string, string> = {}): KubeObject => ({
      apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default', annotations }, spec: { selector: { app: 'zoned' }, ports: [{ port: 80 }] },
    });
    await c.services('default').create(svc('auto', { 'service.kubernetes.io/topology-mode': 'Auto' }));
    await c.services('default').create(svc('plain'));

    const hinted = [['10.0.0.1', 'zone-a', 'zone-a'], ['10.0.0.2', 'zone-a', 'zone-a'], ['10.0.0.3', 'zone-b', 'zone-a'], ['10.0.0.4', 'zone-b', 'zone-b']];
    await eventually(() => hintsOf('auto'), (h) => JSON.stringify(h) === JSON.stringify(hinted), 'hints in proportion to the zones\' CPU');
    await eventually(() => reasons('auto'), (r) => r.includes('TopologyAwareHintsEnabled: Topology Aware Hints has been enabled, addressType: IPv4'), 'the enabled event');
    const plain = await eventually(() => hintsOf('plain'), (h) => h?.length === 4, 'the plain service\'s four endpoints');
    expect(plain!.map(([, , hint]) => hint)).toEqual([null, null, null, null]);

    await c.services('default').patch('auto', 'merge', { metadata: { annotations: { 'service.kubernetes.io/topology-mode': null } } });
    await eventually(() => hintsOf('auto'), (h) => h?.length === 4 && h.every(([, , hint]) => hint === null), 'the hints removed');
    await eventually(() => reasons('auto'), (r) => r.includes('TopologyAwareHintsDisabled: Topology Aware Hints has been disabled, addressType: IPv4'), 'the disabled event');

    // the deprecated annotation, lower-case, asks the same; a zone whose only node stops being ready takes them away
    await c.services('default').patch('auto', 'merge', { metadata: { annotations: { 'service.kubernetes.io/topology-aware-hints': 'auto' } } });
    await eventually(() => hintsOf('auto'), (h) => JSON.stringify(h) === JSON.stringify(hinted), 'the hints back');
    await c.nodes().patch('n-b', 'merge', { status: { conditions: [{ type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: 'down' }] } }, { subresource: 'status' });
    await eventually(() => hintsOf('auto'), (h) => h?.length === 4 && h.every(([, , hint]) => hint === null), 'the hints removed with zone-b down');
    await eventually(() => reasons('auto'), (r) => r.includes(
      'TopologyAwareHintsDisabled: Insufficient Node information: allocatable CPU or zone not specified on one or more nodes, addressType: IPv4'), 'the insufficient-node-information event');
  }, 60_000);
});
