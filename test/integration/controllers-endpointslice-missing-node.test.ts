// The endpointslice controller (in this process) and a pod whose spec.nodeName names no Node (upstream's
// reconcileByAddressType): the pod is left out of the service's slices, which still list its other pods, and the
// service is retried until the Node shows up, when the pod gets in. A service publishing not-ready addresses lists it
// at once, without a zone; the Endpoints controller does not look at nodes at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Resources, type KubeObject } from '../../pkg/client/index.js';
import type { TestApiServer } from '../support/apiserver.js';
import { eventually, setPodStatus, startControllersCluster, stopControllersCluster } from './controllers-support.js';

let s: TestApiServer;
let c: Client;
let cm: { stop(): Promise<void> };

beforeAll(async () => ({ s, c, cm } = await startControllersCluster({ controllers: ['endpoint', 'endpointslice'] })), 30_000);
afterAll(() => stopControllersCluster({ s, c, cm }));

type Endpoint = { addresses: string[]; nodeName?: string; zone?: string };
const endpointsOf = async (service: string): Promise<string[][]> => {
  const l = await c.resource(Resources.endpointSlices, 'default').list({ labelSelector: `kubernetes.io/service-name=${service}` });
  return l.items.flatMap((x) => (x.endpoints ?? []) as Endpoint[]).map((e) => [e.addresses[0]!, e.nodeName ?? '', e.zone ?? '']).sort((a, b) => a[0]!.localeCompare(b[0]!));
};
const node = (name: string, zone: string): KubeObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'topology.kubernetes.io/zone': zone } } });
const same = (want: string[][]) => (got: string[][]): boolean => JSON.stringify(got) === JSON.stringify(want);

describe('a pod on a node that does not exist', () => {
  it('is left out of the EndpointSlices until the node appears, unless the service publishes not-ready addresses', async () => {
    await c.nodes().create(node('n-here', 'zone-a'));
    for (const [name, nodeName, ip] of [['p1', 'n-here', '10.0.0.1'], ['p2', 'n-later', '10.0.0.2']] as const) {
      await c.pods('default').create({
        apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels: { app: 'ghost' } },
        spec: { nodeName, containers: [{ name: 'c', image: 'nginx' }] },
      });
      await setPodStatus(c, 'default', name, true, ip);
    }
    const svc = (name: string, publishNotReadyAddresses: boolean): KubeObject => ({
      apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' },
      spec: { selector: { app: 'ghost' }, ports: [{ port: 80 }], publishNotReadyAddresses },
    });
    await c.services('default').create(svc('ghost', false));
    await c.services('default').create(svc('ghost-pna', true));

    await eventually(() => endpointsOf('ghost-pna'), same([['10.0.0.1', 'n-here', 'zone-a'], ['10.0.0.2', 'n-later', '']]), 'both pods published, p2 without zone');
    await eventually(() => endpointsOf('ghost'), same([['10.0.0.1', 'n-here', 'zone-a']]), 'only the pod on an existing node');
    // upstream's syncService warns on the service whose reconcile failed
    const warnings = async (): Promise<string[]> => (await c.events('default').list()).items
      .filter((e) => e.involvedObject.name === 'ghost' && e.involvedObject.kind === 'Service' && e.type === 'Warning').map((e) => `${e.reason}: ${e.message}`);
    await eventually(warnings, (w) => w.includes('FailedToUpdateEndpointSlices: Error updating Endpoint Slices for Service default/ghost: skipping Pod p2 for Service default/ghost: Node n-later Not Found'), 'the warning event');
    const ep = await eventually(() => c.endpoints('default').get('ghost'), (e) => (e.subsets?.[0]?.addresses ?? []).length === 2, 'both pods in the Endpoints');
    expect((ep.subsets[0].addresses as { ip: string }[]).map((a) => a.ip).sort()).toEqual(['10.0.0.1', '10.0.0.2']);

    // nothing but the retry of the failed sync brings the service back once the node exists
    await c.nodes().create(node('n-later', 'zone-b'));
    await eventually(() => endpointsOf('ghost'), same([['10.0.0.1', 'n-here', 'zone-a'], ['10.0.0.2', 'n-later', 'zone-b']]), 'p2 in, with its node\'s zone');
  }, 60_000);
});
