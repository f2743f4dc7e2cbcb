// Graceful termination as upstream's apiserver: /readyz fails once shutdown starts, new requests are refused while
// the ones in flight finish (a create held by a slow admission webhook still gets its 201 and is stored), watches
// end cleanly, and with --shutdown-send-retry-after new requests get 429 with Retry-After and a closed connection.
import { readFileSync } from 'node:fs';
import { connect } from 'node:http2';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { startTestWebhook, type TestWebhook } from '../support/admission-webhook.js';

let s: TestApiServer | undefined;
let hook: TestWebhook | undefined;
afterEach(async () => {
  await s?.close();
  await hook?.close();
  s = undefined;
  hook = undefined;
});

/** A webhook on configmaps that holds its answer for one named `slow` until released. */
async function slowWebhook(): Promise<{ release(): void; held: Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((r) => { release = r; });
  let onHeld!: () => void;
  const held = new Promise<void>((r) => { onHeld = r; });
  hook = await startTestWebhook(async (_path, req) => {
    if (req.name === 'slow') {
      onHeld();
      await released;
    }
    return { uid: req.uid, allowed: true };
  });
  return { release, held };
}

const webhookConfig = (base: string, caBundle: string) => ({
  apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'slow' },
  webhooks: [{
    name: 'slow.example.com', admissionReviewVersions: ['v1'], sideEffects: 'None', timeoutSeconds: 30,
    clientConfig: { url: `${base}/validate`, caBundle },
    rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
  }],
});

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' } });

/** Until the webhook is in force: a create passes through it (seen), as the apiserver's configuration source catches up. */
async function untilWebhookSeen(server: TestApiServer): Promise<void> {
  for (let i = 0; ; i++) {
    expect((await server.api('POST', '/api/v1/namespaces/default/configmaps', configMap(`probe-${i}`))).status).toBe(201);
    if (hook!.seen.some((r) => r.request.name === `probe-${i}`)) return;
    expect(i).toBeLessThan(500);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** GET /readyz?verbose on a fresh connection each time (as a load balancer probes). */
async function readyz(url: string, ca: string): Promise<{ status: number; body: string }> {
  const agent = new Agent({ connect: { ca }, pipelining: 0 });
  try {
    const res = await request(`${url}/readyz?verbose`, { dispatcher: agent });
    return { status: res.statusCode, body: await res.body.text() };
  } finally {
    await agent.destroy();
  }
}

/** A POST over HTTP/2 (as kubectl speaks), as the admin: its status and body. */
function postHttp2(server: TestApiServer, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const session = connect(server.url, {
    ca: readFileSync(server.pki.ca.cert), cert: readFileSync(server.pki.admin.cert), key: readFileSync(server.pki.admin.key),
  });
  return new Promise((resolve, reject) => {
    session.on('error', reject);
    const stream = session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/json' });
    let status = 0;
    let text = '';
    stream.on('response', (h) => { status = Number(h[':status']); });
    stream.setEncoding('utf8');
    stream.on('data', (d: string) => { text += d; });
    stream.on('end', () => { session.close(); resolve({ status, body: JSON.parse(text) }); });
    stream.on('error', reject);
    stream.end(JSON.stringify(body));
  });
}

describe('graceful shutdown', () => {
  it('fails /readyz, refuses new requests, lets the ones in flight finish and ends watches cleanly', async () => {
    s = await startTestApiServer({ controllers: [], shutdown: { delayMs: 1_500 } });
    const server = s;
    const { release, held } = await slowWebhook();
    expect((await server.api('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', webhookConfig(hook!.base, hook!.caBundle))).status).toBe(201);
    await untilWebhookSeen(server);
    const ca = readFileSync(server.pki.ca.cert, 'utf8');
    expect((await readyz(server.url, ca)).body).toContain('[+]shutdown ok');

    // A watch, and a create held in flight by the webhook.
    const watch = await request(`${server.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0`, { dispatcher: server.agent });
    const watched = watch.body.text();
    const created = server.api('POST', '/api/v1/namespaces/default/configmaps', configMap('slow'));
    await held;

    const closed = server.server.close();
    // During --shutdown-delay-duration: not ready, yet still serving.
    const probe = await readyz(server.url, ca);
    expect(probe.status).toBe(500);
    expect(probe.body).toContain('[-]shutdown failed: reason withheld');
    expect(probe.body).toContain('readyz check failed');
    expect((await readyz(server.url, ca)).body).not.toContain('[-]ping');

    // After it: new requests refused (503 on a connection still open, or no connection at all).
    const other = new Agent({ connect: { ca, cert: readFileSync(server.pki.admin.cert, 'utf8'), key: readFileSync(server.pki.admin.key, 'utf8') } });
    let refused: { status?: number; body?: any; error?: string } = {};
    for (let i = 0; !refused.status || refused.status === 200; i++) {
      try {
        const res = await request(`${server.url}/api/v1/namespaces/default/configmaps/probe-0`, { dispatcher: other });
        refused = { status: res.statusCode, body: await res.body.json() };
      } catch (e) {
        refused = { status: -1, error: (e as Error & { code?: string }).code };
        break;
      }
      expect(i).toBeLessThan(500);
      if (refused.status === 200) await new Promise((r) => setTimeout(r, 20));
    }
    // no connection at all: refused, or (a keep-alive connection closed as the request went out) reset
    if (refused.status === -1) expect(['ECONNREFUSED', 'ECONNRESET']).toContain(refused.error);
    else {
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ kind: 'Status', reason: 'ServiceUnavailable', message: 'apiserver is shutting down', code: 503 });
    }
    await other.destroy();

    // The held create finishes and is answered in full; the watch saw it and then ended without an error.
    release();
    const answer = await created;
    expect(answer.status).toBe(201);
    expect(answer.body.metadata.name).toBe('slow');
    const lines = (await watched).trim().split('\n').map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string } } });
    expect(lines.some((e) => e.type === 'ADDED' && e.object.metadata.name === 'slow')).toBe(true);
    await closed;

    // The acknowledged write is stored.
    const again = await startTestApiServer({ controllers: [], dataDir: server.dataDir });
    try {
      expect((await again.api('GET', '/api/v1/namespaces/default/configmaps/slow')).status).toBe(200);
    } finally {
      await again.stop();
    }
  });

  it('waits for a request in flight over HTTP/2 before it ends the watches', async () => {
    s = await startTestApiServer({ controllers: [] });
    const server = s;
    const { release, held } = await slowWebhook();
    expect((await server.api('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', webhookConfig(hook!.base, hook!.caBundle))).status).toBe(201);
    await untilWebhookSeen(server);
    const watch = await request(`${server.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0`, { dispatcher: server.agent });
    let watchEnded = false;
    const watched = watch.body.text().then((t) => { watchEnded = true; return t; });
    const created = postHttp2(server, '/api/v1/namespaces/default/configmaps', configMap('slow'));
    await held;
    const closed = server.server.close();
    // the drain waits for the held stream; the watches end only after it
    await new Promise((r) => setTimeout(r, 300));
    expect(watchEnded).toBe(false);
    release();
    const answer = await created;
    expect(answer.status).toBe(201);
    expect(answer.body.metadata.name).toBe('slow');
    expect(await watched).toContain('"name":"slow"');
    await closed;
  });

  it('with --shutdown-send-retry-after keeps listening and answers new requests 429 with Retry-After, closing the connection', async () => {
    s = await startTestApiServer({ controllers: [], shutdown: { sendRetryAfter: true } });
    const server = s;
    const { release, held } = await slowWebhook();
    expect((await server.api('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', webhookConfig(hook!.base, hook!.caBundle))).status).toBe(201);
    await untilWebhookSeen(server);
    const created = server.api('POST', '/api/v1/namespaces/default/configmaps', configMap('slow'));
    await held;
    const closed = server.server.close();

    const other = new Agent({ connect: { ca: readFileSync(server.pki.ca.cert, 'utf8'), cert: readFileSync(server.pki.admin.cert, 'utf8'), key: readFileSync(server.pki.admin.key, 'utf8') } });
    const res = await request(`${server.url}/api/v1/namespaces/default/configmaps`, { dispatcher: other });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.headers.connection).toBe('close');
    expect(await res.body.text()).toBe('The apiserver is shutting down, please try again later.\n');
    // health probes are still answered
    const ready = await request(`${server.url}/readyz`, { dispatcher: other });
    expect(ready.statusCode).toBe(500);
    expect(await ready.body.text()).toContain('[-]shutdown failed: reason withheld');
    await other.destroy();

    release();
    expect((await created).status).toBe(201);
    await closed;
  });
});
