// The endpoints and endpointslice controllers (in this process): a service's Endpoints and EndpointSlice follow its
// pods — ready ones as addresses, others as notReadyAddresses, named target ports resolved per pod — and go with
// the service (the EndpointSlice through the garbage collector).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Resources, isNotFound, type KubeObject } from '../../pkg/client/index.js';
import type { TestApiServer } from '../support/apiserver.js';
import { eventually, setPodStatus, startControllersCluster, stopControllersCluster } from './controllers-support.js';

let s: TestApiServer;
let c: Client;
let cm: { stop(): Promise<void> };

beforeAll(async () => {
  ({ s, c, cm } = await startControllersCluster({ controllers: ['endpoint', 'endpointslice', 'endpointslicemirroring', 'garbagecollector'] }));
  // the pods' node: the EndpointSlice controller leaves out pods whose node it does not know
  await c.nodes().create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
}, 30_000);
afterAll(() => stopControllersCluster({ s, c, cm }));

const webPod = (name: string, port: number): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels: { app: 'web' } },
  spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx', ports: [{ name: 'http', containerPort: port }] }] },
});

const ips = (list?: { ip: string }[]): string[] => (list ?? []).map((a) => a.ip).sort();

describe('endpoints and endpointslices', () => {
  it('follow ready pods, with named target ports resolved per pod', async () => {
    await c.services('default').create({
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
    });
    await c.pods('default').create(webPod('web-1', 8080));
    await c.pods('default').create(webPod('web-2', 8080));
    await c.pods('default').create(webPod('web-3', 9090));
    await setPodStatus(c, 'default', 'web-1', true, '10.0.0.1');
    await setPodStatus(c, 'default', 'web-2', false, '10.0.0.2');
    await setPodStatus(c, 'default', 'web-3', true, '10.0.0.3');

    const ep = await eventually(() => c.endpoints('default').get('web'), (e) => (e.subsets ?? []).length === 2, 'two subsets (two port mappings)');
    const by = Object.fromEntries((ep.subsets as { ports: { port: number }[]; addresses?: { ip: string }[]; notReadyAddresses?: { ip: string }[] }[]).map((x) => [x.ports[0]!.port, x]));
    expect(ips(by[8080]!.addresses)).toEqual(['10.0.0.1']);
    expect(ips(by[8080]!.notReadyAddresses)).toEqual(['10.0.0.2']);
    expect(ips(by[9090]!.addresses)).toEqual(['10.0.0.3']);
    expect(by[8080]!.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);

    // kubectl sees them as upstream prints them.
    const r = await s.kubectl('get', 'endpoints', 'web', '-o', 'jsonpath={.subsets[*].addresses[*].ip}');
    expect(r.stdout.split(' ').sort()).toEqual(['10.0.0.1', '10.0.0.3']);

    await setPodStatus(c, 'default', 'web-2', true, '10.0.0.2');
    await c.pods('default').delete('web-3', { gracePeriodSeconds: 0 });
    await eventually(() => c.endpoints('default').get('web'),
      (e) => (e.subsets ?? []).length === 1 && ips(e.subsets[0].addresses).join() === '10.0.0.1,10.0.0.2' && !e.subsets[0].notReadyAddresses, 'both 8080 pods ready, web-3 gone');

    const slices = await eventually(() => c.resource(Resources.endpointSlices, 'default').list({ labelSelector: 'kubernetes.io/service-name=web' }),
      (l) => l.items.length === 1 && (l.items[0]!.endpoints ?? []).length === 2, 'one EndpointSlice with two endpoints');
    const slice = slices.items[0]!;
    expect(slice.metadata?.labels?.['endpointslice.kubernetes.io/managed-by']).toBe('endpointslice-controller.k8s.io');
    expect(slice.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    expect((slice.endpoints as { addresses: string[]; conditions: { ready: boolean } }[]).every((e) => e.conditions.ready)).toBe(true);
    expect(slice.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Service', name: 'web', controller: true });
  });

  it('name a pod whose subdomain is the service by its hostname (StatefulSet pods), in Endpoints and EndpointSlices', async () => {
    await c.services('default').create({
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'db', namespace: 'default' },
      spec: { clusterIP: 'None', selector: { app: 'db' }, ports: [{ name: 'pg', port: 5432 }] },
    });
    for (const [name, subdomain] of [['db-0', 'db'], ['db-other', 'elsewhere']] as const) {
      await c.pods('default').create({
        apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels: { app: 'db' } },
        spec: { nodeName: 'n1', hostname: name, subdomain, containers: [{ name: 'c', image: 'busybox' }] },
      });
    }
    await setPodStatus(c, 'default', 'db-0', true, '10.0.1.1');
    await setPodStatus(c, 'default', 'db-other', true, '10.0.1.2');
    const slices = await eventually(() => c.resource(Resources.endpointSlices, 'default').list({ labelSelector: 'kubernetes.io/service-name=db' }),
      (l) => (l.items[0]?.endpoints ?? []).length === 2, 'both db pods in the slice');
    const hostnames = (slices.items[0]!.endpoints as { addresses: string[]; hostname?: string }[]).map((e) => [e.addresses[0], e.hostname]);
    expect(hostnames).toEqual([['10.0.1.1', 'db-0'], ['10.0.1.2', undefined]]);
    const ep = await eventually(() => c.endpoints('default').get('db'), (e) => (e.subsets?.[0]?.addresses ?? []).length === 2, 'both db pods in the Endpoints');
    expect((ep.subsets[0].addresses as { ip: string; hostname?: string }[]).map((a) => [a.ip, a.hostname])).toEqual([['10.0.1.1', 'db-0'], ['10.0.1.2', undefined]]);
  });

  it('drop a pod relabelled out of the service (only its old labels tell which service to look at again)', async () => {
    await c.pods('default').patch('db-other', 'merge', { metadata: { labels: { app: 'other' } } });
    await eventually(() => c.endpoints('default').get('db'), (e) => ips(e.subsets?.[0]?.addresses ?? []).join() === '10.0.1.1', 'db-other out of the Endpoints');
    await eventually(() => c.resource(Resources.endpointSlices, 'default').list({ labelSelector: 'kubernetes.io/service-name=db' }),
      (l) => l.items.length === 1 && (l.items[0]!.endpoints as { addresses: string[] }[]).map((e) => e.addresses[0]).join() === '10.0.1.1', 'db-other out of the slice');
  });

  it('a deleted service takes its Endpoints and EndpointSlices with it', async () => {
    await c.services('default').delete('web');
    await eventually(() => c.endpoints('default').get('web').then(() => true, () => false), (v) => v === false, 'the Endpoints to go');
    await eventually(() => c.resource(Resources.endpointSlices, 'default').list({ labelSelector: 'kubernetes.io/service-name=web' }),
      (l) => l.items.length === 0, 'the slices to be collected');
  });

  it('leaves the Endpoints of a service without selector alone', async () => {
    await c.services('default').create({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'manual', namespace: 'default' }, spec: { ports: [{ port: 80 }] } });
    await c.endpoints('default').create({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'manual', namespace: 'default' }, subsets: [{ addresses: [{ ip: '192.168.1.1' }], ports: [{ port: 80 }] }] });
    await new Promise((r) => setTimeout(r, 300));
    expect(ips((await c.endpoints('default').get('manual')).subsets[0].addresses)).toEqual(['192.168.1.1']);
  });

  it('mirrors the Endpoints of a service without selector into EndpointSlices, until skip-mirror says not to', async () => {
    const slices = c.resource(Resources.endpointSlices, 'default');
    const mirrored = (): Promise<KubeObject[]> => slices.list({ labelSelector: 'kubernetes.io/service-name=manual,endpointslice.kubernetes.io/managed-by=endpointslicemirroring-controller.k8s.io' }).then((l) => l.items);
    const [slice] = await eventually(mirrored, (l) => l.length === 1, 'the mirrored slice');
    expect(slice).toMatchObject({
      addressType: 'IPv4', ports: [{ name: '', port: 80, protocol: 'TCP' }], endpoints: [{ addresses: ['192.168.1.1'], conditions: { ready: true } }],
      metadata: { ownerReferences: [{ kind: 'Endpoints', name: 'manual', controller: true }] },
    });
    const ep = await c.endpoints('default').get('manual');
    await c.endpoints('default').update({ ...ep, subsets: [{ addresses: [{ ip: '192.168.1.1' }], notReadyAddresses: [{ ip: '192.168.1.2', hostname: 'two' }], ports: [{ name: 'http', port: 8080 }] }] });
    await eventually(mirrored, (l) => l.length === 1 && (l[0]!.endpoints ?? []).length === 2 && l[0]!.ports?.[0]?.port === 8080, 'the slice to follow');
    expect((await mirrored())[0]!.endpoints).toEqual([
      { addresses: ['192.168.1.1'], conditions: { ready: true } }, { addresses: ['192.168.1.2'], conditions: { ready: false }, hostname: 'two' },
    ]);
    const labelled = await c.endpoints('default').get('manual');
    await c.endpoints('default').update({ ...labelled, metadata: { ...labelled.metadata, labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } } });
    await eventually(mirrored, (l) => l.length === 0, 'the mirrored slice to go');
  });

  it('copies the annotations of mirrored Endpoints (but its trigger time and last-applied configuration) onto its slices', async () => {
    await c.services('default').create({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'annotated', namespace: 'default' }, spec: { ports: [{ port: 80 }] } });
    await c.endpoints('default').create({
      apiVersion: 'v1', kind: 'Endpoints',
      metadata: { name: 'annotated', namespace: 'default', annotations: { team: 'a', 'endpoints.kubernetes.io/last-change-trigger-time': '2020-01-01T00:00:00Z' } },
      subsets: [{ addresses: [{ ip: '192.168.2.1' }], ports: [{ port: 80 }] }],
    });
    const mirrored = (): Promise<KubeObject[]> => c.resource(Resources.endpointSlices, 'default')
      .list({ labelSelector: 'kubernetes.io/service-name=annotated,endpointslice.kubernetes.io/managed-by=endpointslicemirroring-controller.k8s.io' }).then((l) => l.items);
    const [slice] = await eventually(mirrored, (l) => l.length === 1, 'the mirrored slice');
    expect(slice!.metadata?.annotations).toEqual({ team: 'a' });
    // an annotation change alone is mirrored
    await c.endpoints('default').patch('annotated', 'merge', { metadata: { annotations: { team: 'b' } } });
    await eventually(mirrored, (l) => l[0]?.metadata?.annotations?.team === 'b', 'the new annotation on the slice');
  });

  it('leave the Endpoints and EndpointSlices of a service that loses its selector as they were, as upstream', async () => {
    await c.services('default').create({
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'unsel', namespace: 'default' }, spec: { selector: { app: 'unsel' }, ports: [{ port: 80 }] },
    });
    await c.pods('default').create({ ...webPod('unsel-0', 80), metadata: { name: 'unsel-0', namespace: 'default', labels: { app: 'unsel' } } });
    await setPodStatus(c, 'default', 'unsel-0', true, '10.0.6.1');
    const owned = (): Promise<KubeObject[]> => c.resource(Resources.endpointSlices, 'default')
      .list({ labelSelector: 'kubernetes.io/service-name=unsel,endpointslice.kubernetes.io/managed-by=endpointslice-controller.k8s.io' }).then((l) => l.items);
    await eventually(owned, (l) => (l[0]?.endpoints ?? []).length === 1, 'the pod in the slice');
    await eventually(() => c.endpoints('default').get('unsel'), (e) => (e.subsets?.[0]?.addresses ?? []).length === 1, 'the pod in the Endpoints');
    await c.services('default').patch('unsel', 'merge', { spec: { selector: null } });
    await new Promise((r) => setTimeout(r, 500));
    expect((await owned()).map((sl) => (sl.endpoints as { addresses: string[] }[]).map((e) => e.addresses[0]))).toEqual([['10.0.6.1']]);
    expect(ips((await c.endpoints('default').get('unsel')).subsets[0].addresses)).toEqual(['10.0.6.1']);
  });

  it('publishNotReadyAddresses makes a not-ready pod ready, but not serving', async () => {
    await c.services('default').create({
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'pna', namespace: 'default' },
      spec: { clusterIP: 'None', publishNotReadyAddresses: true, selector: { app: 'pna' }, ports: [{ port: 80 }] },
    });
    await c.pods('default').create({ ...webPod('pna-0', 80), metadata: { name: 'pna-0', namespace: 'default', labels: { app: 'pna' } } });
    await setPodStatus(c, 'default', 'pna-0', false, '10.0.2.1');
    const slices = await eventually(() => c.resource(Resources.endpointSlices, 'default').list({ labelSelector: 'kubernetes.io/service-name=pna' }),
      (l) => (l.items[0]?.endpoints ?? []).length === 1, 'the not-ready pod in the slice');
    expect(slices.items[0]!.endpoints[0].conditions).toEqual({ ready: true, serving: false, terminating: false });
    const ep = await eventually(() => c.endpoints('default').get('pna'), (e) => (e.subsets?.[0]?.addresses ?? []).length === 1, 'the not-ready pod in the addresses');
    expect(ep.subsets[0].notReadyAddresses).toBeUndefined();
  });

  it('gives an ExternalName service no Endpoints or EndpointSlices, even with a selector', async () => {
    // the ExternalName service is queued first; once the plain service after it has its endpoints, it has been synced
    await c.services('default').create({
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'ext', namespace: 'default' },
      spec: { type: 'ExternalName', externalName: 'example.com', selector: { app: 'ext' }, ports: [{ port: 80 }] },
    });
    await c.services('default').create({
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'ext-sentinel', namespace: 'default' }, spec: { selector: { app: 'ext' }, ports: [{ port: 80 }] },
    });
    await c.pods('default').create({ ...webPod('ext-0', 80), metadata: { name: 'ext-0', namespace: 'default', labels: { app: 'ext' } } });
    await setPodStatus(c, 'default', 'ext-0', true, '10.0.3.1');
    await eventually(() => c.endpoints('default').get('ext-sentinel'), (e) => (e.subsets?.[0]?.addresses ?? []).length === 1, 'the sentinel\'s Endpoints');
    await eventually(() => c.resource(Resources.endpointSlices, 'default').list({ labelSelector: 'kubernetes.io/service-name=ext-sentinel' }),
      (l) => (l.items[0]?.endpoints ?? []).length === 1, 'the sentinel\'s slice');
    expect(await c.endpoints('default').get('ext').then(() => 'found', (e: unknown) => (isNotFound(e) ? 'NotFound' : String(e)))).toBe('NotFound');
    expect((await c.resource(Resources.endpointSlices, 'default').list({ labelSelector: 'kubernetes.io/service-name=ext' })).items).toEqual([]);
  });

  it('stamps Endpoints and EndpointSlices with the time of the change they reflect', async () => {
    const key = 'endpoints.kubernetes.io/last-change-trigger-time';
    const svc = await c.services('default').create({
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'tt', namespace: 'default' }, spec: { selector: { app: 'tt' }, ports: [{ port: 80 }] },
    });
    const slicesOf = (): Promise<{ items: KubeObject[] }> => c.resource(Resources.endpointSlices, 'default').list({ labelSelector: 'kubernetes.io/service-name=tt' });
    // the first sync of a service: its creation
    const created = svc.metadata!.creationTimestamp;
    await eventually(() => c.endpoints('default').get('tt'), (e) => e.metadata?.annotations?.[key] === created, 'the Endpoints stamped with the service\'s creation');
    await eventually(slicesOf, (l) => l.items[0]?.metadata?.annotations?.[key] === created, 'the placeholder slice stamped with the service\'s creation');
    // then the pod's readiness
    await c.pods('default').create({ ...webPod('tt-0', 80), metadata: { name: 'tt-0', namespace: 'default', labels: { app: 'tt' } } });
    // (a time of its own, so that it cannot be mistaken for the service's creation)
    const readyAt = '2020-02-02T02:02:02Z';
    await c.pods('default').patch('tt-0', 'merge', {
      status: { phase: 'Running', podIP: '10.0.4.1', podIPs: [{ ip: '10.0.4.1' }], conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: readyAt }] },
    }, { subresource: 'status' });
    const ep = await eventually(() => c.endpoints('default').get('tt'), (e) => (e.subsets?.[0]?.addresses ?? []).length === 1, 'the pod in the Endpoints');
    expect(ep.metadata?.annotations?.[key]).toBe(readyAt);
    const slices = await eventually(slicesOf, (l) => (l.items[0]?.endpoints ?? []).length === 1, 'the pod in the slice');
    expect(slices.items[0]!.metadata?.annotations?.[key]).toBe(readyAt);
  });
});
