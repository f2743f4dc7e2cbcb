// A conversion webhook that fails: reads of a version the stored objects must be converted to answer with
// upstream's webhookConverter error (a 500 with no reason), never with an object half converted; nothing failed
// is cached, so the webhook back up serves correct objects at once. A CRD whose new converter fails is served with
// it, and a restart with the webhook down still serves the resources.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCa, issueCertificate } from '../../pkg/pki/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { convert, type Obj } from './crd-conversion-support.js';

let s: TestApiServer;
let webhook: Server;
let port = 0;
let caBundle = '';
let reviews: Obj[] = [];
/** How the webhook answers a review (default: converts, v1 keeps spec.name, v2 spec.fullName). */
let answer: (review: Obj) => Obj;

const converting = (review: Obj): Obj => ({
  apiVersion: review.apiVersion, kind: 'ConversionReview',
  response: { uid: review.request.uid, result: { status: 'Success' }, convertedObjects: (review.request.objects as Obj[]).map((o) => convert(o, review.request.desiredAPIVersion)) },
});

const listen = (): Promise<void> => new Promise((r) => webhook.listen(port, '127.0.0.1', r));
const down = async (): Promise<void> => {
  webhook.closeAllConnections();
  await new Promise((r) => webhook.close(r));
};

beforeAll(async () => {
  s = await startTestApiServer({ authorizationModes: ['AlwaysAllow'] });
  const ca = await createCa('conversion-failure-ca', 1);
  const serving = await issueCertificate(ca, { subject: { commonName: 'webhook' }, usage: 'server', sans: ['127.0.0.1'], days: 1 });
  caBundle = Buffer.from(ca.cert.toString('pem')).toString('base64');
  answer = converting;
  webhook = createServer({ key: serving.keyPem, cert: serving.certPem }, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      const review = JSON.parse(body) as Obj;
      reviews.push({ ...review, url: req.url });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(answer(review)));
    });
  });
  await listen();
  port = (webhook.address() as AddressInfo).port;
});
afterAll(async () => {
  await s?.close();
  if (webhook.listening) await down();
});

const crd = (group: string, reviewVersions = '[v1]') => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.${group}}
spec:
  group: ${group}
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: ${reviewVersions}
      clientConfig: {url: "https://127.0.0.1:${port}/convert", caBundle: ${caBundle}}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {name: {type: string}}}}}}
  - name: v2
    served: true
    storage: false
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {fullName: {type: string}}}}}}
`;

async function setUp(group: string, reviewVersions?: string): Promise<void> {
  expect((await s.kubectlWithInput(crd(group, reviewVersions), 'apply', '-f', '-')).stderr).toBe('');
  expect((await s.kubectl('wait', '--for', 'condition=established', '--timeout=20s', `crd/widgets.${group}`)).code).toBe(0);
  const created = await s.api('POST', `/apis/${group}/v1/namespaces/default/widgets`, { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'w' }, spec: { name: 'alice' } });
  expect(created.status).toBe(201);
}

const refused = (group: string): string =>
  `conversion webhook for ${group}/v1, Kind=Widget failed: Post "https://127.0.0.1:${port}/convert?timeout=30s": dial tcp 127.0.0.1:${port}: connect: connection refused`;

describe('a failing conversion webhook', () => {
  it('fails reads with the conversion error, caches nothing wrong, and serves correct objects once it is back', async () => {
    const group = 'down.example.com';
    await setUp(group);
    const path = `/apis/${group}/v2/namespaces/default/widgets`;
    expect((await s.api('GET', `${path}/w`)).body.spec).toEqual({ fullName: 'alice' });

    await down();
    const patched = await s.api('PATCH', `/apis/${group}/v1/namespaces/default/widgets/w`, { spec: { name: 'bob' } }, { 'content-type': 'application/merge-patch+json' });
    expect(patched.status).toBe(200);
    for (const url of [`${path}/w`, path]) {
      const got = await s.api('GET', url);
      expect(got.status).toBe(500);
      expect(got.body).toMatchObject({ kind: 'Status', status: 'Failure', code: 500, message: refused(group) });
      expect(got.body.reason).toBeUndefined();
    }
    const kubectl = await s.kubectl('get', `widgets.v2.${group}`, 'w', '-o', 'json');
    expect(kubectl.code).not.toBe(0);
    expect(kubectl.stderr).toContain(`Error from server: ${refused(group)}`);

    await listen();
    const again = await s.api('GET', `${path}/w`);
    expect(again.status).toBe(200);
    expect(again.body.apiVersion).toBe(`${group}/v2`);
    expect(again.body.spec).toEqual({ fullName: 'bob' });
    expect((await s.api('GET', path)).body.items.map((o: Obj) => o.spec)).toEqual([{ fullName: 'bob' }]);
  });
});

describe('a CRD whose converter fails', () => {
  it('is served with its new converter at once, without retrying it in the background', async () => {
    const group = 'swap.example.com';
    await setUp(group);
    const path = `/apis/${group}/v2/namespaces/default/widgets/w`;
    expect((await s.api('GET', path)).body.spec).toEqual({ fullName: 'alice' });
    // The new converter's webhook refuses connections; a write makes the v2 cache convert again.
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    expect((await s.kubectlWithInput(crd(group).replace(`127.0.0.1:${port}`, `127.0.0.1:${closedPort}`), 'apply', '-f', '-')).code).toBe(0);
    const want = `conversion webhook for ${group}/v1, Kind=Widget failed: Post "https://127.0.0.1:${closedPort}/convert?timeout=30s": dial tcp 127.0.0.1:${closedPort}: connect: connection refused`;
    let got: Obj = {};
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
      await s.api('PATCH', `/apis/${group}/v1/namespaces/default/widgets/w`, { metadata: { labels: { at: String(Date.now()) } } }, { 'content-type': 'application/merge-patch+json' });
      got = await s.api('GET', path);
      if (got.status === 500) break;
    }
    expect(got.body.message).toBe(want);
    // the old converter is not used again
    reviews = [];
    await new Promise((r) => setTimeout(r, 1500));
    expect(reviews).toEqual([]);
    expect((await s.api('GET', `/apis/${group}/v1/namespaces/default/widgets/w`)).status).toBe(200);
  });

  it('still serves its resources after a restart with the webhook down', async () => {
    const group = 'restart.example.com';
    const first = await startTestApiServer({ authorizationModes: ['AlwaysAllow'] });
    try {
      expect((await first.kubectlWithInput(crd(group), 'apply', '-f', '-')).code).toBe(0);
      expect((await first.kubectl('wait', '--for', 'condition=established', '--timeout=20s', `crd/widgets.${group}`)).code).toBe(0);
      expect((await first.api('POST', `/apis/${group}/v1/namespaces/default/widgets`, { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'w' }, spec: { name: 'alice' } })).status).toBe(201);
      await first.stop();
      await down();
      const second = await startTestApiServer({ authorizationModes: ['AlwaysAllow'], dataDir: first.dataDir });
      try {
        const path = `/apis/${group}/v2/namespaces/default/widgets`;
        for (const url of [`${path}/w`, path]) {
          const got = await second.api('GET', url);
          expect(got.status).toBe(500);
          expect(got.body.message).toBe(refused(group));
        }
        expect((await second.api('GET', `/apis/${group}/v1/namespaces/default/widgets/w`)).body.spec).toEqual({ name: 'alice' });
        await listen();
        expect((await second.api('GET', `${path}/w`)).body.spec).toEqual({ fullName: 'alice' });
        expect((await second.api('GET', path)).body.items.map((o: Obj) => o.spec)).toEqual([{ fullName: 'alice' }]);
      } finally {
        await second.stop();
      }
    } finally {
      if (!webhook.listening) await listen();
      await first.close();
    }
  });
});

describe('a conversion webhook\'s answer', () => {
  const group = 'answers.example.com';
  const write = async (): Promise<Obj> => (await s.api('POST', `/apis/${group}/v2/namespaces/default/widgets`, { apiVersion: `${group}/v2`, kind: 'Widget', metadata: { name: 'x' }, spec: { fullName: 'x' } })).body;
  const failed = (why: string): string => `conversion webhook for ${group}/v2, Kind=Widget failed: ${why}`;
  beforeAll(async () => {
    await setUp(group, '[v9, v1beta1, v1]');
  });
  afterAll(() => { answer = converting; });

  it('is checked as upstream\'s webhookConverter checks it', async () => {
    reviews = [];
    answer = (r) => ({ apiVersion: r.apiVersion, kind: 'ConversionReview' });
    // the first version both sides speak is sent, with the client's timeout
    expect((await write()).message).toBe(failed('no response provided'));
    expect(reviews[0]).toMatchObject({ apiVersion: 'apiextensions.k8s.io/v1beta1', url: '/convert?timeout=30s' });
    // a v1beta1 answer's uid is not checked
    answer = (r) => ({ ...converting(r), response: { ...converting(r).response, uid: 'other' } });
    expect((await s.api('POST', `/apis/${group}/v2/namespaces/default/widgets`, { apiVersion: `${group}/v2`, kind: 'Widget', metadata: { name: 'b' }, spec: {} })).status).toBe(201);
  });

  it('of v1 must be a v1 ConversionReview for the request\'s uid that succeeded', async () => {
    await s.kubectlWithInput(crd(group), 'apply', '-f', '-');
    await new Promise((r) => setTimeout(r, 500));
    answer = (r) => ({ ...converting(r), apiVersion: 'apiextensions.k8s.io/v1beta1' });
    expect((await write()).message).toBe(failed('expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1beta1, Kind=ConversionReview'));
    answer = (r) => ({ apiVersion: r.apiVersion, kind: 'ConversionReview' });
    expect((await write()).message).toBe(failed('no response provided'));
    answer = (r) => ({ ...converting(r), response: { ...converting(r).response, uid: 'other' } });
    expect((await write()).message).toMatch(/^conversion webhook for answers\.example\.com\/v2, Kind=Widget failed: expected response\.uid="[0-9a-f-]{36}", got "other"$/);
    answer = (r) => ({ ...converting(r), response: { uid: r.request.uid, result: { status: 'Failure' } } });
    expect((await write()).message).toBe(failed('response.result.status was \'Failure\', not \'Success\''));
    answer = (r) => ({ ...converting(r), response: { uid: r.request.uid, result: { status: 'Failure', message: 'nope' } } });
    expect((await write()).message).toBe(failed('nope'));
  });

  it('may change only labels and annotations of the metadata', async () => {
    const renamed = (r: Obj): Obj => {
      const out = converting(r);
      out.response.convertedObjects[0].metadata.name = 'y';
      return out;
    };
    answer = renamed;
    expect((await write()).message).toBe(`conversion webhook for ${group}/v2, Kind=Widget returned invalid object: must have the same name: x != y`);
    answer = (r) => {
      const out = converting(r);
      out.response.convertedObjects[0].kind = 'Gadget';
      return out;
    };
    expect((await write()).message).toBe(`conversion webhook for ${group}/v2, Kind=Widget returned invalid object at index 0: invalid kind (expected Widget, received Gadget)`);
    answer = (r) => {
      const out = converting(r);
      Object.assign(out.response.convertedObjects[0].metadata, { labels: { a: 'b' }, generation: 99 });
      return out;
    };
    const created = await s.api('POST', `/apis/${group}/v2/namespaces/default/widgets`, { apiVersion: `${group}/v2`, kind: 'Widget', metadata: { name: 'z' }, spec: { fullName: 'z' } });
    expect(created.status).toBe(201);
    expect(created.body.metadata.labels).toEqual({ a: 'b' });
    expect(created.body.metadata.generation).toBe(1);
  });
});
