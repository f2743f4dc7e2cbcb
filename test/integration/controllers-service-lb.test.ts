// The service-lb controller (in this process): a LoadBalancer Service gets the Ready nodes' InternalIPs as its
// ingress (kubectl shows them as EXTERNAL-IP), with upstream's finalizer and events; a port another load balancer
// already serves leaves the second <pending> until it is free; a Service changed to ClusterIP loses its address and
// finalizer; one with a loadBalancerClass is someone else's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type KubeObject } from '../../pkg/client/index.js';
import type { TestApiServer } from '../support/apiserver.js';
import { eventually, startControllersCluster, stopControllersCluster } from './controllers-support.js';

let s: TestApiServer;
let c: Client;
let cm: { stop(): Promise<void> };

beforeAll(async () => ({ s, c, cm } = await startControllersCluster({ controllers: ['service-lb-controller'] })), 30_000);
afterAll(() => stopControllersCluster({ s, c, cm }));

const FINALIZER = 'service.kubernetes.io/load-balancer-cleanup';

async function readyNode(name: string, ip: string): Promise<void> {
  await c.nodes().create({ apiVersion: 'v1', kind: 'Node', metadata: { name } });
  const node = await c.nodes().get(name);
  node.status = {
    conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: new Date().toISOString(), lastTransitionTime: new Date().toISOString() }],
    addresses: [{ type: 'InternalIP', address: ip }, { type: 'Hostname', address: name }],
  };
  await c.nodes().updateStatus(node);
}

const lbService = (name: string, port: number, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' },
  spec: { type: 'LoadBalancer', selector: { app: name }, ports: [{ port, targetPort: 8080 }], ...extra },
});
const ingress = (svc: KubeObject): string[] => (svc.status?.loadBalancer?.ingress ?? []).map((i: { ip: string }) => i.ip);
const reasons = async (name: string): Promise<string[]> =>
  (await c.events('default').list()).items.filter((e) => e.involvedObject?.name === name).map((e) => e.reason as string);

describe('service-lb controller', () => {
  it('gives a LoadBalancer Service the Ready nodes\' InternalIPs, with the cleanup finalizer and upstream\'s events', async () => {
    await readyNode('n1', '192.0.2.10');
    await readyNode('n2', '192.0.2.11');
    await c.services('default').create(lbService('web', 80));
    const svc = await eventually(() => c.services('default').get('web'), (x) => ingress(x).length === 2, 'web\'s ingress');
    expect(svc.status.loadBalancer.ingress).toEqual([{ ip: '192.0.2.10', ipMode: 'VIP' }, { ip: '192.0.2.11', ipMode: 'VIP' }]);
    expect(svc.metadata!.finalizers).toEqual([FINALIZER]);
    await eventually(() => reasons('web'), (r) => r.includes('EnsuredLoadBalancer'), 'EnsuredLoadBalancer');
    expect(await reasons('web')).toContain('EnsuringLoadBalancer');
    const table = await s.kubectl('get', 'service', 'web');
    expect(table.stdout).toMatch(/^web\s+LoadBalancer\s+\S+\s+192\.0\.2\.10,192\.0\.2\.11\s+80:\d+\/TCP/m);
  });

  it('leaves a second Service on a port already served <pending>, and gives it the addresses once the port is free', async () => {
    await c.services('default').create(lbService('other', 80));
    await eventually(() => reasons('other'), (r) => r.includes('SyncLoadBalancerFailed'), 'SyncLoadBalancerFailed');
    const events = (await c.events('default').list()).items.filter((e) => e.involvedObject?.name === 'other' && e.reason === 'SyncLoadBalancerFailed');
    expect(events[0]!.message).toBe('Error syncing load balancer: failed to ensure load balancer: port 80/TCP is already served by the load balancer of default/web');
    expect(ingress(await c.services('default').get('other'))).toEqual([]);
    expect((await s.kubectl('get', 'service', 'other')).stdout).toMatch(/^other\s+LoadBalancer\s+\S+\s+<pending>\s+80:/m);

    // web becomes a ClusterIP Service: its address and finalizer go, and other gets the port
    const web = await c.services('default').get('web');
    web.spec!.type = 'ClusterIP';
    delete web.spec!.ports[0].nodePort;
    await c.services('default').update(web);
    const cleaned = await eventually(() => c.services('default').get('web'), (x) => !ingress(x).length && !x.metadata?.finalizers?.length, 'web cleaned up');
    expect(cleaned.status.loadBalancer).toEqual({});
    await eventually(() => reasons('web'), (r) => r.includes('DeletedLoadBalancer'), 'DeletedLoadBalancer');
    await eventually(() => c.services('default').get('other'), (x) => ingress(x).length === 2, 'other\'s ingress');
  });

  it('lets a deleted Service go (its finalizer removed), and leaves a Service of another loadBalancerClass alone', async () => {
    await c.services('default').delete('other');
    await eventually(async () => (await c.services('default').list()).items.map((x) => x.metadata!.name), (names) => !names.includes('other'), 'other gone');
    await c.services('default').create(lbService('classy', 81, { loadBalancerClass: 'example.com/lb' }));
    await c.services('default').create(lbService('probe', 82));
    await eventually(() => c.services('default').get('probe'), (x) => ingress(x).length === 2, 'probe\'s ingress');
    const classy = await c.services('default').get('classy');
    expect([ingress(classy), classy.metadata!.finalizers]).toEqual([[], undefined]);
  });
});
