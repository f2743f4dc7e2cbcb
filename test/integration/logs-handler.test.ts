// /logs/ serves a directory as upstream's logs handler serves /var/log through Go's http.ServeFile: a listing of
// links, a file's bytes, Go's plain-text errors and redirects.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'logs-handler-'));
  await writeFile(join(dir, 'apiserver.log'), '{"level":30,"msg":"serving"}\n');
  await writeFile(join(dir, 'a<b>?.log'), 'x');
  await mkdir(join(dir, 'kubelet'));
  await writeFile(join(dir, 'kubelet', 'node-1.log'), 'started\n');
  s = await startTestApiServer({ storageBackend: 'memory', logsDir: dir });
});
afterAll(async () => {
  await s?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('/logs/', () => {
  it('lists a directory as Go does, after redirecting to its path with a slash', async () => {
    const bare = await s.api('GET', '/logs');
    expect([bare.status, bare.headers.location]).toEqual([301, 'logs/']);
    const list = await s.api('GET', '/logs/');
    expect([list.status, list.headers['content-type'], list.body]).toEqual([200, 'text/html; charset=utf-8',
      '<!doctype html>\n<meta name="viewport" content="width=device-width">\n<pre>\n'
      + '<a href="a%3Cb%3E%3F.log">a&lt;b&gt;?.log</a>\n<a href="apiserver.log">apiserver.log</a>\n<a href="kubelet/">kubelet/</a>\n</pre>\n']);
    expect((await s.api('GET', '/logs/kubelet')).headers.location).toBe('kubelet/');
    expect((await s.kubectl('get', '--raw', '/logs/kubelet/')).stdout).toContain('<a href="node-1.log">node-1.log</a>');
  });

  it('serves a file\'s bytes, sniffed as text', async () => {
    const log = await s.kubectl('get', '--raw', '/logs/apiserver.log');
    expect(log.stdout).toBe('{"level":30,"msg":"serving"}\n');
    const r = await s.api('GET', '/logs/kubelet/node-1.log');
    expect([r.status, r.headers['content-type'], r.headers['content-length'], r.body]).toEqual([200, 'text/plain; charset=utf-8', '8', 'started\n']);
    expect((await s.api('GET', '/logs/kubelet/node-1.log', undefined, { 'if-modified-since': new Date(Date.now() + 60_000).toUTCString() })).status).toBe(304);
  });

  it('answers what it cannot serve in Go\'s plain text', async () => {
    const missing = await s.api('GET', '/logs/nope.log');
    expect([missing.status, missing.headers['content-type'], missing.body]).toEqual([404, 'text/plain; charset=utf-8', '404 page not found\n']);
    expect((await s.api('GET', '/logs/apiserver.log/x')).status).toBe(404);
    expect((await s.api('GET', `/logs/${'x'.repeat(300)}`)).body).toBe('file not found\n');
    // an escaped slash keeps the client from resolving the dots; the path decoded, the server refuses them
    const up = await s.api('GET', '/logs/kubelet/..%2f..%2f..%2fetc%2fpasswd');
    expect([up.status, up.body]).toEqual([400, 'invalid URL path\n']);
    expect((await s.api('POST', '/logs/apiserver.log', {})).status).toBe(405);
  });
});

describe('the index at /', () => {
  it('lists the served paths sorted, /logs among them, as kubectl get --raw / prints them', async () => {
    const raw = await s.kubectl('get', '--raw', '/');
    expect(raw.stdout.startsWith('{\n  "paths": [\n    "/')).toBe(true);
    const { paths } = JSON.parse(raw.stdout) as { paths: string[] };
    expect(paths).toEqual([...paths].sort());
    for (const p of ['/api', '/api/v1', '/apis', '/apis/', '/apis/apps', '/apis/apps/v1', '/healthz', '/healthz/ping', '/readyz/shutdown', '/logs', '/metrics', '/openapi/v3', '/version']) {
      expect(paths).toContain(p);
    }
    expect((await s.api('GET', '/index.html')).body).toEqual({ paths });
  });
});

describe('the OpenAPI documents', () => {
  it('describe the logs handler and the service account issuer\'s discovery, as upstream publishes their web services', async () => {
    const index = (await s.api('GET', '/openapi/v3')).body as { paths: Record<string, { serverRelativeURL: string }> };
    expect(Object.keys(index.paths).filter((k) => !k.startsWith('api'))).toEqual(['.well-known/openid-configuration', 'logs', 'openid/v1/jwks', 'version']);
    const logs = (await s.api('GET', index.paths.logs!.serverRelativeURL)).body as { paths: Record<string, any> };
    expect(logs.paths).toEqual({
      '/logs/': { get: { operationId: 'logFileListHandler', responses: { '401': { description: 'Unauthorized' } }, tags: ['logs'] } },
      '/logs/{logpath}': {
        get: { operationId: 'logFileHandler', responses: { '401': { description: 'Unauthorized' } }, tags: ['logs'] },
        parameters: [{ description: 'path to the log', in: 'path', name: 'logpath', required: true, schema: { type: 'string', uniqueItems: true } }],
      },
    });
    const jwks = (await s.api('GET', index.paths['openid/v1/jwks']!.serverRelativeURL)).body as { paths: Record<string, any> };
    expect(jwks.paths['/openid/v1/jwks/'].get.responses['200'].content).toEqual({ 'application/jwk-set+json': { schema: { type: 'string' } } });
    // and in the Swagger 2.0 document, without a media type where the route declares none
    const v2 = (await s.api('GET', '/openapi/v2')).body as { paths: Record<string, any> };
    expect(v2.paths['/logs/'].get).toEqual({ schemes: ['https'], tags: ['logs'], operationId: 'logFileListHandler', responses: { '401': { description: 'Unauthorized' } } });
    expect(v2.paths['/.well-known/openid-configuration/'].get.produces).toEqual(['application/json']);
  });
});
