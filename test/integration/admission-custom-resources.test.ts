// Admission sees custom resources as it sees built-in ones (upstream runs one admission chain for both): mutating
// and validating webhooks matched by group/resource, ValidatingAdmissionPolicy CEL on the custom object,
// NamespaceLifecycle, and ResourceQuota object counts (count/<plural>.<group>). Driven by the real kubectl.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { startTestWebhook, type TestWebhook } from '../support/admission-webhook.js';
import { cleanStdout } from '../support/kubectl-run.js';

let s: TestApiServer;
let hook: TestWebhook;
let base = '';
let caBundle = '';
let seen: TestWebhook['seen'] = [];
const GROUP = 'adm.example.com';
const AR = 'admissionregistration.k8s.io/v1';
const rules = [{ operations: ['CREATE', 'UPDATE'], apiGroups: [GROUP], apiVersions: ['v1'], resources: ['gizmos'] }];

/** /mutate labels the object; /validate refuses one labelled deny=true. */
function respond(path: string, request: any): Record<string, unknown> {
  if (path === '/mutate') {
    const patch = [{ op: 'add', path: '/metadata/labels', value: { ...request.object.metadata.labels, 'mutated-by': 'webhook' } }];
    return { uid: request.uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') };
  }
  if (request.object?.metadata?.labels?.deny === 'true') return { uid: request.uid, allowed: false, status: { code: 403, message: 'gizmos labelled deny=true are refused' } };
  return { uid: request.uid, allowed: true };
}

const ok = (...args: string[]): Promise<string> => cleanStdout(s.kubectl(...args));
const apply = async (obj: unknown): Promise<void> => {
  const r = await s.kubectlWithInput(JSON.stringify(obj), 'create', '-f', '-');
  expect(r.stderr).toBe('');
};
const gizmo = (ns: string, name: string, size: number, labels: Record<string, string> = {}): string =>
  JSON.stringify({ apiVersion: `${GROUP}/v1`, kind: 'Gizmo', metadata: { name, namespace: ns, labels }, spec: { size } });
const createGizmo = (ns: string, name: string, size: number, labels: Record<string, string> = {}) =>
  s.kubectlWithInput(gizmo(ns, name, size, labels), 'create', '-f', '-');

beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'] });
  hook = await startTestWebhook(respond);
  base = hook.base;
  caBundle = hook.caBundle;
  seen = hook.seen;
  await apply({
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `gizmos.${GROUP}` },
    spec: {
      group: GROUP, scope: 'Namespaced', names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
    },
  });
  await ok('wait', '--for=condition=Established', `crd/gizmos.${GROUP}`, '--timeout=20s');
});
afterAll(async () => {
  await s?.close();
  await hook?.close();
});

describe('admission of custom resources', () => {
  it('mutating and validating webhooks receive the custom object and decide', async () => {
    await ok('create', 'namespace', 'hooks');
    await ok('label', 'namespace', 'hooks', 'gizmo-hooks=on');
    const hookOf = (kind: string, name: string, path: string) => ({
      apiVersion: AR, kind, metadata: { name },
      webhooks: [{
        name: `${name}.example.com`, clientConfig: { url: `${base}${path}`, caBundle }, rules, namespaceSelector: { matchLabels: { 'gizmo-hooks': 'on' } },
        sideEffects: 'None', admissionReviewVersions: ['v1'],
      }],
    });
    await apply(hookOf('MutatingWebhookConfiguration', 'gizmo-mutate', '/mutate'));
    await apply(hookOf('ValidatingWebhookConfiguration', 'gizmo-validate', '/validate'));
    await ok('get', 'validatingwebhookconfiguration', 'gizmo-validate');

    expect((await createGizmo('hooks', 'g1', 1)).stderr).toBe('');
    expect(JSON.parse(await ok('get', 'gizmo', 'g1', '-n', 'hooks', '-o', 'json')).metadata.labels).toEqual({ 'mutated-by': 'webhook' });
    const review = seen.find((x) => x.path === '/mutate' && x.request.name === 'g1')!.request;
    expect(review).toMatchObject({
      kind: { group: GROUP, version: 'v1', kind: 'Gizmo' }, resource: { group: GROUP, version: 'v1', resource: 'gizmos' },
      requestKind: { group: GROUP, version: 'v1', kind: 'Gizmo' }, namespace: 'hooks', operation: 'CREATE', object: { spec: { size: 1 } },
    });
    const denied = await createGizmo('hooks', 'g2', 1, { deny: 'true' });
    expect(denied.stderr).toContain('admission webhook "gizmo-validate.example.com" denied the request: gizmos labelled deny=true are refused');
    expect(seen.find((x) => x.path === '/validate' && x.request.name === 'g2')?.request.object.metadata.labels).toEqual({ deny: 'true', 'mutated-by': 'webhook' });
  });

  it('ValidatingAdmissionPolicy evaluates CEL over the custom object', async () => {
    await apply({
      apiVersion: AR, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'small-gizmos' },
      spec: { matchConstraints: { resourceRules: rules }, validations: [{ expression: 'object.spec.size <= 10', message: 'gizmos stay small' }] },
    });
    await apply({ apiVersion: AR, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'small-gizmos' }, spec: { policyName: 'small-gizmos', validationActions: ['Deny'] } });
    await ok('get', 'validatingadmissionpolicybinding', 'small-gizmos');
    expect((await createGizmo('default', 'small', 3)).stderr).toBe('');
    const big = await s.api('POST', `/apis/${GROUP}/v1/namespaces/default/gizmos`, JSON.parse(gizmo('default', 'big', 11)));
    expect([big.status, big.body.reason, big.body.message]).toEqual([422, 'Invalid',
      `gizmos.${GROUP} "big" is forbidden: ValidatingAdmissionPolicy 'small-gizmos' with binding 'small-gizmos' denied request: gizmos stay small`]);
    const patch = await s.kubectl('patch', 'gizmo', 'small', '--type=merge', '-p', '{"spec":{"size":12}}');
    expect(patch.stderr).toContain('gizmos stay small');
  });

  it('NamespaceLifecycle: no custom object in a missing or terminating namespace', async () => {
    const missing = await s.api('POST', `/apis/${GROUP}/v1/namespaces/nowhere/gizmos`, JSON.parse(gizmo('nowhere', 'g', 1)));
    expect([missing.status, missing.body.reason, missing.body.message]).toEqual([404, 'NotFound', 'namespaces "nowhere" not found']);
    await ok('create', 'namespace', 'ending');
    // A finalizer keeps it Terminating (nothing here runs the namespace controller).
    await ok('patch', 'namespace', 'ending', '--type=merge', '-p', '{"metadata":{"finalizers":["example.com/hold"]}}');
    await ok('delete', 'namespace', 'ending', '--wait=false');
    const terminating = await s.api('POST', `/apis/${GROUP}/v1/namespaces/ending/gizmos`, JSON.parse(gizmo('ending', 'g', 1)));
    expect([terminating.status, terminating.body.reason]).toEqual([403, 'Forbidden']);
    expect(terminating.body.message).toBe(`gizmos.${GROUP} "g" is forbidden: unable to create new content in namespace ending because it is being terminated`);
  });

  it('ResourceQuota counts custom objects as count/<plural>.<group>', async () => {
    await ok('create', 'namespace', 'quota');
    await ok('create', 'quota', 'gizmos', '-n', 'quota', `--hard=count/gizmos.${GROUP}=1`);
    expect((await createGizmo('quota', 'first', 1)).stderr).toBe('');
    const second = await s.api('POST', `/apis/${GROUP}/v1/namespaces/quota/gizmos`, JSON.parse(gizmo('quota', 'second', 1)));
    expect([second.status, second.body.reason, second.body.message]).toEqual([403, 'Forbidden',
      `gizmos.${GROUP} "second" is forbidden: exceeded quota: gizmos, requested: count/gizmos.${GROUP}=1, used: count/gizmos.${GROUP}=1, limited: count/gizmos.${GROUP}=1`]);
    expect(JSON.parse(await ok('get', 'quota', 'gizmos', '-n', 'quota', '-o', 'json')).status.used).toEqual({ [`count/gizmos.${GROUP}`]: '1' });
  });
});
