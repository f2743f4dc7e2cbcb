// Webhooks' matchPolicy (upstream's ShouldCallHook): with Equivalent, the default, a webhook whose rules name one
// version of a resource gets requests made at its other versions too, the objects converted to the version it names
// (kind and resource say that one, requestKind and requestResource the client's) and its patch converted back; with
// Exact it gets only what its rules name. Shown on a custom resource served in two versions and on HPAs
// (autoscaling/v1 requests for an autoscaling/v2 webhook).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { startTestWebhook, type TestWebhook } from '../support/admission-webhook.js';
import { cleanStdout } from '../support/kubectl-run.js';

let s: TestApiServer;
let hook: TestWebhook;
const GROUP = 'eq.example.com';
const AR = 'admissionregistration.k8s.io/v1';

/** /label adds a label to the object; /refuse refuses everything. */
function respond(path: string, request: any): Record<string, unknown> {
  if (path === '/refuse') return { uid: request.uid, allowed: false, status: { code: 403, message: 'refused by /refuse' } };
  const patch = [{ op: 'add', path: '/metadata/labels', value: { ...request.object.metadata.labels, labelled: request.kind.version } }];
  return { uid: request.uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') };
}

const ok = (...args: string[]): Promise<string> => cleanStdout(s.kubectl(...args));
const apply = async (obj: unknown): Promise<void> => {
  const r = await s.kubectlWithInput(JSON.stringify(obj), 'create', '-f', '-');
  expect(r.stderr).toBe('');
};
const webhookConfiguration = (kind: string, name: string, path: string, rule: Record<string, unknown>, matchPolicy?: string) => ({
  apiVersion: AR, kind, metadata: { name },
  webhooks: [{
    name: `${name}.example.com`, clientConfig: { url: `${hook.base}${path}`, caBundle: hook.caBundle }, rules: [{ operations: ['CREATE'], ...rule }],
    ...(matchPolicy ? { matchPolicy } : {}), sideEffects: 'None', admissionReviewVersions: ['v1'],
  }],
});
const requestsFor = (path: string, name: string) => hook.seen.filter((x) => x.path === path && x.request.name === name).map((x) => x.request);

beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'], controllers: [] });
  hook = await startTestWebhook(respond);
  const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } };
  await apply({
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `things.${GROUP}` },
    spec: {
      group: GROUP, scope: 'Namespaced', names: { plural: 'things', singular: 'thing', kind: 'Thing' },
      versions: [{ name: 'v1', served: true, storage: true, schema }, { name: 'v2', served: true, storage: false, schema }],
    },
  });
  await ok('wait', '--for=condition=Established', `crd/things.${GROUP}`, '--timeout=20s');
  await apply(webhookConfiguration('MutatingWebhookConfiguration', 'things-v1', '/label', { apiGroups: [GROUP], apiVersions: ['v1'], resources: ['things'] }));
  await apply(webhookConfiguration('ValidatingWebhookConfiguration', 'things-v1-exact', '/refuse', { apiGroups: [GROUP], apiVersions: ['v1'], resources: ['things'] }, 'Exact'));
  await apply(webhookConfiguration('MutatingWebhookConfiguration', 'hpa-v2', '/label', { apiGroups: ['autoscaling'], apiVersions: ['v2'], resources: ['horizontalpodautoscalers'] }));
});
afterAll(async () => {
  await s?.close();
  await hook?.close();
});

describe('webhook matchPolicy', () => {
  it('Equivalent (the default): a v2 request goes to a v1 webhook as v1, and its patch comes back to v2', async () => {
    const thing = { apiVersion: `${GROUP}/v2`, kind: 'Thing', metadata: { name: 't2', namespace: 'default' }, spec: { size: 2 } };
    const r = await s.api('POST', `/apis/${GROUP}/v2/namespaces/default/things`, thing);
    expect(r.status).toBe(201);
    expect([r.body.apiVersion, r.body.metadata.labels]).toEqual([`${GROUP}/v2`, { labelled: 'v1' }]);
    const [request] = requestsFor('/label', 't2');
    expect(request).toMatchObject({
      kind: { group: GROUP, version: 'v1', kind: 'Thing' }, resource: { group: GROUP, version: 'v1', resource: 'things' },
      requestKind: { group: GROUP, version: 'v2', kind: 'Thing' }, requestResource: { group: GROUP, version: 'v2', resource: 'things' },
      object: { apiVersion: `${GROUP}/v1`, kind: 'Thing', spec: { size: 2 } },
    });
  });

  it('Exact: only the version its rules name', async () => {
    // the Exact webhook (which refuses all) names v1 only: the v2 create above went through, a v1 create does not
    expect(requestsFor('/refuse', 't2')).toEqual([]);
    const v1 = await s.api('POST', `/apis/${GROUP}/v1/namespaces/default/things`, { apiVersion: `${GROUP}/v1`, kind: 'Thing', metadata: { name: 't1' }, spec: { size: 1 } });
    expect([v1.status, v1.body.message]).toEqual([403, 'admission webhook "things-v1-exact.example.com" denied the request: refused by /refuse']);
  });

  it('holds for ValidatingAdmissionPolicy too: a policy on v1 checks v2 requests, converted to v1', async () => {
    await s.api('POST', `/apis/${AR}/validatingadmissionpolicies`, {
      apiVersion: AR, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'small-things' },
      spec: {
        matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [GROUP], apiVersions: ['v1'], resources: ['things'] }] },
        validations: [
          { expression: `object.apiVersion == '${GROUP}/v1' && request.requestKind.version == 'v2'`, message: 'sees v1 for a v2 request' },
          { expression: 'object.spec.size < 100', message: 'things stay small' },
        ],
      },
    });
    await s.api('POST', `/apis/${AR}/validatingadmissionpolicybindings`, { apiVersion: AR, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'small-things' }, spec: { policyName: 'small-things', validationActions: ['Deny'] } });
    const thing = (name: string, size: number) => ({ apiVersion: `${GROUP}/v2`, kind: 'Thing', metadata: { name }, spec: { size } });
    const big = await s.api('POST', `/apis/${GROUP}/v2/namespaces/default/things`, thing('big', 150));
    expect([big.status, big.body.message]).toEqual([422, `things.${GROUP} "big" is forbidden: ValidatingAdmissionPolicy 'small-things' with binding 'small-things' denied request: things stay small`]);
    expect((await s.api('POST', `/apis/${GROUP}/v2/namespaces/default/things`, thing('little', 5))).status).toBe(201);
  });

  it('converts built-in kinds too: an autoscaling/v1 HPA reaches an autoscaling/v2 webhook with its metrics', async () => {
    const hpa = {
      apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h1', namespace: 'default' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 4, targetCPUUtilizationPercentage: 60 },
    };
    const r = await s.api('POST', '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers', hpa);
    expect(r.status).toBe(201);
    expect([r.body.apiVersion, r.body.metadata.labels, r.body.spec.targetCPUUtilizationPercentage]).toEqual(['autoscaling/v1', { labelled: 'v2' }, 60]);
    const [request] = requestsFor('/label', 'h1');
    expect(request.requestKind).toEqual({ group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' });
    expect(request.object.apiVersion).toBe('autoscaling/v2');
    expect(request.object.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }]);
  });
});
