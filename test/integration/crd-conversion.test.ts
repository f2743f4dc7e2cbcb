// Several versions of one custom resource: one storage version, conversion by strategy None (apiVersion
// rewritten) and by a conversion webhook (ConversionReview v1 over HTTPS, trusted through caBundle) started by
// the test; the real kubectl reads and writes either version.
import { createServer, type Server } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCa, issueCertificate } from '../../pkg/pki/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { succeeded } from '../support/kubectl-run.js';
import { convert, type Obj } from './crd-conversion-support.js';

let s: TestApiServer;
let webhook: Server;
let caBundle = '';
let webhookUrl = '';
const reviews: { desiredAPIVersion: string; count: number }[] = [];

beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'] });
  const ca = await createCa('conversion-webhook-ca', 1);
  const serving = await issueCertificate(ca, { subject: { commonName: 'webhook' }, usage: 'server', sans: ['127.0.0.1', 'localhost'], days: 1 });
  const caPem = ca.cert.toString('pem');
  caBundle = Buffer.from(caPem).toString('base64');
  webhook = createServer({ key: serving.keyPem, cert: serving.certPem }, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      const review = JSON.parse(body) as Obj;
      const { uid, desiredAPIVersion, objects } = review.request;
      reviews.push({ desiredAPIVersion, count: objects.length });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({
        apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview',
        response: { uid, result: { status: 'Success' }, convertedObjects: (objects as Obj[]).map((o) => convert(o, desiredAPIVersion)) },
      }));
    });
  });
  await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
  webhookUrl = `https://127.0.0.1:${(webhook.address() as { port: number }).port}/convert`;
});
afterAll(async () => {
  await s?.close();
  await new Promise((r) => webhook?.close(r));
});

const ok = async (...args: string[]): Promise<string> => (await succeeded(s.kubectl(...args), args)).stdout;
const okWith = async (input: string, ...args: string[]): Promise<string> =>
  (await succeeded(s.kubectlWithInput(input, ...args), args)).stdout;

const crd = (group: string, conversion: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.${group}
spec:
  group: ${group}
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
${conversion}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              name: {type: string}
              size: {type: integer, default: 1}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              fullName: {type: string}
              size: {type: integer, default: 2}
`;

describe('custom resource conversion', () => {
  it('strategy None serves every version of the same objects with apiVersion rewritten', async () => {
    await okWith(crd('none.example.com', ''), 'apply', '-f', '-');
    await ok('wait', '--for', 'condition=established', '--timeout=20s', 'crd/widgets.none.example.com');
    await okWith('apiVersion: none.example.com/v2\nkind: Widget\nmetadata: {name: w}\nspec: {fullName: x}\n', 'create', '-f', '-');
    const v1 = await s.api('GET', '/apis/none.example.com/v1/namespaces/default/widgets/w');
    const v2 = await s.api('GET', '/apis/none.example.com/v2/namespaces/default/widgets/w');
    expect(v1.body.apiVersion).toBe('none.example.com/v1');
    expect(v2.body.apiVersion).toBe('none.example.com/v2');
    // Written through v2 (defaulted by v2's schema: size 2) and stored as v1, pruned by v1's schema as upstream
    // prunes a converted object: fullName is v2's alone.
    expect(v2.body.spec).toEqual({ size: 2 });
    expect(v1.body.spec).toEqual({ size: 2 });
    const crdObj = JSON.parse(await ok('get', 'crd', 'widgets.none.example.com', '-o', 'json'));
    expect(crdObj.status.storedVersions).toEqual(['v1']);
    expect(crdObj.spec.conversion).toEqual({ strategy: 'None' });
  });

  it('reads a version as upstream\'s storage codec: defaults of the stored version, then pruned by the version read', async () => {
    const layered = (aDefault: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: layers.layered.example.com}
spec:
  group: layered.example.com
  scope: Namespaced
  names: {plural: layers, singular: layer, kind: Layer}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {a: {type: string${aDefault}}, old: {type: string}}}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {a: {type: string, default: z}, b: {type: string, default: "y"}}}
`;
    await okWith(layered(''), 'apply', '-f', '-');
    await ok('wait', '--for', 'condition=established', '--timeout=20s', 'crd/layers.layered.example.com');
    await okWith('apiVersion: layered.example.com/v1\nkind: Layer\nmetadata: {name: l}\nspec: {old: o}\n', 'create', '-f', '-');
    const read = async (version: string): Promise<Obj> => (await s.api('GET', `/apis/layered.example.com/${version}/namespaces/default/layers/l`)).body.spec;
    // v1's field is not v2's, and v2's defaults are for what is written through v2
    expect(await read('v2')).toEqual({});
    expect(await read('v1')).toEqual({ old: 'o' });
    // a default of the stored version fills the stored object, in every version read
    await okWith(layered(', default: x'), 'apply', '-f', '-');
    for (const deadline = Date.now() + 10_000; (await read('v1')).a !== 'x';) {
      if (Date.now() > deadline) throw new Error('the new default was not served');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await read('v2')).toEqual({ a: 'x' });
  });

  it('strategy Webhook converts through a ConversionReview on reads, writes and watches', async () => {
    const conversion = `  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig:
        url: ${webhookUrl}
        caBundle: ${caBundle}`;
    await okWith(crd('hook.example.com', conversion), 'apply', '-f', '-');
    await ok('wait', '--for', 'condition=established', '--timeout=20s', 'crd/widgets.hook.example.com');
    await okWith('apiVersion: hook.example.com/v2\nkind: Widget\nmetadata: {name: w}\nspec: {fullName: alice}\n', 'apply', '-f', '-');
    expect(reviews.some((r) => r.desiredAPIVersion === 'hook.example.com/v1')).toBe(true);

    const asV1 = JSON.parse(await ok('get', 'widgets.v1.hook.example.com', 'w', '-o', 'json'));
    expect(asV1.apiVersion).toBe('hook.example.com/v1');
    expect(asV1.spec).toMatchObject({ name: 'alice' });
    expect(asV1.spec.fullName).toBeUndefined();
    const asV2 = JSON.parse(await ok('get', 'widgets.v2.hook.example.com', 'w', '-o', 'json'));
    expect(asV2.apiVersion).toBe('hook.example.com/v2');
    expect(asV2.spec).toMatchObject({ fullName: 'alice' });

    // A write through v1 is seen converted by v2 readers.
    await ok('patch', 'widgets.v1.hook.example.com', 'w', '--type=merge', '-p', '{"spec":{"name":"bob"}}');
    const list = await s.api('GET', '/apis/hook.example.com/v2/namespaces/default/widgets');
    expect(list.body.items.map((o: Obj) => [o.apiVersion, o.spec.fullName])).toEqual([['hook.example.com/v2', 'bob']]);
    const watch = await s.api('GET', '/apis/hook.example.com/v2/namespaces/default/widgets?watch=1&timeoutSeconds=1');
    // One event parses as one JSON document; more come as lines.
    const events = typeof watch.body === 'string' ? watch.body.trim().split('\n').map((l) => JSON.parse(l) as Obj) : [watch.body as Obj];
    expect(events.map((e) => [e.type, e.object.apiVersion, e.object.spec.fullName])).toEqual([['ADDED', 'hook.example.com/v2', 'bob']]);

    const del = await ok('delete', 'crd', 'widgets.hook.example.com', '--timeout=30s');
    expect(del).toContain('deleted');
  });
});
