// The secure serving of `mini-kube scheduler` and `mini-kube controller-manager` as their own processes (the binary
// bundled from the current sources, each with its own client certificate): /healthz for anyone, /metrics and
// /configz for the admin (SubjectAccessReview), with the series upstream's components serve: the scheduler's
// framework, plugin, preemption and queue series after it bound pods, preempted for one and left one unschedulable.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Client } from '../../pkg/client/index.js';
import { writeKubeconfig } from '../../pkg/pki/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { bundleMain } from '../support/binary.js';
import { freePort } from '../../pkg/host/free-port.js';
import { controllerManagerKubeconfig, spawnControllerManager, type CmProcess } from './controllers-support.js';
import { adminClient, createNode, eventually, podObject, waitBound } from './scheduler-support.js';

let bundle: { main: string; cleanup(): Promise<void> } | undefined;
let api: TestApiServer;
let client: Client;
let admin: Agent;
let anonymous: Agent;
let scheduler: ChildProcess | undefined;
let cm: CmProcess | undefined;
const ports = { scheduler: 0, cm: 0 };

const get = async (port: number, path: string, agent: Agent): Promise<{ status: number; text: string }> => {
  const res = await request(`https://127.0.0.1:${port}${path}`, { dispatcher: agent });
  return { status: res.statusCode, text: await res.body.text() };
};

/** Polls a path until its body passes `ok`; the last answer is in the error. */
const until = async (port: number, path: string, agent: Agent, ok: (text: string) => boolean, what: string): Promise<string> => {
  let last = '';
  return eventually(async () => {
    const r = await get(port, path, agent);
    last = `${r.status} ${r.text.slice(0, 300)}`;
    return r.status === 200 && ok(r.text) ? r.text : undefined;
  }, 15_000, `${what} (last: ${last})`);
};

beforeAll(async () => {
  bundle = await bundleMain('mini-kube-serving-');
  api = await startTestApiServer();
  client = await adminClient(api);
  const [caPem, certPem, keyPem, adminCert, adminKey] = await Promise.all(
    [api.pki.ca.cert, api.pki.scheduler.cert, api.pki.scheduler.key, api.pki.admin.cert, api.pki.admin.key].map((p) => readFile(p, 'utf8')),
  );
  admin = new Agent({ connect: { rejectUnauthorized: false, cert: adminCert, key: adminKey } });
  anonymous = new Agent({ connect: { rejectUnauthorized: false } });
  const schedulerKubeconfig = join(api.dataDir, 'scheduler.kubeconfig');
  await writeKubeconfig(schedulerKubeconfig, { server: api.url, caPem: caPem!, certPem: certPem!, keyPem: keyPem!, user: 'system:kube-scheduler' });
  ports.scheduler = await freePort();
  ports.cm = await freePort();
  scheduler = spawn(process.execPath, [bundle.main, 'scheduler', '--kubeconfig', schedulerKubeconfig, '--secure-port', String(ports.scheduler), '--bind-address', '127.0.0.1'],
    { stdio: ['ignore', 'ignore', process.env.MINI_KUBE_TEST_LOG ? 'inherit' : 'ignore'] });
  cm = spawnControllerManager(bundle.main, await controllerManagerKubeconfig(api),
    ['--controllers', 'deployment,replicaset', '--secure-port', String(ports.cm), '--bind-address', '127.0.0.1']);
  await createNode(client, 'serving-n1');
}, 60_000);

afterAll(async () => {
  scheduler?.kill('SIGKILL');
  await cm?.stop('SIGKILL');
  await admin?.close();
  await anonymous?.close();
  await client?.close();
  await api?.close();
  await bundle?.cleanup();
});

it('the scheduler serves /healthz to anyone, and /metrics and /configz to the admin', async () => {
  await until(ports.scheduler, '/healthz', anonymous, (t) => t === 'ok', 'the scheduler\'s /healthz');
  await until(ports.scheduler, '/healthz?verbose', anonymous, (t) => t.includes('[+]leaderElection ok'), 'the leader election check');
  const forbidden = await get(ports.scheduler, '/metrics', anonymous);
  expect(forbidden.status).toBe(403);
  expect(JSON.parse(forbidden.text).message).toBe('forbidden: User "system:anonymous" cannot get path "/metrics"');

  await client.pods('default').create(podObject('serving-1'));
  expect(await waitBound(client, 'serving-1', 'default', 15_000)).toBe('serving-n1');
  const metrics = await until(ports.scheduler, '/metrics', admin, (t) => t.includes('scheduler_schedule_attempts_total{result="scheduled",profile="default-scheduler"} 1'), 'a scheduled attempt');
  expect(metrics).toContain('scheduler_pending_pods{queue="active"} 0');
  expect(metrics).toContain('scheduler_pod_scheduling_attempts_count 1');
  expect(metrics).toContain('scheduler_queue_incoming_pods_total{queue="active",event="PodAdd"} 1');
  expect(metrics).toContain('leader_election_master_status{name="kube-scheduler"} 1');
  expect(metrics).toMatch(/rest_client_requests_total\{code="201",method="POST",host="127\.0\.0\.1:\d+"\} \d+/);
  expect(metrics).toContain('process_resident_memory_bytes');
  const configz = JSON.parse((await get(ports.scheduler, '/configz', admin)).text);
  expect(configz.componentconfig).toMatchObject({ Parallelism: 16, LeaderElection: { LeaderElect: true, LeaseDuration: '15s', ResourceName: 'kube-scheduler' } });
  expect(configz.componentconfig.Profiles[0].SchedulerName).toBe('default-scheduler');
}, 30_000);

/** The value of the sample line `series` (name and labels as printed) in a /metrics text. */
const sampleOf = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

it('the scheduler serves its framework, plugin, preemption and unschedulable-pod series', async () => {
  const P = 'profile="default-scheduler"';
  await client.resource({ group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses', namespaced: false }).create({
    apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'serving-high' }, value: 1000,
  });
  // no node has pool=none: NodeAffinity rejects it for good, and preemption cannot help
  await client.pods('default').create(podObject('serving-nowhere', { spec: { nodeSelector: { pool: 'none' } } }));
  // serving-1 (100m) and the filler leave 400m of the node's 4 cpu
  await client.pods('default').create(podObject('serving-filler', { cpu: '3500m' }));
  expect(await waitBound(client, 'serving-filler', 'default', 15_000)).toBe('serving-n1');
  // the Priority admission plugin sees the new PriorityClass through its cache: retry until it does
  await eventually(() => client.pods('default').create(podObject('serving-vip', { cpu: '1', spec: { priorityClassName: 'serving-high' } })), 10_000, 'create serving-vip');
  await eventually(async () => (await client.pods('default').get('serving-vip')).status?.nominatedNodeName === 'serving-n1', 15_000, 'serving-vip nominated');
  // the kubelet's part: the victim goes away
  await eventually(async () => (await client.pods('default').get('serving-filler')).metadata?.deletionTimestamp, 10_000, 'the victim deleted');
  await client.pods('default').delete('serving-filler', { gracePeriodSeconds: 0 });
  expect(await waitBound(client, 'serving-vip', 'default', 15_000)).toBe('serving-n1');

  const text = await until(ports.scheduler, '/metrics', admin,
    (t) => sampleOf(t, `scheduler_framework_extension_point_duration_seconds_count{extension_point="Bind",status="Success",${P}}`) === 3, 'three bindings');
  const at = (series: string): number => {
    const v = sampleOf(text, series);
    if (v === undefined) throw new Error(`no ${series} in /metrics`);
    return v;
  };
  // preemption: every PostFilter run counts, one evicted one victim
  expect(at('scheduler_preemption_attempts_total')).toBeGreaterThanOrEqual(2);
  expect(at('scheduler_preemption_victims_count')).toBe(1);
  expect(at('scheduler_preemption_victims_bucket{le="1"}')).toBe(1);
  expect(at(`scheduler_framework_extension_point_duration_seconds_count{extension_point="PostFilter",status="Success",${P}}`)).toBe(1);
  expect(at(`scheduler_framework_extension_point_duration_seconds_count{extension_point="PostFilter",status="Unschedulable",${P}}`)).toBeGreaterThanOrEqual(1);
  // the pod nobody can take waits, counted under the plugin that rejected it
  expect(at(`scheduler_unschedulable_pods{plugin="NodeAffinity",${P}}`)).toBe(1);
  expect(at('scheduler_pending_pods{queue="unschedulable"}')).toBe(1);
  // every extension point of the cycles that bound a pod, once per pod
  for (const point of ['Reserve', 'Permit', 'PreBind', 'Bind', 'PostBind']) {
    expect(at(`scheduler_framework_extension_point_duration_seconds_count{extension_point="${point}",status="Success",${P}}`)).toBe(3);
  }
  const attempts = at(`scheduler_schedule_attempts_total{result="scheduled",${P}}`) + at(`scheduler_schedule_attempts_total{result="unschedulable",${P}}`);
  expect(at(`scheduler_framework_extension_point_duration_seconds_count{extension_point="PreFilter",status="Success",${P}}`)).toBe(attempts);
  expect(at('scheduler_scheduling_algorithm_duration_seconds_count')).toBe(attempts);
  expect(at(`scheduler_framework_extension_point_duration_seconds_count{extension_point="PreEnqueue",status="Success",${P}}`)).toBeGreaterThanOrEqual(4);
  // the SLI: serving-1 and the filler at their first attempt, the preemptor after the eviction
  expect(at('scheduler_pod_scheduling_sli_duration_seconds_count{attempts="1"}')).toBe(2);
  expect(text).toMatch(/^scheduler_pod_scheduling_sli_duration_seconds_count\{attempts="([2-9]|1[0-4]|15\+)"\} 1$/m);
  // evaluations: NodeAffinity filtered only the pod with a node selector (others skip it at PreFilter)
  expect(at(`scheduler_plugin_evaluation_total{plugin="NodeAffinity",extension_point="Filter",${P}}`)).toBeGreaterThanOrEqual(1);
  expect(at(`scheduler_plugin_evaluation_total{plugin="NodeResourcesFit",extension_point="Filter",${P}}`)).toBeGreaterThanOrEqual(4);
  expect(at(`scheduler_plugin_evaluation_total{plugin="NodeAffinity",extension_point="PreFilter",${P}}`)).toBeGreaterThanOrEqual(1);
  expect(text).toContain('# HELP scheduler_plugin_execution_duration_seconds [ALPHA] Duration for running a plugin at a specific extension point.');
  expect(text).toContain('# TYPE scheduler_plugin_execution_duration_seconds histogram');
  expect(text).toContain('# TYPE scheduler_permit_wait_duration_seconds histogram');
  expect(text).toContain(`scheduler_framework_extension_point_duration_seconds_bucket{extension_point="Bind",status="Success",${P},le="0.0001"}`);
  expect(text).not.toContain('scheduler_goroutines');
}, 60_000);

it('the controller-manager serves /healthz, and its work queues\' series on /metrics', async () => {
  await until(ports.cm, '/healthz', anonymous, (t) => t === 'ok', 'the controller-manager\'s /healthz');
  // as upstream's kube-controller-manager: /healthz alone, no /livez or /readyz, with a check per started controller
  expect((await get(ports.cm, '/readyz', anonymous)).status).toBe(404);
  const verbose = await until(ports.cm, '/healthz?verbose', anonymous, (t) => t.includes('[+]replicaset-controller ok'), 'the controllers\' checks');
  expect(verbose).toMatch(/^\[\+\]leaderElection ok\n(\[\+\][a-z-]+ ok\n)*\[\+\]deployment-controller ok\n/);
  const metrics = await until(ports.cm, '/metrics', admin,
    (t) => t.includes('workqueue_depth{name="deployment"}') && t.includes('leader_election_master_status{name="kube-controller-manager"} 1'), 'the work queues\' series');
  expect(metrics).toContain('workqueue_adds_total{name="replicaset"}');
  expect(metrics).toContain('# HELP workqueue_depth [BETA] Current depth of workqueue');
  expect(metrics).toMatch(/rest_client_request_duration_seconds_count\{verb="GET",host="127\.0\.0\.1:\d+"\} \d+/);
  const configz = JSON.parse((await get(ports.cm, '/configz', admin)).text);
  expect(configz['kubecontrollermanager.config.k8s.io'].DeploymentController).toEqual({ ConcurrentDeploymentSyncs: 5 });
  expect((await get(ports.cm, '/configz', anonymous)).status).toBe(403);
}, 30_000);

it('a second scheduler on a taken --secure-port exits 1 saying so, as upstream\'s', async () => {
  const schedulerKubeconfig = join(api.dataDir, 'scheduler.kubeconfig');
  const second = spawn(process.execPath, [bundle!.main, 'scheduler', '--kubeconfig', schedulerKubeconfig, '--secure-port', String(ports.scheduler), '--bind-address', '127.0.0.1'],
    { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  second.stderr!.on('data', (d: Buffer) => { log += d.toString(); });
  const code = await new Promise<number | null>((done) => second.on('exit', done));
  expect(code).toBe(1);
  expect(log).toContain(`failed to create listener: failed to listen on 127.0.0.1:${ports.scheduler}`);
  expect(log).toContain('choose another port with --secure-port, or 0 to serve none');
}, 30_000);
