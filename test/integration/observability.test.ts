import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
let auditLog: string;
beforeAll(async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'mini-kube-obs-'));
  auditLog = join(dataDir, 'audit.log');
  s = await startTestApiServer({ storageBackend: 'memory', dataDir, auditLogPath: auditLog });
});
afterAll(async () => { await s?.close(); });

describe('metrics, health and audit', () => {
  it('counts requests by verb, resource and code in /metrics', async () => {
    await s.api('GET', '/api/v1/namespaces/default/configmaps/missing');
    const m = await s.api('GET', '/metrics');
    expect(m.status).toBe(200);
    expect(m.body).toMatch(/apiserver_request_total\{verb="GET",group="",version="v1",resource="configmaps",subresource="",code="404"\} 1/);
    expect(m.body).toMatch(/apiserver_current_inflight_requests\{request_kind="readOnly"\}/);
  });

  it('gauges the open watches by resource and scope (apiserver_longrunning_requests)', async () => {
    const gauge = async (): Promise<string | undefined> => {
      const m = String((await s.api('GET', '/metrics')).body);
      return /apiserver_longrunning_requests\{verb="WATCH",group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver"\} (\d+)/.exec(m)?.[1];
    };
    const stop = new AbortController();
    const res = await request(`${s.url}/api/v1/namespaces/default/configmaps?watch=true`, { dispatcher: s.agent, signal: stop.signal });
    expect(res.statusCode).toBe(200);
    expect(await gauge()).toBe('1');
    stop.abort();
    await res.body.dump().catch(() => {});
    for (const deadline = Date.now() + 10_000; (await gauge()) !== '0';) {
      if (Date.now() > deadline) throw new Error(`the gauge stayed at ${await gauge()} after the watch closed`);
      await new Promise((r) => setTimeout(r, 20));
    }
  });

  it('lists its checks on /readyz?verbose and answers one check alone', async () => {
    const r = await s.api('GET', '/readyz?verbose');
    expect(r.body).toMatch(/\[\+\]ping ok\n[\s\S]*readyz check passed/);
    expect((await s.api('GET', '/livez/ping')).body).toBe('ok');
  });

  it('writes one audit event per request', async () => {
    await s.api('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'audited' } });
    const lines = (await readFile(auditLog, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    const create = lines.find((e) => e.verb === 'create' && e.objectRef?.resource === 'configmaps');
    expect(create).toMatchObject({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', stage: 'ResponseComplete', level: 'Metadata', user: { username: 'kubernetes-admin' }, responseStatus: { code: 201 } });
    expect(create.objectRef).toMatchObject({ resource: 'configmaps', namespace: 'default', name: 'audited', apiVersion: 'v1' });
    expect(create.annotations).toEqual({ 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' });
    expect(create.requestObject).toBeUndefined();
    expect(lines.every((e) => e.stage === 'ResponseComplete')).toBe(true);
  });
});
