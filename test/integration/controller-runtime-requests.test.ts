// What controller-runtime asks of a server, request by request, with the headers and parameters its client, cache,
// leader election and event recorder send (read from kubernetes-sigs/controller-runtime pkg/client/apiutil,
// pkg/cache, pkg/leaderelection, pkg/recorder and the client-go code under them), against a custom resource:
// discovery in both forms, metadata-only lists and watches, WatchList (sendInitialEvents), server-side apply with and
// without force (spec and status), Lease leader election, core and events.k8s.io Events. Protobuf for built-in kinds
// is judged in protobuf-responses.test.ts and kubectl-protobuf.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { openWatch } from '../support/watch-stream.js';

let s: TestApiServer;
const GROUP = 'cr.example.com';
const BASE = `/apis/${GROUP}/v1/namespaces/default/things`;
const APPLY = 'application/apply-patch+yaml';
// client-go's aggregated discovery Accept (discovery_client.go, acceptDiscoveryFormats).
const DISCOVERY = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
// controller-runtime's metadata client: protobuf first, then JSON, then plain JSON (client-go metadata.ConfigFor).
const metaAccept = (as: string): string =>
  `application/vnd.kubernetes.protobuf;as=${as};g=meta.k8s.io;v=v1,application/json;as=${as};g=meta.k8s.io;v=v1,application/json`;

beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory' });
  const crd = await s.api('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `things.${GROUP}` },
    spec: {
      group: GROUP, scope: 'Namespaced', names: { plural: 'things', singular: 'thing', kind: 'Thing' },
      versions: [{
        name: 'v1', served: true, storage: true, subresources: { status: {} },
        schema: { openAPIV3Schema: { type: 'object', properties: {
          spec: { type: 'object', properties: { size: { type: 'integer' }, color: { type: 'string' } } },
          status: { type: 'object', properties: { phase: { type: 'string' } } },
        } } },
      }],
    },
  });
  expect(crd.status).toBe(201);
  const deadline = Date.now() + 20_000;
  while ((await s.api('GET', BASE)).status !== 200) {
    if (Date.now() > deadline) throw new Error('the CRD was never served');
    await new Promise((r) => setTimeout(r, 50));
  }
});
afterAll(async () => { await s?.close(); });

describe('what controller-runtime asks of a server', () => {
  it('discovery: aggregated /api and /apis (the dynamic RESTMapper) and the legacy group-version document', async () => {
    const apis = await s.api('GET', '/apis', undefined, { accept: DISCOVERY });
    expect(apis.headers['content-type']).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    const group = apis.body.items.find((g: { metadata: { name: string } }) => g.metadata.name === GROUP);
    expect(group.versions[0]).toMatchObject({ version: 'v1', resources: [{ resource: 'things', responseKind: { group: GROUP, version: 'v1', kind: 'Thing' }, scope: 'Namespaced', subresources: [{ subresource: 'status' }] }] });
    const core = await s.api('GET', '/api', undefined, { accept: DISCOVERY });
    expect(core.body.kind).toBe('APIGroupDiscoveryList');
    expect(core.body.items[0].versions[0].resources.some((r: { resource: string }) => r.resource === 'pods')).toBe(true);
    const legacy = await s.api('GET', `/apis/${GROUP}/v1`);
    expect(legacy.body).toMatchObject({ kind: 'APIResourceList', groupVersion: `${GROUP}/v1` });
    expect(legacy.body.resources.map((r: { name: string }) => r.name).sort()).toEqual(['things', 'things/status']);
  });

  it('creates and lists in JSON, and lists and watches metadata only (PartialObjectMetadata) as its metadata informers do', async () => {
    expect((await s.api('POST', BASE, { apiVersion: `${GROUP}/v1`, kind: 'Thing', metadata: { name: 'a', labels: { l: '1' } }, spec: { size: 1 } })).status).toBe(201);
    const list = await s.api('GET', `${BASE}?limit=500&resourceVersion=0`, undefined, { accept: metaAccept('PartialObjectMetadataList') });
    expect(list.headers['content-type']).toBe('application/json');
    expect(list.body).toMatchObject({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadataList', items: [{ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata: { name: 'a', labels: { l: '1' } } }] });
    expect(list.body.items[0].spec).toBeUndefined();
    const rv = list.body.metadata.resourceVersion as string;
    const w = await openWatch(`${s.url}${BASE}?allowWatchBookmarks=true&resourceVersion=${rv}&timeoutSeconds=300&watch=true`, s.agent, { accept: metaAccept('PartialObjectMetadata') });
    try {
      expect((await s.api('POST', BASE, { apiVersion: `${GROUP}/v1`, kind: 'Thing', metadata: { name: 'b' }, spec: { size: 2 } })).status).toBe(201);
      const [ev] = await w.count(1, ['ADDED']);
      expect(ev!.object).toMatchObject({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata: { name: 'b' } });
      expect(ev!.object.spec).toBeUndefined();
    } finally {
      w.close();
    }
  });

  it('syncs a cache with WatchList: sendInitialEvents, then the k8s.io/initial-events-end bookmark', async () => {
    const w = await openWatch(`${s.url}${BASE}?allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&watch=true`, s.agent, { accept: 'application/json' });
    try {
      const events = await w.until((evs) => evs.some((e) => e.type === 'BOOKMARK'), 10_000, 'the initial-events-end bookmark');
      expect(events.filter((e) => e.type === 'ADDED').map((e) => e.object.metadata.name).sort()).toEqual(['a', 'b']);
      expect(events.at(-1)!.object).toMatchObject({ kind: 'Thing', metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } } });
    } finally {
      w.close();
    }
  });

  it('server-side apply: a conflict without force names the owner, force takes the field; status applies through /status', async () => {
    const apply = (path: string, manager: string, body: unknown, force: boolean) =>
      s.api('PATCH', `${path}?fieldManager=${manager}${force ? '&force=true' : ''}`, JSON.stringify(body), { 'content-type': APPLY });
    const thing = (spec: Record<string, unknown>) => ({ apiVersion: `${GROUP}/v1`, kind: 'Thing', metadata: { name: 'c' }, spec });
    expect((await apply(`${BASE}/c`, 'first', thing({ size: 3, color: 'red' }), false)).status).toBe(201);
    const conflict = await apply(`${BASE}/c`, 'manager', thing({ size: 4 }), false);
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ reason: 'Conflict', details: { causes: [{ reason: 'FieldManagerConflict', field: '.spec.size', message: 'conflict with "first"' }] } });
    const forced = await apply(`${BASE}/c`, 'manager', thing({ size: 4 }), true);
    expect(forced.status).toBe(200);
    expect(forced.body.spec).toEqual({ size: 4, color: 'red' });
    const status = await apply(`${BASE}/c/status`, 'manager', { apiVersion: `${GROUP}/v1`, kind: 'Thing', metadata: { name: 'c' }, status: { phase: 'Ready' } }, true);
    expect(status.status).toBe(200);
    expect(status.body.status).toEqual({ phase: 'Ready' });
    expect(status.body.metadata.generation).toBe(forced.body.metadata.generation);
    const entries = status.body.metadata.managedFields as Array<{ manager: string; operation: string; subresource?: string; fieldsV1: unknown }>;
    expect(entries.find((e) => e.manager === 'manager' && e.subresource === 'status')).toMatchObject({ operation: 'Apply', fieldsV1: { 'f:status': { 'f:phase': {} } } });
    expect(entries.find((e) => e.manager === 'manager' && !e.subresource)).toMatchObject({ operation: 'Apply', fieldsV1: { 'f:spec': { 'f:size': {} } } });
    // Through /status only status applies: a spec in the configuration changes nothing.
    const ignored = await apply(`${BASE}/c/status`, 'manager', { ...thing({ size: 9 }), status: { phase: 'Done' } }, true);
    expect([ignored.body.spec.size, ignored.body.status.phase]).toEqual([4, 'Done']);
    // Apply through /status does not create (upstream: NotFound).
    expect((await apply(`${BASE}/missing/status`, 'manager', { apiVersion: `${GROUP}/v1`, kind: 'Thing', metadata: { name: 'missing' }, status: { phase: 'x' } }, true)).status).toBe(404);
  });

  it('leader election on a coordination.k8s.io/v1 Lease: get 404, create, renew by update, a stale renewal conflicts', async () => {
    const path = '/apis/coordination.k8s.io/v1/namespaces/default/leases/thing-controller';
    expect((await s.api('GET', path)).status).toBe(404);
    const now = '2026-01-01T00:00:00.000000Z';
    const created = await s.api('POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', {
      apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'thing-controller' },
      spec: { holderIdentity: 'pod-1_uuid', leaseDurationSeconds: 15, acquireTime: now, renewTime: now, leaseTransitions: 0 },
    });
    expect(created.status).toBe(201);
    const renewed = await s.api('PUT', path, { ...created.body, spec: { ...created.body.spec, renewTime: '2026-01-01T00:00:02.000000Z' } });
    expect(renewed.status).toBe(200);
    expect(renewed.body.spec.renewTime).toBe('2026-01-01T00:00:02.000000Z');
    expect((await s.api('PUT', path, { ...created.body, spec: { ...created.body.spec, holderIdentity: 'pod-2_uuid' } })).body).toMatchObject({ code: 409, reason: 'Conflict' });
  });

  it('records Events: core/v1 (create, then a strategic-merge count patch) and events.k8s.io/v1 (create, then a series patch)', async () => {
    const thing = (await s.api('GET', `${BASE}/a`)).body;
    const regarding = { apiVersion: `${GROUP}/v1`, kind: 'Thing', namespace: 'default', name: 'a', uid: thing.metadata.uid, resourceVersion: thing.metadata.resourceVersion };
    const t = '2026-01-01T00:00:00Z';
    const core = await s.api('POST', '/api/v1/namespaces/default/events', {
      apiVersion: 'v1', kind: 'Event', metadata: { name: 'a.1', namespace: 'default' }, involvedObject: regarding,
      reason: 'Reconciled', message: 'ok', type: 'Normal', source: { component: 'thing-controller' }, firstTimestamp: t, lastTimestamp: t, count: 1,
    });
    expect(core.status).toBe(201);
    const counted = await s.api('PATCH', '/api/v1/namespaces/default/events/a.1', JSON.stringify({ count: 2, lastTimestamp: '2026-01-01T00:00:05Z', message: 'ok' }), { 'content-type': 'application/strategic-merge-patch+json' });
    expect(counted.body).toMatchObject({ count: 2, lastTimestamp: '2026-01-01T00:00:05Z' });
    const ev = await s.api('POST', '/apis/events.k8s.io/v1/namespaces/default/events', {
      apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'a.2', namespace: 'default' }, regarding,
      eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'example.com/thing-controller', reportingInstance: 'pod-1',
      action: 'Reconcile', reason: 'Reconciled', note: 'ok', type: 'Normal',
    });
    expect(ev.status).toBe(201);
    const series = await s.api('PATCH', '/apis/events.k8s.io/v1/namespaces/default/events/a.2', JSON.stringify({ series: { count: 2, lastObservedTime: '2026-01-01T00:00:06.000000Z' } }), { 'content-type': 'application/merge-patch+json' });
    expect(series.body.series).toEqual({ count: 2, lastObservedTime: '2026-01-01T00:00:06.000000Z' });
  });
});
