import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attrs, memoryDeps } from '../testing.js';
import { MutatingWebhook, ValidatingWebhook } from './plugins.js';
import { ruleMatches } from './rules.js';
import { loadCel } from '../../apimachinery/cel/index.js';

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
        const labels = request.object.metadata.labels ?? {};
        let response: Record<string, unknown> = { uid: request.uid, allowed: true };
        if (path === '/a' || path === '/b') {
          const key = path.slice(1);
          const patch = [{ op: 'add', path: '/metadata/labels', value: { ...labels, [key]: String(Object.keys(labels).length) } }];
          response = { ...response, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') };
        }
        if (path === '/wrong-uid') response = { uid: 'nope', allowed: true };
        if (path === '/deny') response = { uid: request.uid, allowed: false, status: { reason: 'Forbidden' } };
        if (path === '/annotate') response = { ...response, auditAnnotations: { checked: 'yes' } };
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

  it('refuses on a protocol error under Fail, ignores it under Ignore, and words refusals as upstream', async () => {
    const run = (h: unknown) => new ValidatingWebhook(memoryDeps([config('validatingwebhookconfigurations', 'v', [h])])).validate(attrs('pods', 'CREATE', { metadata: { name: 'p' } }));
    await expect(run(hook('uid', '/wrong-uid'))).rejects.toThrow(/failed calling webhook "uid": expected response.uid=".*", got "nope"/);
    await expect(run(hook('uid', '/wrong-uid', { failurePolicy: 'Ignore' }))).resolves.toBeUndefined();
    await expect(run(hook('deny', '/deny'))).rejects.toMatchObject({ code: 400, reason: 'Forbidden', message: 'admission webhook "deny" denied the request: Forbidden' });
    await expect(run(hook('skip', '/deny', { matchConditions: [{ name: 'never', expression: 'false' }] }))).resolves.toBeUndefined();
    await expect(run(hook('err', '/deny', { matchConditions: [{ name: 'bad', expression: 'object.nope' }] }))).rejects.toThrow(/failed to evaluate match conditions/);
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
});
