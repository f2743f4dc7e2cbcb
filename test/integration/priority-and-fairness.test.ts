// API Priority and Fairness: requests classified by the FlowSchemas (the response headers name the schema and the
// level), queued beyond their level's seats and refused with 429 past the queue's length while other levels are
// served, a FlowSchema edited taking effect at once; and --enable-priority-and-fairness=false giving back the
// max-in-flight limit. Requests that hold a seat as long as the test wants go to an extension apiserver (an
// APIService) that answers only when told.
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCa, ensureFrontProxyPki, issueCertificate } from '../../pkg/pki/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { eventually } from './kubelet-support.js';

const GROUP = 'slow.example.com';
const THINGS = `/apis/${GROUP}/v1/namespaces/default/things`;

/** An extension apiserver whose `things` answer only when released, and the server it runs on. */
async function slowExtension(): Promise<{ server: Server; port: number; caBundle: string; held: () => number; release: () => void }> {
  const ca = await createCa('slow-ca', 1);
  const leaf = await issueCertificate(ca, { subject: { commonName: 'slow.default.svc' }, usage: 'server', sans: ['slow.default.svc'], days: 1 });
  const waiting: ServerResponse[] = [];
  const json = (res: ServerResponse, body: unknown): void => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };
  const server = createServer({ cert: leaf.certPem, key: leaf.keyPem }, (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === `/apis/${GROUP}/v1`) return json(res, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${GROUP}/v1`, resources: [{ name: 'things', namespaced: true, kind: 'Thing', verbs: ['list'] }] });
    if (path === THINGS) { waiting.push(res); return; }
    if (path === '/openapi/v3') return json(res, { paths: {} });
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    server, port: (server.address() as AddressInfo).port, caBundle: Buffer.from(ca.cert.toString('pem')).toString('base64'), held: () => waiting.length,
    release: () => { for (const res of waiting.splice(0)) json(res, { kind: 'ThingList', apiVersion: `${GROUP}/v1`, metadata: {}, items: [] }); },
  };
}

async function startWithExtension(o: { enablePriorityAndFairness: boolean }): Promise<{ s: TestApiServer; ext: Awaited<ReturnType<typeof slowExtension>> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mini-kube-apf-'));
  const front = await ensureFrontProxyPki(join(dataDir, 'pki'));
  // one seat in all: every Limited level gets ceil(1 × shares ÷ Σ shares) = 1
  const s = await startTestApiServer({
    dataDir, storageBackend: 'memory', maxRequestsInflight: 1, maxMutatingRequestsInflight: 0, enablePriorityAndFairness: o.enablePriorityAndFairness,
    proxyClientCertFile: front.client.cert, proxyClientKeyFile: front.client.key,
    requestHeader: { clientCaFile: front.ca.cert, allowedNames: ['front-proxy-client'], usernameHeaders: ['X-Remote-User'], groupHeaders: ['X-Remote-Group'], extraHeadersPrefix: ['X-Remote-Extra-'] },
  });
  const ext = await slowExtension();
  for (const [path, body] of [
    ['/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'slow' }, spec: { ports: [{ name: 'https', port: 443 }] } }],
    ['/api/v1/namespaces/default/endpoints', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'slow' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: ext.port }] }] }],
    ['/apis/apiregistration.k8s.io/v1/apiservices', {
      apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: `v1.${GROUP}` },
      spec: { group: GROUP, version: 'v1', service: { namespace: 'default', name: 'slow' }, caBundle: ext.caBundle, groupPriorityMinimum: 1000, versionPriority: 15 },
    }],
    // jane and bob may do anything; they are limited, not refused
    ['/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'users' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: ['jane', 'bob'].map((name) => ({ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name })),
    }],
  ] as const) {
    const r = await s.api('POST', path, body);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  }
  await eventually(async () => (await s.api('GET', `/apis/apiregistration.k8s.io/v1/apiservices/v1.${GROUP}`)).body.status?.conditions?.[0]?.status === 'True', 15_000, 'APIService available');
  return { s, ext };
}

async function stopBoth(s: TestApiServer | undefined, ext: Awaited<ReturnType<typeof slowExtension>> | undefined): Promise<void> {
  ext?.release();
  ext?.server.closeAllConnections();
  await new Promise((r) => ext ? ext.server.close(r) : r(undefined));
  await s?.close();
}

const as = (user: string): Record<string, string> => ({ 'impersonate-user': user });
const uidOf = async (s: TestApiServer, plural: string, name: string): Promise<string> =>
  (await s.api('GET', `/apis/flowcontrol.apiserver.k8s.io/v1/${plural}/${name}`)).body.metadata.uid;

describe('API Priority and Fairness', () => {
  let s: TestApiServer;
  let ext: Awaited<ReturnType<typeof slowExtension>>;

  beforeAll(async () => {
    ({ s, ext } = await startWithExtension({ enablePriorityAndFairness: true }));
    const r1 = await s.api('POST', '/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations', {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name: 'tiny' },
      spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1, limitResponse: { type: 'Queue', queuing: { queues: 1, handSize: 1, queueLengthLimit: 1 } } } },
    });
    expect(r1.status).toBe(201);
    const r2 = await s.api('POST', '/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas', {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name: 'jane' },
      spec: { priorityLevelConfiguration: { name: 'tiny' }, matchingPrecedence: 500, distinguisherMethod: { type: 'ByUser' },
        rules: [{ subjects: [{ kind: 'User', user: { name: 'jane' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }] }] },
    });
    expect(r2.status).toBe(201);
  }, 60_000);

  afterAll(() => stopBoth(s, ext));

  it('names the FlowSchema and priority level of every request in its response headers', async () => {
    const admin = await s.api('GET', '/api/v1/namespaces');
    expect(admin.headers['x-kubernetes-pf-flowschema-uid']).toBe(await uidOf(s, 'flowschemas', 'exempt'));
    expect(admin.headers['x-kubernetes-pf-prioritylevel-uid']).toBe(await uidOf(s, 'prioritylevelconfigurations', 'exempt'));
    const bob = await s.api('GET', '/api/v1/namespaces', undefined, as('bob'));
    expect(bob.status).toBe(200);
    expect(bob.headers['x-kubernetes-pf-flowschema-uid']).toBe(await uidOf(s, 'flowschemas', 'global-default'));
    const probe = await s.api('GET', '/readyz', undefined, as('bob'));
    expect(probe.headers['x-kubernetes-pf-flowschema-uid']).toBe(await uidOf(s, 'flowschemas', 'probes'));
    const node = await s.api('GET', '/api/v1/nodes', undefined, { 'impersonate-user': 'system:node:n1', 'impersonate-group': 'system:nodes' });
    expect(node.headers['x-kubernetes-pf-prioritylevel-uid']).toBe(await uidOf(s, 'prioritylevelconfigurations', 'node-high'));
  });

  it('queues past the level\'s seats, refuses past the queue\'s length, and serves other levels meanwhile', async () => {
    const first = s.api('GET', THINGS, undefined, as('jane'));
    await eventually(async () => ext.held() === 1, 5_000, 'the first request at the extension');
    const second = s.api('GET', THINGS, undefined, as('jane'));
    await eventually(async () => / ?tiny,\s+1,\s+false,\s+false,\s+1,\s+1,/.test((await s.api('GET', '/debug/api_priority_and_fairness/dump_priority_levels')).body), 5_000, 'one waiting, one executing');
    const third = await s.api('GET', THINGS, undefined, as('jane'));
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBe('1');
    expect(third.headers['x-kubernetes-pf-prioritylevel-uid']).toBe(await uidOf(s, 'prioritylevelconfigurations', 'tiny'));
    expect(third.body).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', message: 'Too many requests, please try again later.' });
    // another level's seat is free
    expect((await s.api('GET', '/api/v1/namespaces/default/configmaps', undefined, as('bob'))).status).toBe(200);
    expect(ext.held()).toBe(1);
    ext.release();
    expect((await first).status).toBe(200);
    await eventually(async () => ext.held() === 1, 5_000, 'the queued request dispatched');
    ext.release();
    expect((await second).status).toBe(200);
    const metrics = (await s.api('GET', '/metrics')).body as string;
    expect(metrics).toMatch(/apiserver_flowcontrol_rejected_requests_total\{priority_level="tiny",flow_schema="jane",reason="queue-full"\} 1/);
    expect(metrics).toMatch(/apiserver_flowcontrol_nominal_limit_seats\{priority_level="tiny"\} 1/);
    expect(metrics).toMatch(/apiserver_flowcontrol_dispatched_requests_total\{priority_level="tiny",flow_schema="jane"\} [2-9]/);
  });

  it('follows a FlowSchema edited, without a restart', async () => {
    const r = await s.api('PATCH', '/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas/jane', { spec: { priorityLevelConfiguration: { name: 'workload-low' } } }, { 'content-type': 'application/merge-patch+json' });
    expect(r.status).toBe(200);
    const low = await uidOf(s, 'prioritylevelconfigurations', 'workload-low');
    await eventually(async () => (await s.api('GET', '/api/v1/namespaces', undefined, as('jane'))).headers['x-kubernetes-pf-prioritylevel-uid'] === low, 5_000, 'jane in workload-low');
  });
});

describe('--enable-priority-and-fairness=false', () => {
  let s: TestApiServer;
  let ext: Awaited<ReturnType<typeof slowExtension>>;

  beforeAll(async () => { ({ s, ext } = await startWithExtension({ enablePriorityAndFairness: false })); }, 60_000);

  afterAll(() => stopBoth(s, ext));

  it('limits requests in flight as max-in-flight does: no headers, 429 past the limit, system:masters still served', async () => {
    const held = s.api('GET', THINGS, undefined, as('jane'));
    await eventually(async () => ext.held() === 1, 5_000, 'the request at the extension');
    const refused = await s.api('GET', '/api/v1/namespaces', undefined, as('bob'));
    expect(refused.status).toBe(429);
    expect(refused.headers['x-kubernetes-pf-flowschema-uid']).toBeUndefined();
    expect((await s.api('GET', '/api/v1/namespaces')).status).toBe(200);
    ext.release();
    expect((await held).status).toBe(200);
  });
});
