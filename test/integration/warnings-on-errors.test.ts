// Warnings recorded before a request fails go out with its error, as upstream's warning recorder writes each one into
// the response headers as it is recorded, whatever the outcome: a decode's unknown-field warnings (fieldValidation=Warn,
// the default) come before a 422 from validation, a deprecated version's warning comes with a 404 or a refused
// write's options; a strategy's warnings on create are recorded only once validation passes.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, warningsOf, type TestApiServer } from '../support/apiserver.js';
import { startTestWebhook, type TestWebhook } from '../support/admission-webhook.js';

let s: TestApiServer;
let dir: string;
let hook: TestWebhook;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'], controllers: [] });
  dir = await mkdtemp(join(tmpdir(), 'warnings-on-errors-'));
  hook = await startTestWebhook((_path, request) => ({ uid: request.uid, allowed: false, status: { code: 403, message: 'no' }, warnings: ['denied configmaps are noted'] }));
});
afterAll(async () => {
  await s?.close();
  await hook?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not in time`);
    await new Promise((res) => setTimeout(res, 20));
  }
}

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

describe('warnings on failed requests', () => {
  it('a create refused by validation carries the unknown-field warnings of its decode', async () => {
    const r = await s.api('POST', CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad_Name' }, bogus: 1, data: { a: 'b' } });
    expect(r.status).toBe(422);
    expect(warningsOf(r.headers)).toEqual(['unknown field "bogus"']);
    // an update that fails the same way too
    expect((await s.api('POST', CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } })).status).toBe(201);
    const put = await s.api('PUT', `${CONFIGMAPS}/cm`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, bogus: 1, data: { 'bad key': 'b' } });
    expect(put.status).toBe(422);
    expect(warningsOf(put.headers)).toEqual(['unknown field "bogus"']);
  });

  it('a strategy\'s warnings on create are not recorded when validation fails', async () => {
    const deployment = (replicas: number) => ({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
      spec: {
        replicas, bogus: true, selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { nodeSelector: { 'beta.kubernetes.io/os': 'linux' }, containers: [{ name: 'c', image: 'nginx' }] } },
      },
    });
    const refused = await s.api('POST', '/apis/apps/v1/namespaces/default/deployments', deployment(-1));
    expect(refused.status).toBe(422);
    expect(warningsOf(refused.headers)).toEqual(['unknown field "spec.bogus"']);
    const created = await s.api('POST', '/apis/apps/v1/namespaces/default/deployments', deployment(1));
    expect(created.status).toBe(201);
    expect(warningsOf(created.headers)).toEqual([
      'unknown field "spec.bogus"',
      'spec.template.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead',
    ]);
  });

  it('kubectl prints the warning before the error', async () => {
    const file = join(dir, 'cm.yaml');
    await writeFile(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Bad_Name\nbogus: 1\n');
    const r = await s.kubectl('create', '--validate=warn', '-f', file);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/^Warning: unknown field "bogus"\nThe ConfigMap "Bad_Name" is invalid: /);
  });

  it('a deprecated version\'s warning comes with a 404 and with a refused write', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'olds.warn.example.com' },
      spec: {
        group: 'warn.example.com', scope: 'Cluster', names: { plural: 'olds', kind: 'Old' },
        versions: [{ name: 'v1beta1', served: true, storage: true, deprecated: true, deprecationWarning: 'olds go away', schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    };
    expect((await s.api('POST', CRDS, crd)).status).toBe(201);
    await until(async () => (await s.api('GET', '/apis/warn.example.com/v1beta1/olds')).status === 200, 'olds served');
    const missing = await s.api('GET', '/apis/warn.example.com/v1beta1/olds/nope');
    expect([missing.status, warningsOf(missing.headers)]).toEqual([404, ['olds go away']]);
    const badOptions = await s.api('POST', '/apis/warn.example.com/v1beta1/olds?dryRun=Some', { apiVersion: 'warn.example.com/v1beta1', kind: 'Old', metadata: { name: 'o' } });
    expect([badOptions.status, warningsOf(badOptions.headers)]).toEqual([422, ['olds go away']]);
    const cs = await s.api('GET', '/api/v1/componentstatuses/nope');
    expect([cs.status, warningsOf(cs.headers)]).toEqual([404, ['v1 ComponentStatus is deprecated in v1.19+']]);
  });

  it('a webhook\'s warnings come with its denial', async () => {
    const config = {
      apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'denier' },
      webhooks: [{
        name: 'deny.warn.example.com', clientConfig: { url: `${hook.base}/validate`, caBundle: hook.caBundle },
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
        objectSelector: { matchLabels: { deny: 'true' } }, sideEffects: 'None', admissionReviewVersions: ['v1'],
      }],
    };
    expect((await s.api('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', config)).status).toBe(201);
    let denied: Awaited<ReturnType<TestApiServer['api']>> | undefined;
    await until(async () => {
      denied = await s.api('POST', `${CONFIGMAPS}?dryRun=All`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'denied', labels: { deny: 'true' } } });
      return denied.status === 403;
    }, 'the webhook is called');
    expect(warningsOf(denied!.headers)).toEqual(['denied configmaps are noted']);
  });
});
