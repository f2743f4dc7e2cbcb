// events.k8s.io/v1 and core/v1 Events are one object seen two ways, as upstream serves them: what a controller writes
// through events.k8s.io (client-go's new recorder, the scheduler) shows in `kubectl get events` and `kubectl describe`,
// and each version is validated as upstream validates it.
import { CoreV1Api, EventsV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { cleanStdout } from '../support/kubectl-run.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer();
});
afterAll(() => s.close());

const now = (): string => new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
const newEvent = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name, namespace: 'default' },
  eventTime: now(), reportingController: 'example.com/controller', reportingInstance: 'controller-0',
  action: 'Binding', reason: 'Scheduled', type: 'Normal', note: 'Successfully assigned default/web to node-1',
  regarding: { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'web' },
  ...extra,
});

it('an events.k8s.io/v1 Event is a core Event: kubectl get events, describe, and client-node see it', async () => {
  await cleanStdout(s.kubectl('run', 'web', '--image=nginx'));
  const pod = (await s.api('GET', '/api/v1/namespaces/default/pods/web')).body;
  const kc = new KubeConfig();
  kc.loadFromFile(s.kubeconfig);
  const created = await kc.makeApiClient(EventsV1Api).createNamespacedEvent({
    namespace: 'default',
    body: newEvent('web.1', { regarding: { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'web', uid: pod.metadata.uid } }) as any,
  });
  expect(created.note).toBe('Successfully assigned default/web to node-1');

  const core = (await kc.makeApiClient(CoreV1Api).readNamespacedEvent({ namespace: 'default', name: 'web.1' }));
  expect(core).toMatchObject({
    message: 'Successfully assigned default/web to node-1', reportingComponent: 'example.com/controller', reportingInstance: 'controller-0',
    involvedObject: { kind: 'Pod', name: 'web', uid: pod.metadata.uid }, metadata: { resourceVersion: created.metadata?.resourceVersion },
  });
  const table = await cleanStdout(s.kubectl('get', 'events', '--field-selector', 'involvedObject.name=web'));
  expect(table).toMatch(/Normal +Scheduled +pod\/web +Successfully assigned default\/web to node-1/);
  expect(await cleanStdout(s.kubectl('describe', 'pod', 'web'))).toMatch(/Normal +Scheduled +\S+ +example.com\/controller +Successfully assigned/);
});

it('a core Event reads back through events.k8s.io/v1 with the deprecated fields, and a watch of either sees the other', async () => {
  const watch = s.api('GET', '/apis/events.k8s.io/v1/namespaces/default/events?watch=1&timeoutSeconds=2&fieldSelector=metadata.name%3Dold.1');
  const core = {
    apiVersion: 'v1', kind: 'Event', metadata: { name: 'old.1', namespace: 'default' }, reason: 'Pulled', message: 'pulled nginx',
    involvedObject: { kind: 'Pod', namespace: 'default', name: 'web' }, source: { component: 'kubelet', host: 'node-1' },
    firstTimestamp: '2026-01-01T00:00:00Z', lastTimestamp: '2026-01-01T00:01:00Z', count: 3, type: 'Normal',
  };
  expect((await s.api('POST', '/api/v1/namespaces/default/events', core)).status).toBe(201);
  const seen = JSON.parse(await cleanStdout(s.kubectl('get', 'events.v1.events.k8s.io', 'old.1', '-o', 'json')));
  expect(seen).toMatchObject({
    apiVersion: 'events.k8s.io/v1', note: 'pulled nginx', regarding: { kind: 'Pod', name: 'web' }, deprecatedCount: 3,
    deprecatedSource: { component: 'kubelet', host: 'node-1' }, deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
  });
  expect(seen.message).toBeUndefined();
  const raw = (await watch).body;
  const events = typeof raw === 'string' ? raw.trim().split('\n').map((l) => JSON.parse(l)) : [raw];
  expect(events[0]).toMatchObject({ type: 'ADDED', object: { apiVersion: 'events.k8s.io/v1', note: 'pulled nginx' } });
  expect(await cleanStdout(s.kubectl('get', 'events.events.k8s.io', '-o', 'name'))).toContain('event.events.k8s.io/old.1');
});

it('events.k8s.io/v1 selects Events by its own field names (regarding.*, reportingController), as upstream converts them', async () => {
  const names = async (selector: string): Promise<string[]> =>
    (await s.api('GET', `/apis/events.k8s.io/v1/namespaces/default/events?fieldSelector=${encodeURIComponent(selector)}`)).body.items.map((e: { metadata: { name: string } }) => e.metadata.name).sort();
  expect(await names('regarding.name=web,regarding.kind=Pod')).toEqual(['old.1', 'web.1']);
  expect(await names('reportingController=example.com/controller')).toEqual(['web.1']);
  expect(await names('source=kubelet,reason=Pulled,type=Normal')).toEqual(['old.1']);
  const core = await s.api('GET', '/apis/events.k8s.io/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dweb');
  expect(core.status).toBe(400);
  expect(core.body.message).toBe('field label not supported: involvedObject.name');
  const watched = await cleanStdout(s.kubectl('get', 'events.events.k8s.io', '--field-selector', 'regarding.name=web,reason=Pulled', '-w', '--request-timeout=2s', '-o', 'name'));
  expect(watched.trim().split('\n')).toEqual(['event.events.k8s.io/old.1']);
});

it('validates events.k8s.io/v1 writes strictly and core writes as legacy clients expect', async () => {
  const bad = await s.api('POST', '/apis/events.k8s.io/v1/namespaces/default/events',
    newEvent('bad.1', { eventTime: undefined, type: 'Odd', deprecatedCount: 2 }));
  expect(bad.status).toBe(422);
  expect(bad.body.message).toBe('Event.events.k8s.io "bad.1" is invalid: '
    + '[eventTime: Required value, type: Invalid value: "": has invalid value: Odd, count: Invalid value: "": needs to be unset]');
  // A new-style event names who reports it and what was done.
  const anonymous = await s.api('POST', '/apis/events.k8s.io/v1/namespaces/default/events', newEvent('bad.2', { reportingController: '', action: 'x'.repeat(129) }));
  expect(anonymous.status).toBe(422);
  expect(anonymous.body.message).toContain('reportingController: Required value');
  expect(anonymous.body.message).toContain('action: Invalid value: "": can have at most 128 characters');

  expect((await s.api('POST', '/apis/events.k8s.io/v1/namespaces/default/events', newEvent('imm.1'))).status).toBe(201);
  const changed = await s.api('PATCH', '/apis/events.k8s.io/v1/namespaces/default/events/imm.1', { note: 'rewritten' }, { 'content-type': 'application/merge-patch+json' });
  expect(changed.status).toBe(422);
  expect(changed.body.message).toContain('message: Invalid value: "rewritten": field is immutable');
  const series = await s.api('PATCH', '/apis/events.k8s.io/v1/namespaces/default/events/imm.1',
    { series: { count: 2, lastObservedTime: now() } }, { 'content-type': 'application/merge-patch+json' });
  expect(series.status).toBe(200);
  // A legacy event read through events.k8s.io/v1 (no eventTime, the deprecated fields set) is updated as read: the
  // strict create checks do not apply to an update (upstream's ValidateEventUpdate), only immutability.
  const legacy = (await s.api('GET', '/apis/events.k8s.io/v1/namespaces/default/events/old.1')).body;
  const relabelled = await s.api('PUT', '/apis/events.k8s.io/v1/namespaces/default/events/old.1', { ...legacy, metadata: { ...legacy.metadata, labels: { seen: 'yes' } } });
  expect([relabelled.status, relabelled.body.metadata?.labels]).toEqual([200, { seen: 'yes' }]);
  // The same change through core/v1 is a legacy client's, and allowed.
  const viaCore = await s.api('PATCH', '/api/v1/namespaces/default/events/imm.1', { message: 'rewritten' }, { 'content-type': 'application/merge-patch+json' });
  expect(viaCore.status).toBe(200);

  const elsewhere = await s.api('POST', '/api/v1/namespaces/default/events', {
    apiVersion: 'v1', kind: 'Event', metadata: { name: 'x.1' }, involvedObject: { kind: 'Pod', namespace: 'other', name: 'p' },
  });
  expect(elsewhere.status).toBe(422);
  expect(elsewhere.body.message).toContain('involvedObject.namespace: Invalid value: "other": does not match event.namespace');
});
