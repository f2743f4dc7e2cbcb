// The secure serving of components (scheduler, controller-manager, metrics-server) against a real apiserver: who is
// asking (client certificate of the cluster CA, bearer token, anonymous) and what they may see (always-allowed health
// paths, SubjectAccessReview for the rest), with upstream's 401/403 answers; the health checks and /configz.
import { readFile } from 'node:fs/promises';
import { pino } from 'pino';
import { Registry, Counter } from 'prom-client';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../../test/support/apiserver.js';
import { Client } from './client.js';
import { RateLimitingQueue } from './workqueue/rate-limiting.js';
import { setWorkQueueMetricsProvider } from './workqueue/queue.js';
import { componentMetrics, workQueueMetrics } from './component-metrics.js';
import { healthResponse, SecureServer } from './secure-serving.js';

let api: TestApiServer;
let client: Client;
let base = '';
let healthy = true;
const stop = new AbortController();
const agents: Agent[] = [];

const agentFor = async (pair?: { cert: string; key: string }): Promise<Agent> => {
  const tls = pair ? { cert: await readFile(pair.cert, 'utf8'), key: await readFile(pair.key, 'utf8') } : {};
  const agent = new Agent({ connect: { rejectUnauthorized: false, ...tls } });
  agents.push(agent);
  return agent;
};

const get = async (path: string, agent: Agent, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> => {
  const res = await request(`${base}${path}`, { dispatcher: agent, headers });
  return { status: res.statusCode, text: await res.body.text() };
};

beforeAll(async () => {
  api = await startTestApiServer({ controllers: [] });
  client = await Client.fromKubeconfig(api.kubeconfig);
  const registry = new Registry();
  new Counter({ name: 'test_things_total', help: 'Things.', registers: [registry] }).inc(3);
  const server = new SecureServer({
    client, logger: pino({ level: 'silent' }), bindAddress: '127.0.0.1', port: 0, metrics: registry,
    configz: () => ({ componentconfig: { Parallelism: 16 } }),
    health: { healthz: [{ name: 'leaderElection', check: () => healthy }], livez: [], readyz: [{ name: 'leaderElection', check: () => healthy }, { name: 'sched-handler-sync', check: () => true }] },
  });
  base = `https://127.0.0.1:${await server.start(stop.signal)}`;
}, 60_000);

afterAll(async () => {
  stop.abort();
  await Promise.all(agents.map((a) => a.close()));
  await client?.close();
  await api?.close();
});

describe('secure serving', () => {
  it('serves the health paths to anonymous users, with ?verbose listing the checks', async () => {
    const anonymous = await agentFor();
    expect(await get('/healthz', anonymous)).toEqual({ status: 200, text: 'ok' });
    expect(await get('/livez', anonymous)).toEqual({ status: 200, text: 'ok' });
    expect((await get('/healthz?verbose', anonymous)).text).toBe('[+]leaderElection ok\nhealthz check passed\n');
    expect((await get('/livez?verbose', anonymous)).text).toBe('[+]ping ok\nlivez check passed\n');
    // only the paths themselves are always allowed: a single check is authorized as any other path
    expect((await get('/readyz/sched-handler-sync', anonymous)).status).toBe(403);
    expect((await get('/readyz/sched-handler-sync', await agentFor(api.pki.admin))).text).toBe('ok');
    healthy = false;
    expect(await get('/healthz', anonymous)).toEqual({ status: 500, text: '[-]leaderElection failed: reason withheld\nhealthz check failed\n' });
    healthy = true;
  });

  it('refuses anonymous users what is not always allowed, as upstream words it', async () => {
    const res = await get('/metrics', await agentFor());
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text)).toMatchObject({
      kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Forbidden', code: 403,
      message: 'forbidden: User "system:anonymous" cannot get path "/metrics"',
    });
  });

  it('serves /metrics and /configz to a client certificate the SubjectAccessReview allows', async () => {
    const admin = await agentFor(api.pki.admin);
    const metrics = await get('/metrics', admin);
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('test_things_total 3');
    const configz = await get('/configz', admin);
    expect(JSON.parse(configz.text)).toEqual({ componentconfig: { Parallelism: 16 } });
  });

  it('refuses a certificate user without the permission, and a token the apiserver does not know (401)', async () => {
    const scheduler = await get('/metrics', await agentFor(api.pki.scheduler));
    expect(scheduler.status).toBe(403);
    expect(JSON.parse(scheduler.text).message).toBe('forbidden: User "system:kube-scheduler" cannot get path "/metrics"');
    const token = await get('/metrics', await agentFor(), { authorization: 'Bearer not-a-token' });
    expect(token.status).toBe(401);
    expect(JSON.parse(token.text)).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
  });
});

describe('health answers', () => {
  it('answers a single check, skips an excluded one, and is 404 for an unknown one', async () => {
    const checks = [{ name: 'a', check: () => true }, { name: 'b', check: () => false }];
    expect(await healthResponse('readyz', checks, '/readyz/a', new URLSearchParams())).toEqual({ code: 200, body: 'ok' });
    expect(await healthResponse('readyz', checks, '/readyz', new URLSearchParams('exclude=b'))).toEqual({ code: 200, body: 'ok' });
    expect(await healthResponse('readyz', checks, '/readyz/c', new URLSearchParams())).toBeUndefined();
    expect((await healthResponse('readyz', checks, '/readyz', new URLSearchParams()))?.body).toBe('[+]a ok\n[-]b failed: reason withheld\nreadyz check failed\n');
  });
});

describe('component metrics', () => {
  it('feeds the workqueue series of a named queue, and the leader status', async () => {
    const m = componentMetrics();
    setWorkQueueMetricsProvider(workQueueMetrics(m.registry));
    try {
      const q = new RateLimitingQueue<string>({ name: 'deployment' });
      q.add('a');
      q.add('b');
      const { item } = await q.get();
      q.addRateLimited('c');
      m.leader.leaderOn('kube-controller-manager');
      m.client.requestResult?.({ verb: 'GET', host: '127.0.0.1:6443', path: '/api', code: 200, latencyMs: 5 });
      m.client.requestResult?.({ verb: 'GET', host: '127.0.0.1:6443', path: '/api', code: 0, latencyMs: 5 });
      const text = await m.registry.metrics();
      expect(text).toContain('workqueue_depth{name="deployment"} 1');
      expect(text).toContain('workqueue_adds_total{name="deployment"} 2');
      expect(text).toContain('workqueue_retries_total{name="deployment"} 1');
      expect(text).toMatch(/workqueue_unfinished_work_seconds\{name="deployment"\} \d/);
      expect(text).toMatch(/workqueue_longest_running_processor_seconds\{name="deployment"\} \d/);
      expect(text).toContain('workqueue_queue_duration_seconds_count{name="deployment"} 1');
      expect(text).toContain('leader_election_master_status{name="kube-controller-manager"} 1');
      expect(text).toContain('rest_client_requests_total{code="200",method="GET",host="127.0.0.1:6443"} 1');
      expect(text).toContain('rest_client_requests_total{code="<error>",method="GET",host="127.0.0.1:6443"} 1');
      expect(text).toContain('rest_client_request_duration_seconds_count{verb="GET",host="127.0.0.1:6443"} 2');
      expect(text).toContain('process_cpu_user_seconds_total');
      q.done(item!);
      q.shutDown();
    } finally {
      setWorkQueueMetricsProvider(undefined);
    }
  });
});
