import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from './clock.js';
import { Client } from './client.js';
import { isConflict, isNotFound, StatusError } from './errors.js';
import { RestClient } from './rest.js';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
let server: Server;
let url: string;
let handler: Handler = (_q, _b, res) => res.end();
const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => { seen.push({ method: req.method!, url: req.url!, headers: req.headers, body }); handler(req, body, res); });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** A clock whose sleeps return at once and are recorded. */
const instant = (sleeps: number[]): Clock => ({
  now: () => Date.now(),
  setTimer: (fn) => { const t = setImmediate(fn); return { cancel: () => clearImmediate(t) }; },
  sleep: async (ms) => { sleeps.push(ms); },
});

const json = (res: ServerResponse, code: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(code, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};
const status = (code: number, reason: string, message: string) => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code, reason, message });

describe('RestClient', () => {
  it('sends the user agent and bearer token, and builds paths and queries', async () => {
    seen.length = 0;
    handler = (_q, _b, res) => json(res, 200, { kind: 'PodList', metadata: { resourceVersion: '5' }, items: [] });
    const c = new Client({ host: url, bearerToken: 'tok', userAgent: 'test-agent/1', qps: 0 });
    const list = await c.pods('ns1').list({ labelSelector: 'app=x', limit: 10 });
    expect(list.metadata.resourceVersion).toBe('5');
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/api/v1/namespaces/ns1/pods?labelSelector=app%3Dx&limit=10' });
    expect(seen[0]!.headers).toMatchObject({ authorization: 'Bearer tok', 'user-agent': 'test-agent/1', accept: 'application/json' });
    await c.deployments().list();
    expect(seen[1]!.url).toBe('/apis/apps/v1/deployments');
    await c.close();
  });

  it('turns Status bodies into StatusErrors and bare failures into generic ones', async () => {
    const c = new Client({ host: url, qps: 0 });
    handler = (_q, _b, res) => json(res, 404, status(404, 'NotFound', 'pods "x" not found'));
    const e = await c.pods('d').get('x').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(StatusError);
    expect(isNotFound(e)).toBe(true);
    expect((e as StatusError).message).toBe('pods "x" not found');
    handler = (_q, _b, res) => { res.writeHead(409); res.end('nope'); };
    const e2 = await c.pods('d').create({ metadata: { name: 'x' } }).catch((x: unknown) => x);
    expect(isConflict(e2)).toBe(true);
    await c.close();
  });

  // client-go's with_retry.go checkWait: a 429 or 5xx is retried (any verb) only when it carries Retry-After, after
  // waiting its seconds; without it the answer is final.
  it('retries 429 and 5xx with Retry-After for any verb after its seconds, and nothing without it', async () => {
    const sleeps: number[] = [];
    const c = new Client({ host: url, qps: 0, clock: instant(sleeps) });
    let n = 0;
    handler = (_q, _b, res) => (++n < 3 ? json(res, 429, status(429, 'TooManyRequests', 'slow down'), { 'retry-after': '2' }) : json(res, 201, { metadata: { name: 'x' } }));
    await c.configMaps('d').create({ metadata: { name: 'x' } });
    expect(n).toBe(3);
    expect(sleeps).toEqual([2000, 2000]);
    n = 0;
    handler = (_q, _b, res) => (++n < 2 ? json(res, 503, status(503, 'ServiceUnavailable', 'busy'), { 'retry-after': '0' }) : json(res, 200, { metadata: { name: 'x' } }));
    await c.configMaps('d').create({ metadata: { name: 'x' } });
    expect(n).toBe(2);
    expect(sleeps).toEqual([2000, 2000, 0]);
    for (const [code, verb] of [[503, 'get'], [500, 'create'], [429, 'get']] as const) {
      n = 0;
      handler = (_q, _b, res) => { n++; json(res, code, status(code, 'InternalError', 'oops')); };
      await expect(verb === 'get' ? c.configMaps('d').get('y') : c.configMaps('d').create({ metadata: { name: 'y' } })).rejects.toThrow('oops');
      expect(n).toBe(1);
    }
    await c.close();
  });

  // client-go's request(): a GET is retried on a connection reset or closed (EOF), a second later; nothing else is,
  // a write's lost connection included.
  it('retries a GET when the connection drops, a second later, and gives up after maxRetries; never a write', async () => {
    const sleeps: number[] = [];
    const c = new Client({ host: url, qps: 0, clock: instant(sleeps), maxRetries: 2 });
    let n = 0;
    handler = (req, _b, res) => { if (++n < 2) req.socket.destroy(); else json(res, 200, { metadata: { name: 'x' } }); };
    expect((await c.nodes().get('x')).metadata?.name).toBe('x');
    expect(sleeps).toEqual([1000]);
    n = 0;
    handler = (req) => { n++; req.socket.resetAndDestroy(); };
    await expect(c.nodes().get('x')).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(n).toBe(3);
    for (const write of [() => c.nodes().update({ metadata: { name: 'x' } }), () => c.nodes().delete('x')]) {
      n = 0;
      await expect(write()).rejects.toThrow();
      expect(n).toBe(1);
    }
    await c.close();
  });

  it('fails a GET to a refused port at once, as client-go (connection refused is not retried)', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const sleeps: number[] = [];
    const c = new Client({ host: `http://127.0.0.1:${port}`, qps: 0, clock: instant(sleeps) });
    await expect(c.leases('kube-system').get('kube-scheduler')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await expect(c.pods('d').watch()).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(sleeps).toEqual([]);
    await c.close();
  });

  it('retries a watch whose connection closes before its headers, as client-go\'s Watch (probable EOF)', async () => {
    const sleeps: number[] = [];
    const c = new Client({ host: url, qps: 0, clock: instant(sleeps) });
    let n = 0;
    handler = (req, _b, res) => { if (++n < 2) req.socket.destroy(); else { res.writeHead(200, { 'content-type': 'application/json' }); res.end(); } };
    const w = await c.pods('d').watch();
    w.stop();
    expect(n).toBe(2);
    expect(sleeps).toEqual([1000]);
    await c.close();
  });

  it('speaks YAML and every patch type; apply needs a fieldManager', async () => {
    seen.length = 0;
    handler = (req, _b, res) => {
      if (req.headers.accept === 'application/yaml') { res.writeHead(200, { 'content-type': 'application/yaml' }); res.end('metadata:\n  name: "y"\n'); return; }
      json(res, 200, { metadata: { name: 'p' } });
    };
    const c = new Client({ host: url, qps: 0 });
    expect(await c.configMaps('d').create({ metadata: { name: 'y' } }, { format: 'yaml' })).toEqual({ metadata: { name: 'y' } });
    expect(seen[0]!.headers['content-type']).toBe('application/yaml');
    expect(seen[0]!.body).toContain('kind: ConfigMap');
    const cm = c.configMaps('d');
    await cm.patch('p', 'json', [{ op: 'add', path: '/data/a', value: '1' }]);
    await cm.patch('p', 'merge', { data: { a: '1' } });
    await cm.patch('p', 'strategic', { data: { a: '1' } });
    await cm.apply({ metadata: { name: 'p' }, data: { a: '1' } }, { fieldManager: 'me', force: true });
    expect(seen.slice(1).map((s) => s.headers['content-type'])).toEqual([
      'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml']);
    expect(seen[4]!.url).toBe('/api/v1/namespaces/d/configmaps/p?fieldManager=me&force=true');
    expect(JSON.parse(seen[4]!.body)).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
    expect(() => cm.patch('p', 'apply', {})).toThrow(/fieldManager/);
    await c.close();
  });

  it('createMeta and patchMeta send what create and patch send and read back only the identity', async () => {
    seen.length = 0;
    handler = (_q, _b, res) => json(res, 201, {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-x7k2p', generateName: 'web-', namespace: 'd', uid: 'u1', resourceVersion: '7', labels: { name: 'label' } },
      spec: { containers: [{ name: 'c' }] },
    });
    const pods = new Client({ host: url, qps: 0 }).pods('d');
    expect(await pods.createMeta({ metadata: { generateName: 'web-' } })).toEqual({ name: 'web-x7k2p', namespace: 'd', uid: 'u1', resourceVersion: '7' });
    expect(await pods.patchMeta('web-x7k2p', 'merge', { status: { phase: 'Running' } }, { subresource: 'status' })).toMatchObject({ resourceVersion: '7' });
    expect(seen.map((r) => [r.method, r.url, r.headers['content-type']])).toEqual([
      ['POST', '/api/v1/namespaces/d/pods', 'application/json'],
      ['PATCH', '/api/v1/namespaces/d/pods/web-x7k2p/status', 'application/merge-patch+json'],
    ]);
    expect(JSON.parse(seen[0]!.body)).toEqual({ apiVersion: 'v1', kind: 'Pod', metadata: { generateName: 'web-' } });
    handler = (_q, _b, res) => json(res, 409, status(409, 'Conflict', 'the object has been modified'));
    await expect(pods.patchMeta('web-x7k2p', 'merge', {})).rejects.toSatisfy(isConflict);
  });

  it('rate-limits on the client with a token bucket and reports metrics', async () => {
    handler = (_q, _b, res) => json(res, 200, {});
    const results: number[] = [];
    const waits: number[] = [];
    const rest = new RestClient({
      host: url, qps: 1000, burst: 1,
      metrics: { requestResult: (r) => results.push(r.code), rateLimiterLatency: (r) => waits.push(r.latencyMs) },
    });
    await Promise.all([1, 2, 3].map(() => rest.request({ method: 'GET', path: '/x' })));
    expect(results).toEqual([200, 200, 200]);
    expect(waits.filter((w) => w > 0).length).toBeGreaterThanOrEqual(1);
    await rest.close();
  });

  it('aborts with the signal', async () => {
    handler = () => { /* never answers */ };
    const c = new Client({ host: url, qps: 0 });
    const ac = new AbortController();
    const p = c.pods('d').get('x', { signal: ac.signal });
    setTimeout(() => ac.abort(), 10);
    await expect(p).rejects.toThrow(/abort/i);
    await c.close().catch(() => undefined);
  });

  it('aborts with the signal while it is still connecting (undici itself waits out its 10 s connect timeout)', async () => {
    // takes the connection and never speaks TLS: an apiserver port held by something else, or one still starting
    const silent = createNetServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const c = new Client({ host: `https://127.0.0.1:${(silent.address() as AddressInfo).port}`, qps: 0, insecureSkipTLSVerify: true });
    const ac = new AbortController();
    const p = c.nodes().get('n', { signal: ac.signal });
    const started = Date.now();
    setTimeout(() => ac.abort(), 50);
    await expect(p).rejects.toThrow(/abort/i);
    expect(Date.now() - started).toBeLessThan(2_000);
    void c.close();
    silent.close();
  });

  it('finds built-in resources by apiVersion and plural', async () => {
    const { builtinResource } = await import('./client.js');
    expect(await builtinResource('apps/v1', 'deployments')).toEqual({ group: 'apps', version: 'v1', resource: 'deployments', namespaced: true, kind: 'Deployment' });
    expect(await builtinResource('v1', 'nodes')).toMatchObject({ group: '', namespaced: false, kind: 'Node' });
    expect(await builtinResource('v1', 'nope')).toBeUndefined();
  });
});
