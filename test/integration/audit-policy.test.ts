// --audit-policy-file with the real kubectl: levels per rule (None records nothing, Request adds the request body,
// RequestResponse the response too, without managedFields when asked), stages (RequestReceived unless omitted,
// ResponseStarted for a watch), failures with their Status, impersonation, the authorization annotations and admission's (ValidatingAdmissionPolicy), and
// requests that fail authentication (one ResponseStarted event with the 401 and no user).
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
let auditLog = '';

const POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: RequestResponse
  resources: [{group: "", resources: [configmaps]}]
  namespaces: [audited]
  verbs: [create]
  omitStages: [RequestReceived]
  omitManagedFields: true
- level: Metadata
  verbs: [watch]
  namespaces: [audited]
- level: Request
  resources: [{group: "", resources: [secrets]}]
  omitStages: [RequestReceived]
- level: Metadata
  resources: [{group: apps, resources: [deployments/scale]}]
  omitStages: [RequestReceived]
- level: Metadata
  nonResourceURLs: ["/readyz*"]
  omitStages: [RequestReceived]
- level: Metadata
  nonResourceURLs: ["/livez*"]
  omitStages: [ResponseStarted]
- level: None
`;

const events = async (): Promise<any[]> => (await readFile(auditLog, 'utf8')).trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));

beforeAll(async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'mini-kube-audit-'));
  auditLog = join(dataDir, 'audit.log');
  const auditPolicyFile = join(dataDir, 'policy.yaml');
  await writeFile(auditPolicyFile, POLICY);
  s = await startTestApiServer({ dataDir, auditLogPath: auditLog, auditPolicyFile });
  expect((await s.kubectl('create', 'namespace', 'audited')).code).toBe(0);
}, 60_000);

afterAll(async () => {
  await s?.close();
});

describe('audit policy', () => {
  it('records a create at RequestResponse with both bodies, without managedFields, and only the stages asked for', async () => {
    expect((await s.kubectl('create', 'configmap', 'cm', '-n', 'audited', '--from-literal=k=v')).code).toBe(0);
    const mine = (await events()).filter((e) => e.objectRef?.resource === 'configmaps' && e.objectRef?.namespace === 'audited');
    expect(mine.map((e) => e.stage)).toEqual(['ResponseComplete']);
    const [e] = mine;
    expect(e).toMatchObject({
      kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'RequestResponse', verb: 'create',
      requestURI: expect.stringMatching(/^\/api\/v1\/namespaces\/audited\/configmaps/),
      user: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] },
      sourceIPs: ['127.0.0.1'], userAgent: expect.stringContaining('kubectl'),
      objectRef: { resource: 'configmaps', namespace: 'audited', name: 'cm', apiVersion: 'v1' },
      responseStatus: { metadata: {}, code: 201 },
      requestObject: { kind: 'ConfigMap', data: { k: 'v' } },
      responseObject: { kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'audited' }, data: { k: 'v' } },
      annotations: { 'authorization.k8s.io/decision': 'allow' },
    });
    expect(e.responseObject.metadata.managedFields).toBeUndefined();
    expect(e.auditID).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(e.stageTimestamp)).toBeGreaterThanOrEqual(Date.parse(e.requestReceivedTimestamp));
    // What no rule but the last matches (level None) leaves no trace.
    expect((await s.kubectl('get', 'configmap', 'cm', '-n', 'audited')).code).toBe(0);
    expect((await events()).filter((e) => e.verb === 'get' && e.objectRef?.resource === 'configmaps')).toEqual([]);
  });

  it('records a watch in three stages: RequestReceived, ResponseStarted and ResponseComplete', async () => {
    const r = await s.api('GET', '/api/v1/namespaces/audited/configmaps?watch=1&timeoutSeconds=1');
    expect(r.status).toBe(200);
    let watch: any[] = [];
    const deadline = Date.now() + 5_000;
    while (watch.length < 3 && Date.now() < deadline) {
      watch = (await events()).filter((e) => e.verb === 'watch');
      if (watch.length < 3) await new Promise((done) => setTimeout(done, 50));
    }
    expect(watch.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
    expect(new Set(watch.map((e) => e.auditID)).size).toBe(1);
    expect(watch[0].responseStatus).toBeUndefined();
    expect(watch[1].responseStatus).toEqual({ metadata: {}, code: 200 });
    expect(watch[0].annotations).toBeUndefined();
    expect(watch[2].annotations).toEqual({ 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' });
  });

  it('records the request body at Request but not the response', async () => {
    expect((await s.kubectl('create', 'secret', 'generic', 'sec', '-n', 'audited', '--from-literal=p=hush')).code).toBe(0);
    const e = (await events()).find((x) => x.verb === 'create' && x.objectRef?.resource === 'secrets');
    expect(e).toMatchObject({ level: 'Request', stage: 'ResponseComplete', requestObject: { kind: 'Secret', data: { p: Buffer.from('hush').toString('base64') } } });
    expect(e.responseObject).toBeUndefined();
  });

  it('records who was impersonated, and a refusal with its Status and the authorization decision', async () => {
    const r = await s.kubectl('--as=jane', 'get', 'secrets', '-n', 'audited');
    expect(r.code).not.toBe(0);
    const e = (await events()).find((x) => x.verb === 'list' && x.objectRef?.resource === 'secrets');
    expect(e).toMatchObject({
      user: { username: 'kubernetes-admin' }, impersonatedUser: { username: 'jane', groups: ['system:authenticated'] },
      responseStatus: { status: 'Failure', reason: 'Forbidden', code: 403, message: expect.stringContaining('User "jane" cannot list resource "secrets"') },
      annotations: { 'authorization.k8s.io/decision': 'forbid' },
    });
  });

  it('matches a subresource only where it is listed, and non-resource URLs by prefix', async () => {
    expect((await s.kubectl('create', 'deployment', 'web', '-n', 'audited', '--image=nginx')).code).toBe(0);
    expect((await s.kubectl('scale', 'deployment', 'web', '-n', 'audited', '--replicas=2')).code).toBe(0);
    expect((await s.kubectl('get', '--raw', '/readyz')).code).toBe(0);
    const all = await events();
    expect(all.filter((e) => e.objectRef?.resource === 'deployments').map((e) => [e.verb, e.objectRef.subresource])).toEqual([['patch', 'scale']]);
    expect(all.find((e) => e.requestURI === '/readyz')).toMatchObject({ level: 'Metadata', verb: 'get', responseStatus: { code: 200 } });
    expect(all.some((e) => e.requestURI.startsWith('/openapi') || e.requestURI.startsWith('/api?') || e.requestURI === '/api')).toBe(false);
  });

  it('records what admission annotates: a ValidatingAdmissionPolicy\'s auditAnnotations and its Audit failures', async () => {
    const AR = 'admissionregistration.k8s.io/v1';
    const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];
    const policy = { apiVersion: AR, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'audit-size' }, spec: {
      matchConstraints: { resourceRules: rules, namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'audited' } } },
      validations: [{ expression: 'size(object.data) <= 1', message: 'at most one key' }],
      auditAnnotations: [{ key: 'keys', valueExpression: 'string(size(object.data)) + " keys"' }],
    } };
    const binding = { apiVersion: AR, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'audit-size' }, spec: { policyName: 'audit-size', validationActions: ['Audit'] } };
    for (const o of [policy, binding]) expect((await s.kubectlWithInput(JSON.stringify(o), 'create', '-f', '-')).code).toBe(0);
    // the policy reaches admission through its informer: create until its annotation shows
    let e: any;
    for (let i = 0, deadline = Date.now() + 10_000; !e && Date.now() < deadline; i++) {
      expect((await s.kubectl('create', 'configmap', `two-${i}`, '-n', 'audited', '--from-literal=a=1', '--from-literal=b=2')).code).toBe(0);
      e = (await events()).find((x) => x.objectRef?.name === `two-${i}` && x.annotations?.['audit-size/keys']);
    }
    expect(e.annotations).toMatchObject({ 'authorization.k8s.io/decision': 'allow', 'audit-size/keys': '2 keys' });
    expect(JSON.parse(e.annotations['validation.policy.admission.k8s.io/validation_failure'])).toEqual([
      { message: 'at most one key', policy: 'audit-size', binding: 'audit-size', expressionIndex: 0, validationActions: ['Audit'] },
    ]);
  });

  it('records a request that fails authentication: ResponseStarted, 401, no user, the credentials it tried', async () => {
    // The real kubectl with a token the server does not know and no client certificate.
    const asStranger = (path: string) => kubectl('/dev/null', ['--server', s.url, '--certificate-authority', s.pki.ca.cert, '--token', 'not-a-known-token', 'get', '--raw', path]);
    expect((await asStranger('/readyz/ping')).code).not.toBe(0);
    let failed: any[] = [];
    for (const deadline = Date.now() + 5_000; failed.length === 0 && Date.now() < deadline;) {
      failed = (await events()).filter((e) => e.requestURI === '/readyz/ping');
      if (failed.length === 0) await new Promise((done) => setTimeout(done, 50));
    }
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      level: 'Metadata', stage: 'ResponseStarted', verb: 'get', user: {}, sourceIPs: ['127.0.0.1'], userAgent: expect.stringContaining('kubectl'),
      responseStatus: { metadata: {}, code: 401, message: 'Authentication failed, attempted: bearer' },
    });
    expect(failed[0].user).toEqual({});
    // The policy still decides: a rule that omits ResponseStarted leaves no trace of the failure (the later
    // successful /readyz shows the log has caught up).
    expect((await asStranger('/livez')).code).not.toBe(0);
    expect((await s.kubectl('get', '--raw', '/readyz/etcd')).code).toBe(0);
    for (const deadline = Date.now() + 5_000; Date.now() < deadline && !(await events()).some((e) => e.requestURI === '/readyz/etcd');) {
      await new Promise((done) => setTimeout(done, 50));
    }
    expect((await events()).filter((e) => e.requestURI === '/livez')).toEqual([]);
  });
});
