import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
    // the latency histogram of the same series: cumulative buckets, +Inf, sum and count
    const series = 'verb="GET",group="",version="v1",resource="configmaps",subresource=""';
    expect(m.body).toContain('# TYPE apiserver_request_duration_seconds histogram');
    expect(m.body).toContain(`apiserver_request_duration_seconds_bucket{${series},le="60"} 1`);
    expect(m.body).toContain(`apiserver_request_duration_seconds_bucket{${series},le="+Inf"} 1`);
    expect(m.body).toContain(`apiserver_request_duration_seconds_count{${series}} 1`);
    expect(m.body).toMatch(new RegExp(`^apiserver_request_duration_seconds_sum\\{${series}\\} [0-9.e-]+$`, 'm'));
    expect(m.body).toContain('# TYPE apiserver_request_total counter');
  });

  it('reports the most requests in flight during the last second (apiserver_current_inflight_requests)', async () => {
    const inflight = async (kind: string): Promise<number> =>
      Number(new RegExp(`^apiserver_current_inflight_requests\\{request_kind="${kind}"\\} (\\d+)$`, 'm').exec(String((await s.api('GET', '/metrics')).body))?.[1]);
    await Promise.all([s.api('GET', '/api/v1/namespaces'), s.api('POST', '/api/v1/namespaces/default/configmaps', { metadata: { generateName: 'inflight-' } })]);
    // the second they ran in is published once it is over (/metrics itself is not a resource request)
    await vi.waitFor(async () => {
      expect(await inflight('readOnly')).toBeGreaterThanOrEqual(1);
      expect(await inflight('mutating')).toBeGreaterThanOrEqual(1);
    }, { timeout: 5_000, interval: 100 });
  });

  it('counts the stored objects per resource (apiserver_storage_objects) and says what it is (kubernetes_build_info)', async () => {
    const stored = async (resource: string): Promise<number> =>
      Number(new RegExp(`^apiserver_storage_objects\\{resource="${resource.replace('.', '\\.')}"\\} (\\d+)$`, 'm').exec(String((await s.api('GET', '/metrics')).body))?.[1]);
    const before = await stored('configmaps');
    for (const name of ['counted-1', 'counted-2']) await s.api('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name } });
    expect(await stored('configmaps')).toBe(before + 2);
    expect(await stored('namespaces')).toBeGreaterThanOrEqual(4); // default, kube-system, kube-public, kube-node-lease
    await s.api('POST', '/apis/apps/v1/namespaces/default/deployments', {
      metadata: { name: 'counted' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
    });
    expect(await stored('deployments.apps')).toBe(1);
    const m = String((await s.api('GET', '/metrics')).body);
    expect(m).toMatch(/^kubernetes_build_info\{major="1",minor="32",git_version="v1\.32\.\d+[^"]*",git_commit="[0-9a-f]{40}",git_tree_state="clean",build_date="[^"]+",go_version="go[\d.]+",compiler="gc",platform="[a-z]+\/[a-z0-9]+"\} 1$/m);
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
    // upstream's order: ping, log, etcd, the post-start hooks; /readyz ends with shutdown
    const names = (body: string): string[] => body.split('\n').filter((l) => l.startsWith('[+]')).map((l) => l.slice(3, -3));
    const live = names((await s.api('GET', '/livez?verbose')).body as string);
    expect(live.slice(0, 3)).toEqual(['ping', 'log', 'etcd']);
    expect(live).toContain('poststarthook/rbac/bootstrap-roles');
    expect(live.slice(3).every((n) => n.startsWith('poststarthook/'))).toBe(true);
    expect(names((await s.api('GET', '/healthz?verbose')).body as string)).toEqual(live);
    expect(names(r.body as string)).toEqual([...live, 'shutdown']);
    expect((await s.api('GET', '/livez/log')).body).toBe('ok');
    expect((await s.api('GET', '/readyz/poststarthook/bootstrap-controller')).body).toBe('ok');
    expect((await s.api('GET', '/healthz/')).status).toBe(404);
  });

  it('marks excluded checks and warns of excluded names no check has, as handleRootHealth', async () => {
    const r = await s.api('GET', '/livez?verbose&exclude=ping&exclude=nosuch&exclude=also-none');
    expect(r.status).toBe(200);
    expect(r.body).toMatch(/^\[\+\]ping excluded: ok\n/);
    expect(r.body).toMatch(/\nwarn: some health checks cannot be excluded: no matches for "also-none","nosuch"\nlivez check passed\n$/);
    expect((await s.api('GET', '/livez?exclude=ping')).body).toBe('ok');
  });

  it('writes one audit event per request', async () => {
    await s.api('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'audited' } });
    // the event is written as the response completes on the server, which may be just after the client has it
    let lines: any[] = [];
    let create: any;
    for (const deadline = Date.now() + 5_000; !create && Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
      lines = (await readFile(auditLog, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
      create = lines.find((e) => e.verb === 'create' && e.objectRef?.resource === 'configmaps' && e.objectRef?.name === 'audited');
    }
    expect(create).toMatchObject({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', stage: 'ResponseComplete', level: 'Metadata', user: { username: 'kubernetes-admin' }, responseStatus: { code: 201 } });
    expect(create.objectRef).toMatchObject({ resource: 'configmaps', namespace: 'default', name: 'audited', apiVersion: 'v1' });
    expect(create.annotations).toEqual({ 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' });
    expect(create.requestObject).toBeUndefined();
    expect(lines.every((e) => e.stage === 'ResponseComplete')).toBe(true);
  });
});
