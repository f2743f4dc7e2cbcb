import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attrs, memoryDeps } from '../testing.js';
import { MutatingWebhook, ValidatingWebhook } from './plugins.js';
import { ruleMatches } from './rules.js';
import { admissionRequest } from './review.js';
import { loadCel } from '../../apimachinery/cel/index.js';
import { startTestWebhook } from '../../../test/support/admission-webhook.js';

// what the apiserver does before admitting a write
beforeAll(async () => { await loadCel(); });

describe('webhook rules', () => {
  const pod = attrs('pods', 'CREATE', { metadata: { name: 'p' } });
  const status = attrs('pods', 'UPDATE', { metadata: { name: 'p' } }, { subresource: 'status' });
  const node = attrs('nodes', 'CREATE', { metadata: { name: 'n' } });
  const rule = (resources: string[], extra: Record<string, unknown> = {}) => ({ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources, ...extra });

  it('matches resources, subresources and wildcards as upstream', () => {
    expect([ruleMatches(rule(['pods']), pod), ruleMatches(rule(['pods']), status)]).toEqual([true, false]);
    expect([ruleMatches(rule(['*']), pod), ruleMatches(rule(['*']), status)]).toEqual([true, false]);
    expect([ruleMatches(rule(['pods/status']), status), ruleMatches(rule(['*/status']), status), ruleMatches(rule(['*/*']), status)]).toEqual([true, true, true]);
    expect([ruleMatches(rule(['pods/*']), pod), ruleMatches(rule(['pods/*']), status)]).toEqual([true, true]);
  });

  it('matches operations, groups, versions and scope', () => {
    expect(ruleMatches(rule(['pods'], { operations: ['UPDATE'] }), pod)).toBe(false);
    expect(ruleMatches(rule(['pods'], { apiGroups: ['apps'] }), pod)).toBe(false);
    expect(ruleMatches(rule(['pods'], { apiVersions: ['v2'] }), pod)).toBe(false);
    expect([ruleMatches(rule(['*'], { scope: 'Namespaced' }), pod), ruleMatches(rule(['*'], { scope: 'Namespaced' }), node)]).toEqual([true, false]);
    expect([ruleMatches(rule(['*'], { scope: 'Cluster' }), pod), ruleMatches(rule(['*'], { scope: 'Cluster' }), node)]).toEqual([false, true]);
  });
});

describe('admission requests', () => {
  it('send options as null for CONNECT, which has no options object (an empty RawExtension marshals as null)', () => {
    const connect = attrs('pods', 'CONNECT', { kind: 'PodExecOptions', apiVersion: 'v1', command: ['ls'] }, { name: 'p', subresource: 'exec' });
    expect(admissionRequest(connect)).toMatchObject({ options: null, oldObject: null });
    expect(admissionRequest(attrs('pods', 'CREATE', { metadata: { name: 'p' } })).options).toEqual({ apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions' });
  });
});

describe('webhook calls', () => {
  let server: Server;
  let url = '';
  const calls: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => { body += c.toString(); });
      req.on('end', () => {
        const { request } = JSON.parse(body);
        const path = (req.url ?? '').split('?')[0]!;
        calls.push(path);
        const labels = request.object?.metadata?.labels ?? {};
        let response: Record<string, unknown> = { uid: request.uid, allowed: true };
        if (path === '/a' || path === '/b') {
          const key = path.slice(1);
          const patch = [{ op: 'add', path: '/metadata/labels', value: { ...labels, [key]: String(Object.keys(labels).length) } }];
          response = { ...response, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') };
        }
        if (path === '/wrong-uid') response = { uid: 'nope', allowed: true };
        if (path === '/deny') response = { uid: request.uid, allowed: false, status: { reason: 'Forbidden' } };
        if (path === '/annotate') response = { ...response, auditAnnotations: { checked: 'yes' } };
        const b64 = (ops: unknown) => Buffer.from(JSON.stringify(ops)).toString('base64');
        if (path === '/bad-patch') response = { ...response, patchType: 'JSONPatch', patch: b64([{ op: 'replace', path: '/spec/doesnotexist/x', value: 1 }]) };
        if (path === '/label-patch') response = { ...response, patchType: 'JSONPatch', patch: b64([{ op: 'add', path: '/metadata/labels', value: { x: 'y' } }]) };
        if (path === '/untyped-patch') response = { ...response, patch: b64([{ op: 'add', path: '/metadata/labels', value: { x: 'y' } }]) };
        if (path === '/boom') {
          res.writeHead(500, { 'content-type': 'text/plain' });
          return res.end('boom\n');
        }
        if (path === '/status') {
          res.writeHead(500, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'webhook is sick', code: 500 }));
        }
        res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const hook = (name: string, path: string, extra: Record<string, unknown> = {}) => ({
    name, clientConfig: { url: `${url}${path}` }, rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
    sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy: 'Fail', ...extra,
  });
  const config = (kind: string, name: string, webhooks: unknown[]) => ({ group: 'admissionregistration.k8s.io', plural: kind, obj: { metadata: { name }, webhooks } });

  it('applies JSON patches in order and reinvokes an IfNeeded webhook once after a later change', async () => {
    calls.length = 0;
    const deps = memoryDeps([config('mutatingwebhookconfigurations', 'm', [hook('a', '/a', { reinvocationPolicy: 'IfNeeded' }), hook('b', '/b')])]);
    const a = attrs('pods', 'CREATE', { metadata: { name: 'p' } });
    const obj = a.object!;
    a.auditAnnotations = {};
    await new MutatingWebhook(deps).admit(a);
    expect(calls).toEqual(['/a', '/b', '/a']);
    expect(a.object).toBe(obj);
    expect(obj.metadata!.labels).toEqual({ a: '2', b: '1' });
    // upstream's mutation annotations: one per call, by round and webhook index
    expect(Object.fromEntries(Object.entries(a.auditAnnotations).map(([k, v]) => [k, JSON.parse(v)]))).toEqual({
      'mutation.webhook.admission.k8s.io/round_0_index_0': { configuration: 'm', webhook: 'a', mutated: true },
      'mutation.webhook.admission.k8s.io/round_0_index_1': { configuration: 'm', webhook: 'b', mutated: true },
      'mutation.webhook.admission.k8s.io/round_1_index_0': { configuration: 'm', webhook: 'a', mutated: true },
    });
  });

  it('hands a webhook\'s auditAnnotations to the audit event under its name', async () => {
    const a = attrs('pods', 'CREATE', { metadata: { name: 'p' } }, { auditAnnotations: {} });
    await new ValidatingWebhook(memoryDeps([config('validatingwebhookconfigurations', 'v', [hook('audit.example.com', '/annotate')])])).validate(a);
    expect(a.auditAnnotations).toEqual({ 'audit.example.com/checked': 'yes' });
  });

  it('marks a failure it ignored in the audit event, by round and index (upstream\'s failed-open annotations)', async () => {
    const v = attrs('pods', 'CREATE', { metadata: { name: 'p' } }, { auditAnnotations: {} });
    // the index is the webhook's among those called: "skipped" matches nothing
    await new ValidatingWebhook(memoryDeps([config('validatingwebhookconfigurations', 'v', [
      hook('skipped', '/deny', { matchConditions: [{ name: 'never', expression: 'false' }] }), hook('ok', '/annotate'), hook('sick', '/boom', { failurePolicy: 'Ignore' }),
    ])])).validate(v);
    expect(v.auditAnnotations).toEqual({ 'ok/checked': 'yes', 'failed-open.validating.webhook.admission.k8s.io/round_0_index_1': 'sick' });
    const m = attrs('pods', 'CREATE', { metadata: { name: 'p' } }, { auditAnnotations: {} });
    await new MutatingWebhook(memoryDeps([config('mutatingwebhookconfigurations', 'm', [hook('a', '/a'), hook('untyped', '/untyped-patch', { failurePolicy: 'Ignore' })])])).admit(m);
    expect(m.auditAnnotations!['failed-open.mutation.webhook.admission.k8s.io/round_0_index_1']).toBe('untyped');
  });

  it('refuses on a protocol error under Fail, ignores it under Ignore, and words refusals as upstream', async () => {
    const run = (h: unknown) => new ValidatingWebhook(memoryDeps([config('validatingwebhookconfigurations', 'v', [h])])).validate(attrs('pods', 'CREATE', { metadata: { name: 'p' } }));
    await expect(run(hook('uid', '/wrong-uid', { failurePolicy: 'Ignore' }))).resolves.toBeUndefined();
    await expect(run(hook('deny', '/deny'))).rejects.toMatchObject({ code: 400, reason: 'Forbidden', message: 'admission webhook "deny" denied the request: Forbidden' });
    await expect(run(hook('skip', '/deny', { matchConditions: [{ name: 'never', expression: 'false' }] }))).resolves.toBeUndefined();
    await expect(run(hook('err', '/deny', { matchConditions: [{ name: 'bad', expression: 'object.nope' }] }))).rejects.toThrow(/is forbidden: expression 'object.nope' resulted in error/);
  });

  it('evaluates match conditions with the authorizer of the request\'s user', async () => {
    const admins = { name: 'admins', expression: "!authorizer.group('').resource('pods').namespace('ns').check('delete').allowed()" };
    const run = (user: string) => {
      const deps = memoryDeps([config('validatingwebhookconfigurations', 'v', [hook('deny', '/deny', { matchConditions: [admins] })])]);
      deps.review = async (q) => ({ allowed: q.user.name === 'admin' && q.verb === 'delete', reason: '' });
      return new ValidatingWebhook(deps).validate(attrs('pods', 'CREATE', { metadata: { name: 'p' } }, { user: { name: user, groups: [] } }));
    };
    await expect(run('admin')).resolves.toBeUndefined();
    await expect(run('jane')).rejects.toThrow('admission webhook "deny" denied the request: Forbidden');
  });

  const mutate = (h: unknown, a = attrs('pods', 'CREATE', { metadata: { name: 'p' } })) =>
    new MutatingWebhook(memoryDeps([config('mutatingwebhookconfigurations', 'm', [h])])).admit(a);
  const validate = (h: unknown, objects: Parameters<typeof memoryDeps>[0] = []) =>
    new ValidatingWebhook(memoryDeps([config('validatingwebhookconfigurations', 'v', [h]), ...objects])).validate(attrs('pods', 'CREATE', { metadata: { name: 'p' } }));

  it('answers a patch that does not apply as an internal error whatever the failurePolicy, in the patch library\'s words', async () => {
    const why = { code: 500, reason: 'InternalError', message: 'Internal error occurred: replace operation does not apply: doc is missing path: /spec/doesnotexist/x: missing value' };
    await expect(mutate(hook('bad', '/bad-patch'))).rejects.toMatchObject(why);
    await expect(mutate(hook('bad', '/bad-patch', { failurePolicy: 'Ignore' }))).rejects.toMatchObject(why);
  });

  it('refuses a patch for a request without an object (DELETE)', async () => {
    const a = attrs('pods', 'DELETE', undefined, { name: 'p', oldObject: { metadata: { name: 'p' } } });
    await expect(mutate(hook('del', '/label-patch', { rules: [{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] }), a))
      .rejects.toMatchObject({ code: 500, message: 'Internal error occurred: admission webhook "del" attempted to modify the object, which is not supported for this operation' });
  });

  it('words invalid responses and failed calls as upstream', async () => {
    await expect(mutate(hook('untyped', '/untyped-patch'))).rejects.toMatchObject({ code: 500,
      message: 'Internal error occurred: failed calling webhook "untyped": received invalid webhook response: webhook returned response.patch but not response.patchType' });
    await expect(validate(hook('vp', '/label-patch'))).rejects.toThrow('failed calling webhook "vp": received invalid webhook response: validating webhook may not return response.patch');
    await expect(validate(hook('uid', '/wrong-uid'))).rejects.toThrow(/failed calling webhook "uid": received invalid webhook response: expected response.uid=".*", got "nope"/);
    await expect(validate(hook('boom', '/boom'))).rejects.toThrow('failed calling webhook "boom": failed to call webhook: an error on the server ("boom") has prevented the request from succeeding');
    await expect(validate(hook('status', '/status'))).rejects.toThrow('failed calling webhook "status": failed to call webhook: webhook is sick');
    await expect(validate(hook('boom', '/boom', { failurePolicy: 'Ignore' }))).resolves.toBeUndefined();
  });

  it('words a service that cannot be reached as upstream\'s dial of its DNS name', async () => {
    const svc = (ports: unknown[]) => ({ plural: 'services', obj: { metadata: { name: 'wh', namespace: 'default' }, spec: { type: 'ClusterIP', ports } } });
    const eps = (subsets: unknown[]) => ({ plural: 'endpoints', obj: { metadata: { name: 'wh', namespace: 'default' }, subsets } });
    const viaService = (port?: number) => ({ ...hook('s', ''), clientConfig: { service: { namespace: 'default', name: 'wh', path: '/allow', ...(port ? { port } : {}) } } });
    const post = 'failed calling webhook "s": failed to call webhook: Post "https://wh.default.svc:443/allow?timeout=10s"';
    await expect(validate(viaService())).rejects.toThrow(`${post}: service "wh" not found`);
    await expect(validate(viaService(), [svc([{ port: 443 }]), eps([])])).rejects.toThrow(`${post}: no endpoints available for service "wh"`);
    await expect(validate(viaService(8443), [svc([{ port: 443 }])]))
      .rejects.toThrow('failed calling webhook "s": failed to call webhook: Post "https://wh.default.svc:8443/allow?timeout=10s": no service port 8443 found for service "wh"');
    const closed = Number(new URL(url).port);
    await new Promise<void>((r) => server.close(() => r()));
    try {
      await expect(validate(viaService(), [svc([{ port: 443 }]), eps([{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port: closed }] }])]))
        .rejects.toThrow(`${post}: dial tcp 127.0.0.1:${closed}: connect: connection refused`);
    } finally {
      await new Promise<void>((r) => server.listen(closed, '127.0.0.1', r));
    }
  });

  it('refuses the request (403) when a match condition errs under Fail, and skips the webhook under Ignore', async () => {
    const matchConditions = [{ name: 'bad', expression: 'object.nope == "x"' }];
    await expect(validate(hook('err', '/deny', { matchConditions }))).rejects.toMatchObject({ code: 403, reason: 'Forbidden',
      message: expect.stringMatching(/^pods "p" is forbidden: expression 'object.nope == "x"' resulted in error: no such key: nope$/) });
    await expect(validate(hook('err', '/deny', { matchConditions, failurePolicy: 'Ignore' }))).resolves.toBeUndefined();
  });

  it('words certificate failures as Go\'s crypto/tls', async () => {
    const tls = await startTestWebhook((_path, request) => ({ uid: request.uid, allowed: true }));
    try {
      const h = { ...hook('tls', ''), clientConfig: { url: `${tls.base}/allow` } };
      await expect(validate(h)).rejects.toThrow(`failed calling webhook "tls": failed to call webhook: Post "${tls.base}/allow?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority`);
      await expect(validate({ ...h, clientConfig: { url: `${tls.base}/allow`, caBundle: tls.caBundle } })).resolves.toBeUndefined();
    } finally {
      await tls.close();
    }
  });
});
