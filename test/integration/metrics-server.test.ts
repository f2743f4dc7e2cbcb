// metrics-server end to end: the apiserver with its aggregator, a kubelet (fake runtime) serving /metrics/resource,
// and metrics-server in this process (scraping every second) registered as `up` registers it: `kubectl top` and
// `kubectl get` of the metrics kinds through the aggregator, the front proxy's identity believed, SubjectAccessReview
// deciding (the view role aggregates the reader role), the kubelet authorizing the scrape (nodes/metrics).
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { applyMetricsServerObjects } from '../../cmd/metrics-server-addon.js';
import { Client } from '../../pkg/client/index.js';
import { MetricsServer } from '../../pkg/metrics-server/index.js';
import { ensureFrontProxyPki, ensureMetricsServerPki } from '../../pkg/pki/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { createBound, eventually, nodeClient, pod, publishRootCa, type RunningKubelet, startKubelet } from './kubelet-support.js';

const NODE = 'node-metrics';

describe('metrics-server', () => {
  let api: TestApiServer;
  let admin: Client;
  let kubelet: RunningKubelet;
  let msClient: Client;
  const stop = new AbortController();

  beforeAll(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mini-kube-metrics-'));
    const front = await ensureFrontProxyPki(join(dataDir, 'pki'));
    api = await startTestApiServer({
      dataDir, proxyClientCertFile: front.client.cert, proxyClientKeyFile: front.client.key, controllers: ['serviceaccount', 'clusterrole-aggregation'],
      requestHeader: { clientCaFile: front.ca.cert, allowedNames: ['front-proxy-client'], usernameHeaders: ['X-Remote-User'], groupHeaders: ['X-Remote-Group'], extraHeadersPrefix: ['X-Remote-Extra-'] },
    });
    admin = await Client.fromKubeconfig(api.kubeconfig, { qps: 0 });
    await publishRootCa(api, admin);
    kubelet = startKubelet(await nodeClient(api, NODE), [NODE], {
      nodeIpFor: () => '127.0.0.1',
      server: { clientCa: await readFile(api.pki.ca.cert, 'utf8'), port: 0, address: '127.0.0.1', tokenWebhook: true },
    });
    await kubelet.host.whenRegistered();
    const pki = await ensureMetricsServerPki(api.pki.dir);
    const [caData, certData, keyData, cert, key] = await Promise.all([api.pki.ca.cert, pki.client.cert, pki.client.key, pki.serving.cert, pki.serving.key].map((p) => readFile(p, 'utf8')));
    msClient = new Client({ host: api.url, caData, certData, keyData, qps: 0 });
    const server = new MetricsServer({
      client: msClient, logger: pino({ name: 'metrics-server', level: process.env.MINI_KUBE_TEST_LOG ?? 'warn' }), resolutionMs: 1000,
      bindAddress: '127.0.0.1', port: 0, tls: { cert: cert!, key: key! },
      kubelet: { preferredAddressTypes: ['InternalIP'], port: 10250, useNodeStatusPort: true, insecure: true, cert: certData, key: keyData, timeoutMs: 5000 },
    });
    await applyMetricsServerObjects(admin, 443, caData!); // the RBAC first: the server reads its configuration at start
    const port = await server.start(stop.signal);
    await applyMetricsServerObjects(admin, port, caData!);
    for (const name of ['a', 'b']) {
      await createBound(admin, pod(name, { spec: { containers: [{ name: 'web', image: 'nginx' }, { name: 'sidecar', image: 'busybox', command: ['sleep', '3600'] }] } }), NODE);
    }
    await eventually(async () => (await admin.pods('default').list()).items.every((p) => p.status?.phase === 'Running'), 20_000, 'pods Running');
    // two scrapes after the containers started: every pod has a rate
    await eventually(async () => (await admin.rest.request<{ items: unknown[] }>({ method: 'GET', path: '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods' })).items.length === 2, 20_000, 'pod metrics');
  }, 60_000);

  afterAll(async () => {
    stop.abort();
    await kubelet?.stop();
    await msClient?.close();
    await admin?.close();
    await api?.close();
  });

  it('kubectl top node and top pod read the kubelets\' usage through the aggregated API', async () => {
    const apisvc = await eventually(async () => {
      const r = await api.kubectl('get', 'apiservice', 'v1beta1.metrics.k8s.io', '--no-headers');
      return /\sTrue\s/.test(r.stdout) ? r.stdout : undefined;
    }, 20_000, 'the APIService Available');
    expect(apisvc).toMatch(/^v1beta1\.metrics\.k8s\.io\s+kube-system\/metrics-server\s+True\s/);
    const nodes = await eventually(async () => { const r = await api.kubectl('top', 'node'); return r.code === 0 ? r.stdout : undefined; }, 20_000, 'kubectl top node');
    // the fake runtime: 10m and 4Mi per running container, the node the sum of its four; 4 CPUs and 8Gi allocatable
    expect(nodes).toMatch(/^NAME\s+CPU\(cores\)\s+CPU\(%\)\s+MEMORY\(bytes\)\s+MEMORY\(%\)\s*\n/);
    expect(nodes).toMatch(new RegExp(`\\n${NODE}\\s+40m\\s+1%\\s+16Mi\\s+0%\\s*\\n`));
    const pods = await api.kubectl('top', 'pod', '--containers');
    expect(pods.code, pods.stderr).toBe(0);
    expect(pods.stdout.trim().split('\n').map((l) => l.trim().split(/\s+/))).toEqual([
      ['POD', 'NAME', 'CPU(cores)', 'MEMORY(bytes)'],
      ['a', 'sidecar', '10m', '4Mi'], ['a', 'web', '10m', '4Mi'], ['b', 'sidecar', '10m', '4Mi'], ['b', 'web', '10m', '4Mi'],
    ]);
    const sorted = await api.kubectl('top', 'pod', '-A', '--sort-by=memory', '--no-headers');
    expect(sorted.stdout.trim().split('\n').map((l) => l.trim().split(/\s+/).slice(0, 4))).toEqual([['default', 'a', '20m', '8Mi'], ['default', 'b', '20m', '8Mi']]);
  });

  it('kubectl get lists the metrics kinds as tables and as objects', async () => {
    const table = await api.kubectl('get', 'podmetrics');
    expect(table.stdout).toMatch(/^NAME\s+CPU\s+MEMORY\s+WINDOW\n/);
    expect(table.stdout).toMatch(/\na\s+(\d+n|20m)\s+8Mi\s+\d+(\.\d+)?(ms|s)\n/);
    const node = JSON.parse((await api.kubectl('get', 'nodes.metrics.k8s.io', NODE, '-o', 'json')).stdout);
    expect(node).toMatchObject({ kind: 'NodeMetrics', apiVersion: 'metrics.k8s.io/v1beta1', metadata: { name: NODE, labels: { 'kubernetes.io/hostname': NODE } }, usage: { memory: '16Mi' } });
    expect(node.window).toMatch(/^\d+(\.\d+)?(ms|s)$/);
    const missing = await api.kubectl('get', 'podmetrics', 'nope');
    expect(missing.stderr).toContain('Error from server (NotFound): pods "nope" not found');
    const explain = await eventually(async () => { const r = await api.kubectl('explain', 'nodemetrics.usage'); return r.code === 0 ? r.stdout : undefined; }, 10_000, 'explain');
    expect(explain).toMatch(/GROUP:\s+metrics\.k8s\.io\s+KIND:\s+NodeMetrics\s+VERSION:\s+v1beta1/);
    expect(explain).toContain('The memory and CPU usage of the node.');
    const resources = await api.kubectl('api-resources', '--api-group=metrics.k8s.io', '--no-headers');
    expect(resources.stdout.trim().split('\n').map((l) => l.trim().split(/\s+/))).toEqual([
      ['nodes', 'metrics.k8s.io/v1beta1', 'false', 'NodeMetrics'], ['pods', 'metrics.k8s.io/v1beta1', 'true', 'PodMetrics'],
    ]);
  });

  it('authorizes each user by SubjectAccessReview: forbidden without a role, allowed with view', async () => {
    const denied = await api.kubectl('top', 'pod', '--as=jane');
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain('pods.metrics.k8s.io is forbidden: User "jane" cannot list resource "pods" in API group "metrics.k8s.io" in the namespace "default"');
    expect((await api.kubectl('create', 'rolebinding', 'jane-view', '--clusterrole=view', '--user=jane')).code).toBe(0);
    // the aggregated reader role joins view; metrics-server keeps a denial 10 s, as upstream's delegating authorizer
    const allowed = await eventually(async () => { const r = await api.kubectl('top', 'pod', '--as=jane', '--no-headers'); return r.code === 0 ? r.stdout : undefined; }, 20_000, 'jane allowed');
    expect(allowed).toMatch(/^a\s+20m\s+8Mi/);
  }, 30_000);

  it('the Python client reads the API as custom objects', async () => {
    const script = 'import sys,json\nfrom kubernetes import client, config\nconfig.load_kube_config(sys.argv[1])\nprint(json.dumps([i["metadata"]["name"] for i in client.CustomObjectsApi().list_namespaced_custom_object("metrics.k8s.io","v1beta1","default","pods")["items"]]))';
    const out = await new Promise<string | undefined>((resolve) => execFile('/usr/bin/python3', ['-c', script, api.kubeconfig], (err, stdout) => resolve(err ? undefined : stdout)));
    if (out === undefined) return; // no python3-kubernetes on this machine
    expect(JSON.parse(out)).toEqual(['a', 'b']);
  });
});
