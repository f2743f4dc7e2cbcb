// Dynamic admission webhooks through the real kubectl: the test runs its own HTTPS webhook server
// (certificate from a CA of pkg/pki, trusted through caBundle) that mutates and refuses pods, and a
// webhook that cannot be reached, under failurePolicy Fail and Ignore.
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { startTestWebhook, type TestWebhook } from '../support/admission-webhook.js';
import { cleanStdout } from '../support/kubectl-run.js';

let s: TestApiServer;
let hook: TestWebhook;
let base = '';
let caBundle = '';
let deadPort = 0;
let seen: TestWebhook['seen'] = [];

function respond(path: string, request: any): Record<string, unknown> {
  const labels = request.object?.metadata?.labels ?? {};
  if (path === '/mutate') {
    const patch = labels && Object.keys(labels).length
      ? [{ op: 'add', path: '/metadata/labels/mutated-by', value: 'webhook' }]
      : [{ op: 'add', path: '/metadata/labels', value: { 'mutated-by': 'webhook' } }];
    return { uid: request.uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64'), warnings: ['mutated by the test webhook'] };
  }
  if (path === '/validate') {
    if (labels.deny === 'true') return { uid: request.uid, allowed: false, status: { code: 403, message: 'pods labelled deny=true are refused' } };
    return { uid: request.uid, allowed: true };
  }
  return { uid: request.uid, allowed: false };
}

beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'] });
  hook = await startTestWebhook(respond, ['hook.svc-ns.svc']);
  base = hook.base;
  caBundle = hook.caBundle;
  seen = hook.seen;
  // A port nothing listens on: the failing webhook's.
  const tmp = createServer();
  await new Promise<void>((r) => tmp.listen(0, '127.0.0.1', r));
  deadPort = (tmp.address() as AddressInfo).port;
  await new Promise<void>((r) => tmp.close(() => r()));
});
afterAll(async () => {
  await s?.close();
  await hook?.close();
});

const ok = (...args: string[]): Promise<string> => cleanStdout(s.kubectl(...args));
const create = (yaml: string, ...args: string[]) => s.kubectlWithInput(yaml, 'create', '-f', '-', ...args);
/** A webhook configuration (as JSON, which kubectl reads as well as YAML) for pod creations in namespaces labelled webhook-test=NS. */
const webhookConfig = (kind: string, name: string, hookName: string, url: string, ns: string, extra: Record<string, unknown> = {}): string => JSON.stringify({
  apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name },
  webhooks: [{
    name: hookName, clientConfig: { url, caBundle },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
    namespaceSelector: { matchLabels: { 'webhook-test': ns } }, sideEffects: 'None', admissionReviewVersions: ['v1'], ...extra,
  }],
});

async function namespace(name: string): Promise<void> {
  await ok('create', 'namespace', name);
  await ok('label', 'namespace', name, `webhook-test=${name}`);
  // A read waits until the watch cache (what admission reads) has the write.
  await ok('get', 'namespace', name);
}

describe('admission webhooks', () => {
  it('stores webhook configurations with upstream defaults', async () => {
    await namespace('mut');
    const r = await create(webhookConfig('MutatingWebhookConfiguration', 'labeler', 'labeler.example.com', `${base}/mutate`, 'mut'));
    expect(r.stderr).toBe('');
    const cfg = JSON.parse(await ok('get', 'mutatingwebhookconfiguration', 'labeler', '-o', 'json'));
    expect(cfg.webhooks[0]).toMatchObject({
      failurePolicy: 'Fail', matchPolicy: 'Equivalent', objectSelector: {}, timeoutSeconds: 10, reinvocationPolicy: 'Never',
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' }],
    });
  });

  it('a mutating webhook labels pods, with its warning shown by kubectl', async () => {
    const r = await s.kubectl('run', 'web', '--image=nginx', '-n', 'mut');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Warning: mutated by the test webhook');
    const pod = JSON.parse(await ok('get', 'pod', 'web', '-n', 'mut', '-o', 'json'));
    expect(pod.metadata.labels).toEqual({ run: 'web', 'mutated-by': 'webhook' });
    const review = seen.find((x) => x.path === '/mutate' && x.request.name === 'web')!.request;
    expect(review).toMatchObject({
      kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' },
      namespace: 'mut', operation: 'CREATE', dryRun: false, options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions' },
      userInfo: { username: 'kubernetes-admin' },
    });
    expect(review.object.metadata.name).toBe('web');
    // Pods of other namespaces are not sent.
    await ok('create', 'namespace', 'plain');
    await ok('run', 'other', '--image=nginx', '-n', 'plain');
    expect(JSON.parse(await ok('get', 'pod', 'other', '-n', 'plain', '-o', 'json')).metadata.labels).toEqual({ run: 'other' });
  });

  it('calls mutating webhooks before a generateName create is named, validating ones after', async () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { generateName: 'gen-' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    const created = await s.api('POST', '/api/v1/namespaces/mut/pods', pod);
    expect(created.status).toBe(201);
    expect(created.body.metadata.labels).toEqual({ 'mutated-by': 'webhook' });
    const review = seen.filter((x) => x.path === '/mutate' && x.request.object?.metadata?.generateName === 'gen-').at(-1)!.request;
    expect(review.name).toBe('');
    expect(review.object.metadata.name).toBeUndefined();
    expect(created.body.metadata.name).toMatch(/^gen-[a-z0-9]{5}$/);
  });

  it('a validating webhook refuses a pod with its message and code', async () => {
    await namespace('val');
    expect((await create(webhookConfig('ValidatingWebhookConfiguration', 'denier', 'deny.example.com', `${base}/validate`, 'val'))).code).toBe(0);
    await ok('get', 'validatingwebhookconfiguration', 'denier');
    await ok('run', 'fine', '--image=nginx', '-n', 'val');
    const r = await s.kubectl('run', 'bad', '--image=nginx', '-n', 'val', '--labels=deny=true');
    expect(r.code).toBe(1);
    // The webhook's status has no reason: kubectl prints none, as against a real cluster.
    expect(r.stderr).toContain('Error from server: admission webhook "deny.example.com" denied the request: pods labelled deny=true are refused');
    const generated = await s.api('POST', '/api/v1/namespaces/val/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { generateName: 'vgen-' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    const validated = seen.filter((x) => x.path === '/validate' && x.request.object?.metadata?.generateName === 'vgen-').at(-1)!.request;
    expect([validated.name, validated.object.metadata.name]).toEqual([generated.body.metadata.name, generated.body.metadata.name]);
    const api = await s.api('POST', '/api/v1/namespaces/val/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bad2', labels: { deny: 'true' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    expect(api.status).toBe(403);
    expect(api.body.message).toBe('admission webhook "deny.example.com" denied the request: pods labelled deny=true are refused');
  });

  it('an unreachable webhook refuses under failurePolicy Fail and admits under Ignore', async () => {
    await namespace('fail');
    const url = `https://127.0.0.1:${deadPort}/validate`;
    expect((await create(webhookConfig('ValidatingWebhookConfiguration', 'broken', 'broken.example.com', url, 'fail', { failurePolicy: 'Fail', timeoutSeconds: 2 }))).code).toBe(0);
    await ok('get', 'validatingwebhookconfiguration', 'broken');
    const r = await s.kubectl('run', 'refused', '--image=nginx', '-n', 'fail');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Error from server (InternalError): Internal error occurred: failed calling webhook "broken.example.com": failed to call webhook: Post "${url}?timeout=2s"`);
    await ok('patch', 'validatingwebhookconfiguration', 'broken', '--type=json', '-p', '[{"op":"replace","path":"/webhooks/0/failurePolicy","value":"Ignore"}]');
    await ok('get', 'validatingwebhookconfiguration', 'broken');
    await ok('run', 'admitted', '--image=nginx', '-n', 'fail');
  });

  it('sends dry runs only to webhooks without side effects, and skips by matchConditions', async () => {
    await namespace('dry');
    const matchConditions = [{ name: 'not-skipped', expression: "!has(object.metadata.labels) || !('skip' in object.metadata.labels)" }];
    // v1 knows only None and NoneOnDryRun: a webhook with side effects cannot be configured at all.
    const some = await create(webhookConfig('ValidatingWebhookConfiguration', 'effects', 'effects.example.com', `${base}/validate`, 'dry', { sideEffects: 'Some', matchConditions }));
    expect(some.stderr).toContain('webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"');
    const c = await create(webhookConfig('ValidatingWebhookConfiguration', 'effects', 'effects.example.com', `${base}/validate`, 'dry', { sideEffects: 'NoneOnDryRun', matchConditions }));
    expect(c.stderr).toBe('');
    const r = await s.kubectl('run', 'dry', '--image=nginx', '-n', 'dry', '--dry-run=server', '--labels=deny=true');
    expect(r.stderr).toContain('admission webhook "effects.example.com" denied the request: pods labelled deny=true are refused');
    expect(seen.at(-1)!.request.dryRun).toBe(true);
    await ok('run', 'skipped', '--image=nginx', '-n', 'dry', '--dry-run=server', '--labels=skip=yes,deny=true');
  });

  it('reaches a webhook through its service\'s endpoints, verified by the service\'s DNS name', async () => {
    await namespace('svc-ns');
    const port = Number(new URL(base).port);
    await ok('create', 'service', 'clusterip', 'hook', '--tcp=443:8443', '-n', 'svc-ns');
    const endpoints = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'hook', namespace: 'svc-ns' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: '443-8443', port }] }] };
    expect((await s.kubectlWithInput(JSON.stringify(endpoints), 'create', '-f', '-')).stderr).toBe('');
    await ok('get', 'endpoints', 'hook', '-n', 'svc-ns');
    const cfg = JSON.parse(webhookConfig('MutatingWebhookConfiguration', 'by-service', 'svc.example.com', '', 'svc-ns'));
    cfg.webhooks[0].clientConfig = { service: { namespace: 'svc-ns', name: 'hook', path: '/mutate' }, caBundle };
    expect((await s.kubectlWithInput(JSON.stringify(cfg), 'create', '-f', '-')).stderr).toBe('');
    expect(JSON.parse(await ok('get', 'mutatingwebhookconfiguration', 'by-service', '-o', 'json')).webhooks[0].clientConfig.service.port).toBe(443);
    const r = await s.kubectl('run', 'via-service', '--image=nginx', '-n', 'svc-ns');
    expect(r.code).toBe(0);
    expect(JSON.parse(await ok('get', 'pod', 'via-service', '-n', 'svc-ns', '-o', 'json')).metadata.labels['mutated-by']).toBe('webhook');
  });
});
