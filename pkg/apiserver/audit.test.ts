import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { notFound } from '../apimachinery/errors.js';
import { createAudit } from './audit.js';
import { parsePolicy } from './audit-policy.js';
import { logSink } from './audit-sinks.js';
import { installErrorHandler } from './errors.js';
import './fastify-types.js';
import { requestInfo } from './request-info.js';

const dirs: string[] = [];
afterAll(async () => { await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))); });

describe('audit events', () => {
  it('records a handler\'s unexpected failure at the Panic stage instead of ResponseComplete, and a Status failure as it was sent', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mini-kube-audit-unit-'));
    dirs.push(dir);
    const log = join(dir, 'audit.log');
    const audit = createAudit([logSink({ path: log })], parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: Metadata, omitStages: [RequestReceived]}]'));
    const app = Fastify();
    installErrorHandler(app);
    app.addHook('onRequest', async (request, reply) => {
      request.info = requestInfo(request.method, request.url, {});
      request.user = { name: 'alice', groups: ['system:authenticated'] };
      audit.begin(request, reply);
    });
    app.addHook('onSend', async (request, reply, payload) => { audit.onSend(request, reply, payload); return payload; });
    app.addHook('onError', async (request, _reply, err) => { audit.onError(request, err); });
    app.get('/api/v1/namespaces/default/pods/boom', async () => { throw new TypeError('cannot read properties of undefined'); });
    app.get('/api/v1/namespaces/default/pods/gone', async () => { throw notFound({ group: '', resource: 'pods' }, 'gone'); });
    expect((await app.inject('/api/v1/namespaces/default/pods/boom')).statusCode).toBe(500);
    expect((await app.inject('/api/v1/namespaces/default/pods/gone')).statusCode).toBe(404);
    await app.close();
    await audit.close();
    const [boom, gone] = (await readFile(log, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(boom).toMatchObject({
      stage: 'Panic', verb: 'get', user: { username: 'alice' }, objectRef: { resource: 'pods', namespace: 'default', name: 'boom', apiVersion: 'v1' },
      responseStatus: { status: 'Failure', reason: 'InternalError', code: 500, message: 'APIServer panic\'d: cannot read properties of undefined' },
    });
    expect(gone).toMatchObject({ stage: 'ResponseComplete', responseStatus: { metadata: {}, status: 'Failure', reason: 'NotFound', code: 404, message: 'pods "gone" not found' } });
  });
});
