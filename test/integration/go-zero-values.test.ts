// What clients read back is what Go's encoding of upstream's types writes, whatever the writer left out: `{}` for
// struct fields, null for zero times and nil pointers, lists and maps without omitempty, zeros of scalars without
// omitempty, 0 and "0" for an IntOrString and a Quantity (api/go-zero-values.ts).
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

/** The fields of managedFields' entries, one JSON text per entry. */
const ownedFields = (obj: { metadata: { managedFields?: { fieldsV1?: unknown }[] } }): string[] =>
  (obj.metadata.managedFields ?? []).map((e) => JSON.stringify(e.fieldsV1 ?? {}));

it('a Role created without rules reads back `rules: null` and its writer does not own them; rules set later replace the null', async () => {
  const created = await s.api('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'norules', labels: { a: 'b' } },
  });
  expect(created.status).toBe(201);
  expect(created.body.rules).toBeNull();
  const json = JSON.parse((await s.kubectl('get', 'role', 'norules', '-o', 'json')).stdout);
  expect(json.rules).toBeNull();
  expect(ownedFields(created.body)).toEqual(['{"f:metadata":{"f:labels":{".":{},"f:a":{}}}}']);
  // the stored null is absent to a patch, an apply and a protobuf read
  const rule = { apiGroups: [''], resources: ['pods'], verbs: ['get'] };
  const patched = await s.api('PATCH', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/norules', { rules: [rule] },
    { 'content-type': 'application/strategic-merge-patch+json' });
  expect(patched.body.rules).toEqual([rule]);
  expect(ownedFields(patched.body)).toEqual(['{"f:metadata":{"f:labels":{".":{},"f:a":{}}},"f:rules":{}}']);
  const applied = await s.api('PATCH', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/applied?fieldManager=m', {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'applied' },
  }, { 'content-type': 'application/apply-patch+yaml' });
  expect(applied.status).toBe(201);
  expect(applied.body.rules).toBeNull();
  const again = await s.api('PATCH', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/applied?fieldManager=m', {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'applied' }, rules: [rule],
  }, { 'content-type': 'application/apply-patch+yaml' });
  expect(again.body.rules).toEqual([rule]);
  // kubectl describe reads protobuf, where a null list is no field
  const described = await s.kubectl('describe', 'role', 'applied');
  expect(described.code).toBe(0);
  expect(described.stdout).toMatch(/PolicyRule:\n/);
});

it('an autoscaling/v2 HPA\'s status has `currentMetrics: null` until metrics are written, owned by no one at create', async () => {
  const hpa = await s.api('POST', '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers', {
    apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, minReplicas: 1, maxReplicas: 3 },
  });
  expect(hpa.status).toBe(201);
  expect(hpa.body.status).toEqual({ desiredReplicas: 0, currentMetrics: null });
  expect(ownedFields(hpa.body).join()).not.toContain('f:status');
  const status = await s.api('PUT', '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/h/status', {
    ...hpa.body, status: { currentReplicas: 1, desiredReplicas: 1 },
  });
  expect(status.body.status).toEqual({ currentReplicas: 1, desiredReplicas: 1, currentMetrics: null });
  const json = JSON.parse((await s.kubectl('get', 'hpa.v2.autoscaling', 'h', '-o', 'json')).stdout);
  expect(json.status).toEqual({ currentReplicas: 1, desiredReplicas: 1, currentMetrics: null });
});

it('a downward-API resourceFieldRef without divisor reads back `divisor: "0"`; a probe\'s port given is its writer\'s as before', async () => {
  // a namespace of its own: default has a quota by now
  expect((await s.kubectl('create', 'namespace', 'zeros')).code).toBe(0);
  const pod = await s.api('POST', '/api/v1/namespaces/zeros/pods', {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'divisor' },
    spec: {
      containers: [{
        name: 'c', image: 'busybox', readinessProbe: { httpGet: { port: 8080 } },
        env: [{ name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } }],
      }],
    },
  });
  expect(pod.body.message).toBeUndefined();
  const json = JSON.parse((await s.kubectl('get', '-n', 'zeros', 'pod', 'divisor', '-o', 'json')).stdout);
  const c = json.spec.containers[0];
  expect(c.env[0].valueFrom.resourceFieldRef).toEqual({ resource: 'limits.cpu', divisor: '0' });
  expect(c.readinessProbe.httpGet).toEqual({ path: '/', port: 8080, scheme: 'HTTP' });
  const fields = JSON.parse(ownedFields(pod.body)[0]!);
  const container = fields['f:spec']['f:containers']['k:{"name":"c"}'];
  // an atomic struct (+structType=atomic): owned whole
  expect(container['f:env']['k:{"name":"CPU"}']['f:valueFrom']).toEqual({ '.': {}, 'f:resourceFieldRef': {} });
  expect(container['f:readinessProbe']['f:httpGet']).toEqual({ '.': {}, 'f:path': {}, 'f:port': {}, 'f:scheme': {} });
  // a missing port is Go's zero IntOrString: upstream's validation finds 0 out of range
  const bad = await s.api('POST', '/api/v1/namespaces/zeros/pods', {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'noport' },
    spec: { containers: [{ name: 'c', image: 'busybox', readinessProbe: { httpGet: { path: '/' } } }] },
  });
  expect(bad.status).toBe(422);
  expect(bad.body.message).toBe('Pod "noport" is invalid: spec.containers[0].readinessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive');
});

it('an EndpointSlice written with no endpoints and no ports reads them back as null, as upstream\'s placeholder slice', async () => {
  const slice = await s.api('POST', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', {
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'empty' }, addressType: 'IPv4', endpoints: [], ports: [],
  });
  expect(slice.status).toBe(201);
  expect(slice.body).toMatchObject({ endpoints: null, ports: null });
  expect((await s.kubectl('get', 'endpointslice', 'empty')).stdout).toMatch(/\nempty\s+IPv4\s+<unset>\s+<unset>\s+\S+\n$/);
});
