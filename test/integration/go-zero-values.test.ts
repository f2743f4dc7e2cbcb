// What clients read back is what Go's encoding of upstream's types writes, whatever the writer left out: `{}` for
// struct fields, null for zero times, zeros of scalars without omitempty (api/go-zero-values.ts).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => { s = await startTestApiServer({ storageBackend: 'memory' }); });
afterAll(async () => { await s?.close(); });

const template = { metadata: { labels: { app: 'z' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };

it('a new workload has its zero status and a template creationTimestamp of null, in JSON and in kubectl\'s YAML', async () => {
  const rs = await s.api('POST', '/apis/apps/v1/namespaces/default/replicasets', {
    apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'z' }, spec: { selector: { matchLabels: { app: 'z' } }, template },
  });
  expect(rs.status).toBe(201);
  expect(rs.body.status).toEqual({ replicas: 0 });
  expect(rs.body.spec.template.metadata).toEqual({ labels: { app: 'z' }, creationTimestamp: null });
  expect(rs.body.spec.template.spec.containers[0].resources).toEqual({});
  const yaml = (await s.kubectl('get', 'rs', 'z', '-o', 'yaml')).stdout;
  expect(yaml).toContain('      creationTimestamp: null\n');
  expect(yaml).toMatch(/\nstatus:\n {2}replicas: 0\n/);
  const job = await s.api('POST', '/apis/batch/v1/namespaces/default/jobs', {
    apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'z' }, spec: { template: { ...template, spec: { ...template.spec, restartPolicy: 'Never' } } },
  });
  expect(job.body.status).toEqual({});
});

it('a pod status written without the zero fields is served with them, and the next identical write changes nothing', async () => {
  await s.api('POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'z' }, spec: template.spec });
  const status = {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }],
    containerStatuses: [{ name: 'c', image: 'busybox', imageID: '', ready: true, state: { running: { startedAt: '2026-01-01T00:00:00Z' } } }],
  };
  const patched = await s.api('PATCH', '/api/v1/namespaces/default/pods/z/status', { status }, { 'content-type': 'application/merge-patch+json' });
  expect(patched.status).toBe(200);
  expect(patched.body.status.conditions).toEqual([{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:00Z' }]);
  expect(patched.body.status.containerStatuses[0]).toEqual({ ...status.containerStatuses[0], lastState: {}, restartCount: 0 });
  const again = await s.api('PATCH', '/api/v1/namespaces/default/pods/z/status', { status }, { 'content-type': 'application/merge-patch+json' });
  expect(again.body.metadata.resourceVersion).toBe(patched.body.metadata.resourceVersion);
});

it('a core Event has its null eventTime and empty reporting fields; its events.k8s.io/v1 view leaves those out', async () => {
  const ev = await s.api('POST', '/api/v1/namespaces/default/events', {
    apiVersion: 'v1', kind: 'Event', metadata: { name: 'z.1' }, involvedObject: { kind: 'Pod', namespace: 'default', name: 'z' },
    reason: 'Pulled', message: 'pulled', type: 'Normal', firstTimestamp: '2026-01-01T00:00:00Z', lastTimestamp: '2026-01-01T00:00:00Z', count: 1,
  });
  expect(ev.status).toBe(201);
  expect(ev.body).toMatchObject({ eventTime: null, reportingComponent: '', reportingInstance: '', source: {} });
  const view = (await s.api('GET', '/apis/events.k8s.io/v1/namespaces/default/events/z.1')).body;
  expect(view).toMatchObject({ eventTime: null, deprecatedSource: {}, deprecatedCount: 1 });
  expect(view).not.toHaveProperty('reportingController');
  expect(view).not.toHaveProperty('reportingInstance');
});

it('a template without spec is defaulted as Go\'s struct is (only its containers are missing); an empty owner reference is reported as upstream does', async () => {
  const d = await s.api('POST', '/apis/apps/v1/namespaces/default/deployments', {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nospec' }, spec: { selector: { matchLabels: { app: 'z' } }, template: { metadata: template.metadata } },
  });
  expect(d.status).toBe(422);
  expect(d.body.message).toBe('Deployment.apps "nospec" is invalid: spec.template.spec.containers: Required value');
  const cm = await s.api('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owned', ownerReferences: [{}] } });
  expect(cm.status).toBe(422);
  expect(cm.body.details.causes.map((c: { field: string }) => c.field)).toEqual(['metadata.ownerReferences.apiVersion', 'metadata.ownerReferences.kind', 'metadata.ownerReferences.name', 'metadata.ownerReferences.uid']);
});

it('quantities and times read back as Go writes them: canonical quantities, Time in UTC to the second, MicroTime with six decimals', async () => {
  const rq = await s.api('POST', '/api/v1/namespaces/default/resourcequotas', {
    apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'canon' }, spec: { hard: { cpu: '1000m', memory: '1024Mi', pods: '010', 'requests.storage': '1.5Gi', 'count/x': 2 } },
  });
  expect(rq.body.spec.hard).toEqual({ cpu: '1', memory: '1Gi', pods: '10', 'requests.storage': '1536Mi', 'count/x': '2' });
  const lease = await s.api('POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', {
    apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'canon' },
    spec: { renewTime: '2026-11-30T12:00:00,000001Z', acquireTime: '2026-11-30T13:00:00.123456+02:00' },
  });
  expect(lease.body.spec).toEqual({ renewTime: '2026-11-30T12:00:00.000001Z', acquireTime: '2026-11-30T11:00:00.123456Z' });
  const ev = await s.api('POST', '/api/v1/namespaces/default/events', {
    apiVersion: 'v1', kind: 'Event', metadata: { name: 'canon.1' }, involvedObject: { kind: 'Pod', name: 'z', namespace: 'default' },
    reason: 'R', message: 'm', firstTimestamp: '2026-11-30T13:00:00.123+02:00', lastTimestamp: '2026-11-30T11:00:00Z',
  });
  expect(ev.body).toMatchObject({ firstTimestamp: '2026-11-30T11:00:00Z', lastTimestamp: '2026-11-30T11:00:00Z' });
  // a merge patch shares the stored parts it leaves alone; what it changes is canonical too
  const patched = await s.api('PATCH', '/api/v1/namespaces/default/resourcequotas/canon', { spec: { hard: { cpu: '2000m' } } }, { 'content-type': 'application/merge-patch+json' });
  expect(patched.body.spec.hard).toMatchObject({ cpu: '2', memory: '1Gi' });
});
