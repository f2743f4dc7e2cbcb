// Upstream's request deadline: a request that is not long-running is answered 504 Timeout once its `timeout`
// parameter or --request-timeout has passed; the write it was making is not stored (the webhook call holding it is
// cancelled); a webhook is told what is left; a bad `timeout` is a 400; watches are not cut.
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { startTestWebhook, type TestWebhook } from '../support/admission-webhook.js';

// what each test starts, closed after it
const running: Array<TestApiServer | TestWebhook> = [];
afterEach(async () => {
  for (const x of running.splice(0)) await x.close();
});

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' } });
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

describe('request deadline', () => {
  it('answers 504 Timeout past the timeout, stores nothing, and leaves watches alone', async () => {
    const server = await startTestApiServer({ controllers: [], requestTimeoutMs: 3_000 });
    running.push(server);
    // a webhook that answers a configmap named slow-* only after 10 s (its own timeout is 30 s)
    const hook = await startTestWebhook(async (_path, req) => {
      if (String(req.name).startsWith('slow')) await new Promise((r) => setTimeout(r, 10_000));
      return { uid: req.uid, allowed: true };
    });
    running.push(hook);
    const config = {
      apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'slow' },
      webhooks: [{
        name: 'slow.example.com', admissionReviewVersions: ['v1'], sideEffects: 'None', timeoutSeconds: 30, failurePolicy: 'Ignore',
        clientConfig: { url: `${hook.base}/validate`, caBundle: hook.caBundle },
        rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
      }],
    };
    expect((await server.api('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', config)).status).toBe(201);
    for (let i = 0; !hook.seen.some((r) => r.request.name === `probe-${i - 1}`); i++) {
      expect((await server.api('POST', CONFIGMAPS, configMap(`probe-${i}`))).status).toBe(201);
      expect(i).toBeLessThan(500);
    }
    // the webhook is told the server's bound, not its own 30 s
    expect(hook.seen.at(-1)!.query).toBe('timeout=3s');

    // the client's own timeout, shorter than the server's
    let started = Date.now();
    const short = await server.api('POST', `${CONFIGMAPS}?timeout=1s`, configMap('slow-1'));
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(short.status).toBe(504);
    expect(short.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Timeout', code: 504, details: {},
      message: 'Timeout: request did not complete within requested timeout - context deadline exceeded',
    });
    expect(hook.seen.at(-1)).toMatchObject({ query: 'timeout=1s', request: { name: 'slow-1' } });

    // none given (or more than the server's): the server's
    started = Date.now();
    expect((await server.api('POST', `${CONFIGMAPS}?timeout=1m`, configMap('slow-2'))).status).toBe(504);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
    // failurePolicy Ignore would have let the creates through: the deadline stopped them instead
    expect((await server.api('GET', `${CONFIGMAPS}/slow-1`)).status).toBe(404);
    expect((await server.api('GET', `${CONFIGMAPS}/slow-2`)).status).toBe(404);

    // a request answered in time is untouched; a watch outlives the server's timeout
    expect((await server.api('GET', `${CONFIGMAPS}?timeout=1s`)).status).toBe(200);
    started = Date.now();
    const watch = await request(`${server.url}${CONFIGMAPS}?watch=true&timeoutSeconds=4`, { dispatcher: server.agent });
    expect(watch.statusCode).toBe(200);
    await watch.body.text();
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_900);
  }, 30_000);

  it('refuses a timeout that is not a duration, as upstream words it', async () => {
    const s = await startTestApiServer({ controllers: [] });
    running.push(s);
    const bad = await s.api('GET', `${CONFIGMAPS}?timeout=abc`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ reason: 'BadRequest', message: 'invalid timeout specified in the request URL - time: invalid duration "abc"' });
    expect((await s.api('GET', `${CONFIGMAPS}?timeout=5`)).body.message).toBe('invalid timeout specified in the request URL - time: missing unit in duration "5"');
    expect((await s.api('GET', `${CONFIGMAPS}?timeout=5x`)).body.message).toBe('invalid timeout specified in the request URL - time: unknown unit "x" in duration "5x"');
    // zero or negative: no timeout of the client's own
    expect((await s.api('GET', `${CONFIGMAPS}?timeout=0s`)).status).toBe(200);
    expect((await s.api('GET', `${CONFIGMAPS}?timeout=-1s`)).status).toBe(200);
    // kubectl's --request-timeout sends it
    const got = await s.kubectl('get', 'configmaps', '--request-timeout=5s', '-v=6');
    expect(got.code).toBe(0);
    expect(got.stderr).toContain('timeout=5s');
  }, 30_000);
});
