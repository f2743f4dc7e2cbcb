// The core/v1 `bindings` resource (POST /api/v1/namespaces/{ns}/bindings, the Python client's
// create_namespaced_binding): upstream's LegacyBindingREST, which binds the pod its body names as pods/binding does
// and stores nothing. Admission sees a CREATE of `bindings` (no subresource) named by the body; the body's uid is wiped
// by the create handler (no subresource keeps it), so it is no precondition there.
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLevelStore } from '../../pkg/storage/leveldb/store.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
const NS = '/api/v1/namespaces/default';

beforeAll(async () => {
  // a Binding an older mini-kube stored under the same data dir
  const dataDir = await mkdtemp(join(tmpdir(), 'mini-kube-bindings-'));
  await mkdir(join(dataDir, 'store'), { recursive: true });
  const old = await openLevelStore(join(dataDir, 'store'));
  await old.create('/registry/bindings/default/stale', {
    apiVersion: 'v1', kind: 'Binding', metadata: { name: 'stale', namespace: 'default', uid: 'old-uid' }, target: { kind: 'Node', name: 'n0' },
  });
  await old.close();
  s = await startTestApiServer({ dataDir, authorizationModes: ['AlwaysAllow'] });
  for (const name of ['fresh', 'stale', 'gated', 'denied']) {
    const spec = { containers: [{ name: 'c', image: 'busybox' }], ...(name === 'gated' && { schedulingGates: [{ name: 'wait' }] }) };
    expect((await s.api('POST', `${NS}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec })).status).toBe(201);
  }
}, 60_000);
afterAll(async () => { await s?.close(); });

const binding = (name: string | undefined, node: string, meta: Record<string, unknown> = {}) =>
  ({ apiVersion: 'v1', kind: 'Binding', metadata: { ...(name !== undefined && { name }), ...meta }, target: { kind: 'Node', name: node } });
const nodeOf = async (name: string): Promise<string | undefined> => (await s.api('GET', `${NS}/pods/${name}`)).body.spec.nodeName;

describe('POST bindings', () => {
  it('binds the pod the body names and answers Success 201, storing nothing; a second is a Conflict on pods/binding', async () => {
    const res = await s.api('POST', `${NS}/bindings`, binding('fresh', 'n1', { annotations: { note: 'x' } }));
    expect([res.status, res.body]).toEqual([201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }]);
    const pod = (await s.api('GET', `${NS}/pods/fresh`)).body;
    expect(pod.spec.nodeName).toBe('n1');
    expect(pod.metadata.annotations).toEqual({ note: 'x' });
    expect(pod.status.conditions).toContainEqual(expect.objectContaining({ type: 'PodScheduled', status: 'True' }));
    const again = await s.api('POST', `${NS}/bindings`, binding('fresh', 'n2'));
    expect([again.status, again.body.reason, again.body.message]).toEqual([409, 'Conflict', 'Operation cannot be fulfilled on pods/binding "fresh": pod fresh is already assigned to node "n1"']);
    expect(again.body.details).toEqual({ name: 'fresh', kind: 'pods/binding' });
    expect(await nodeOf('fresh')).toBe('n1');
  });

  it('a Binding stored by an older version is no obstacle: its pod is bound', async () => {
    expect((await s.api('POST', `${NS}/bindings`, binding('stale', 'n1', { uid: 'not-its-uid' }))).status).toBe(201);
    expect(await nodeOf('stale')).toBe('n1');
  });

  it('refuses as pods/binding does: a missing pod, a gated one, a stale resourceVersion; an unnamed body names no pod', async () => {
    const missing = await s.api('POST', `${NS}/bindings`, binding('nope', 'n1'));
    expect([missing.status, missing.body.message]).toEqual([404, 'pods "nope" not found']);
    const gated = await s.api('POST', `${NS}/bindings`, binding('gated', 'n1'));
    expect([gated.status, gated.body.message]).toEqual([409, 'Operation cannot be fulfilled on pods/binding "gated": pod gated has non-empty .spec.schedulingGates']);
    const stale = await s.api('POST', `${NS}/bindings`, binding('denied', 'n1', { resourceVersion: '1' }));
    expect([stale.status, stale.body.message]).toMatchObject([409, expect.stringContaining('Operation cannot be fulfilled on pods "denied": Precondition failed: ResourceVersion in precondition: 1')]);
    const unnamed = await s.api('POST', `${NS}/bindings`, binding(undefined, 'n1'));
    expect([unnamed.status, unnamed.body.reason, unnamed.body.message]).toEqual([400, 'BadRequest', 'Name parameter required.']);
    const elsewhere = await s.api('POST', `${NS}/bindings`, binding('denied', 'n1', { namespace: 'other' }));
    expect([elsewhere.status, elsewhere.body.message]).toEqual([400, 'the namespace of the provided object does not match the namespace sent on the request']);
    // ValidatePodBinding's errors are no API status upstream (a 500): here a 400, with the aggregate as its message
    const noTarget = await s.api('POST', `${NS}/bindings`, { ...binding('denied', ''), target: { kind: 'Pod' } });
    expect([noTarget.status, noTarget.body.reason, noTarget.body.message])
      .toEqual([400, 'BadRequest', '[target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>", target.name: Required value]']);
    expect(await nodeOf('denied')).toBeUndefined();
  });

  it('is admitted as a CREATE of bindings named by the body, with the Binding as its object', async () => {
    const AR = '/apis/admissionregistration.k8s.io/v1';
    expect((await s.api('POST', `${AR}/validatingadmissionpolicies`, {
      apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'bindings' },
      spec: {
        matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['bindings'] }] },
        validations: [
          { expression: 'request.resource.resource == "bindings" && !has(request.subResource) && request.kind.kind == "Binding"', message: 'attributes' },
          { expression: 'request.name == object.metadata.name && !has(object.metadata.uid)', message: 'name and wiped uid' },
          { expression: 'object.target.name != "node-x"', message: 'not on node-x' },
        ],
      },
    })).status).toBe(201);
    expect((await s.api('POST', `${AR}/validatingadmissionpolicybindings`, {
      apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'bindings' },
      spec: { policyName: 'bindings', validationActions: ['Deny'] },
    })).status).toBe(201);
    // the policy takes effect once its informer has it: poll with a deadline
    const deadline = Date.now() + 10_000;
    let refused = await s.api('POST', `${NS}/bindings?dryRun=All`, binding('denied', 'node-x', { uid: 'some-uid' }));
    while (refused.status !== 422 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      refused = await s.api('POST', `${NS}/bindings?dryRun=All`, binding('denied', 'node-x', { uid: 'some-uid' }));
    }
    expect([refused.status, refused.body.message]).toEqual([422, 'bindings "denied" is forbidden: ValidatingAdmissionPolicy \'bindings\' with binding \'bindings\' denied request: not on node-x']);
    expect((await s.api('POST', `${NS}/bindings`, binding('denied', 'node-y', { uid: 'some-uid' }))).status).toBe(201);
    expect(await nodeOf('denied')).toBe('node-y');
  });

  it('serves create only: other verbs of the collection are 405, its objects have no route', async () => {
    for (const method of ['GET', 'DELETE']) {
      const r = await s.api(method, `${NS}/bindings`);
      expect([r.status, r.body.reason]).toEqual([405, 'MethodNotAllowed']);
    }
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const r = await s.api(method, `${NS}/bindings/stale`, method === 'PUT' ? binding('stale', 'n1') : undefined);
      expect([r.status, r.body.reason]).toEqual([404, 'NotFound']);
    }
    // nothing to watch: upstream has no /watch/ route for it
    const watched = await s.api('GET', NS.replace('/api/v1/', '/api/v1/watch/') + '/bindings');
    expect([watched.status, watched.body.reason]).toEqual([404, 'NotFound']);
    const discovery = (await s.api('GET', '/api/v1')).body.resources.find((r: { name: string }) => r.name === 'bindings');
    expect(discovery).toEqual({ name: 'bindings', singularName: 'binding', namespaced: true, kind: 'Binding', verbs: ['create'] });
  });
});
