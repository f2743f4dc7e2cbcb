// A number written with a fraction or an exponent (a Python client's `replicas = n / 2` sends 2.0) in an integer field,
// as upstream 1.32 answers it: a built-in kind's JSON body is refused by Go's decoder (400), and so is what a JSON or
// merge patch makes of it (422 on "patch"), while a YAML body, a strategic merge patch and a custom resource's
// `type: integer` take an integral one (they read it as a float64, which is integral).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const WIDGETS = '/apis/literals.example.com/v1/namespaces/default/widgets';

beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'], controllers: [] });
  const crd = await s.api('POST', CRDS, {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.literals.example.com' },
    spec: {
      group: 'literals.example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: [{
        name: 'v1', served: true, storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer', format: 'int32' } } } } } },
      }],
    },
  });
  expect(crd.status).toBe(201);
  const deadline = Date.now() + 10_000;
  while ((await s.api('GET', WIDGETS)).status !== 200) {
    if (Date.now() > deadline) throw new Error('widgets not served in time');
    await new Promise((r) => setTimeout(r, 20));
  }
});
afterAll(async () => { await s?.close(); });

/** A deployment's JSON with `replicas` written as given. */
const deployment = (name: string, replicas: string): string =>
  `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"${name}"},"spec":{"replicas":${replicas},` +
  '"selector":{"matchLabels":{"app":"x"}},"template":{"metadata":{"labels":{"app":"x"}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}}}';
const send = (method: string, path: string, text: string, contentType = 'application/json') => s.api(method, path, text, { 'content-type': contentType });
const REPLICAS_2_0 = 'json: cannot unmarshal number 2.0 into Go struct field DeploymentSpec.spec.replicas of type int32';

describe('a built-in kind', () => {
  it('refuses 2.0 or 1e1 in an integer field of a JSON body, as Go\'s decoder does, whatever fieldValidation', async () => {
    for (const [query, replicas] of [['', '2.0'], ['?fieldValidation=Ignore', '2.0'], ['?fieldValidation=Strict', '1e1']] as const) {
      const r = await send('POST', `${DEPLOYMENTS}${query}`, deployment('refused', replicas));
      expect(r.status, query).toBe(400);
      expect(r.body).toMatchObject({ reason: 'BadRequest', message: `Deployment in version "v1" cannot be handled as a Deployment: ${REPLICAS_2_0.replace('2.0', replicas)}` });
    }
    const pod = await s.api('POST', '/api/v1/namespaces/default/pods', '{"metadata":{"name":"p"},"spec":{"terminationGracePeriodSeconds":1e1,"containers":[{"name":"c","image":"busybox"}]}}', { 'content-type': 'application/json' });
    expect(pod.body.message).toBe('Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number 1e1 into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64');
    const del = await send('DELETE', `${DEPLOYMENTS}/none`, '{"gracePeriodSeconds":0.0}');
    expect(del.body.message).toBe('DeleteOptions in version "v1" cannot be handled as a DeleteOptions: json: cannot unmarshal number 0.0 into Go struct field DeleteOptions.gracePeriodSeconds of type int64');
  });

  it('takes 2.0 from a YAML body, which upstream turns into the JSON 2', async () => {
    const r = await send('POST', DEPLOYMENTS, deployment('from-yaml', '2.0'), 'application/yaml');
    expect(r.status).toBe(201);
    expect(r.body.spec.replicas).toBe(2);
  });

  it('refuses 2.0 in a PUT, and what a JSON or merge patch makes of it; a strategic merge patch takes it', async () => {
    expect((await send('POST', DEPLOYMENTS, deployment('d', '1'))).status).toBe(201);
    const put = await send('PUT', `${DEPLOYMENTS}/d`, deployment('d', '2.0'));
    expect(put.status).toBe(400);
    expect(put.body.message).toBe(`Deployment in version "v1" cannot be handled as a Deployment: ${REPLICAS_2_0}`);
    for (const [type, patch] of [['merge-patch', '{"spec":{"replicas":2.0}}'], ['json-patch', '[{"op":"replace","path":"/spec/replicas","value":2.0}]']]) {
      const r = await send('PATCH', `${DEPLOYMENTS}/d`, patch, `application/${type}+json`);
      expect(r.status, type).toBe(422);
      expect(r.body.details.causes, type).toEqual([{ reason: 'FieldValueInvalid', field: 'patch', message: expect.stringMatching(/^Invalid value: ".*": json: cannot unmarshal number 2\.0 into Go struct field DeploymentSpec\.spec\.replicas of type int32$/) }]);
    }
    const smp = await send('PATCH', `${DEPLOYMENTS}/d`, '{"spec":{"replicas":2.0}}', 'application/strategic-merge-patch+json');
    expect(smp.status).toBe(200);
    expect(smp.body.spec.replicas).toBe(2);
  });

  it('refuses 2.0 in a Scale, sent or made by a merge patch', async () => {
    expect((await send('POST', DEPLOYMENTS, deployment('scaled', '1'))).status).toBe(201);
    const put = await send('PUT', `${DEPLOYMENTS}/scaled/scale`, '{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"scaled","namespace":"default"},"spec":{"replicas":2.0}}');
    expect(put.body.message).toBe('Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal number 2.0 into Go struct field ScaleSpec.spec.replicas of type int32');
    const patch = await send('PATCH', `${DEPLOYMENTS}/scaled/scale`, '{"spec":{"replicas":2.0}}', 'application/merge-patch+json');
    expect(patch.status).toBe(422);
    expect(patch.body.details.causes[0].message).toMatch(/^Invalid value: "\{\\"apiVersion\\":\\"autoscaling\/v1\\",\\"kind\\":\\"Scale\\",.*\}": json: cannot unmarshal number 2\.0 into Go struct field ScaleSpec\.spec\.replicas of type int32$/);
    const ok = await send('PATCH', `${DEPLOYMENTS}/scaled/scale`, '{"spec":{"replicas":2}}', 'application/merge-patch+json');
    expect(ok.body.spec.replicas).toBe(2);
  });
});

describe('a custom resource', () => {
  it('takes an integral 2.0 or 1e1 for `type: integer`, as kube-openapi\'s type check does, and refuses 2.5', async () => {
    const widget = (name: string, replicas: string) => `{"apiVersion":"literals.example.com/v1","kind":"Widget","metadata":{"name":"${name}"},"spec":{"replicas":${replicas}}}`;
    for (const [name, replicas] of [['two', '2.0'], ['ten', '1e1']]) {
      const r = await send('POST', WIDGETS, widget(name, replicas));
      expect(r.status, replicas).toBe(201);
      expect(r.body.spec.replicas).toBe(Number(replicas));
    }
    const half = await send('POST', WIDGETS, widget('half', '2.5'));
    expect(half.status).toBe(422);
    expect(half.body.details.causes).toEqual([{ reason: 'FieldValueTypeInvalid', field: 'spec.replicas', message: 'Invalid value: "number": spec.replicas in body must be of type integer: "number"' }]);
  });
});
