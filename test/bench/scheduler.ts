// `node dist/test/bench/scheduler.js [--quick]` (after `npm run build`): the scheduler benchmark, in the spirit of
// upstream's scheduler_perf SchedulingBasic 5000Nodes_10000Pods. The apiserver runs as a child process
// (`mini-kube apiserver`, LevelDB, fsync'd writes); this process creates 5,000 Node objects, then runs the
// scheduler (pkg/scheduler, in this process, talking HTTPS to the apiserver) and:
//   1. streaming: 10,000 pods created by 64 clients while the scheduler runs; creation-to-binding latency
//      (create acknowledged → binding acknowledged) p50/p99, and pods bound per second over the whole run;
//   2. backlog: 10,000 more pods created while no scheduler runs, then a fresh scheduler binds them all;
//      pods bound per second from its caches' sync to the last binding (what the scheduler itself can do).
import { loadavg, cpus, tmpdir } from 'node:os';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { Client } from '../../pkg/client/index.js';
import { Scheduler, parseConfiguration } from '../../pkg/scheduler/index.js';
import { registerSchedulerMetrics } from '../../pkg/scheduler/metrics.js';
import { call, closedLoop, createNamespaces, percentile, pool } from './load.js';
import { freePort, memoryOf, readTls, startServer } from './processes.js';
import { compiledMain } from '../../cmd/package-info.js';

const MAIN = compiledMain(); // the shipped bundle (npm run build)
const quick = process.argv.includes('--quick');
const N = { nodes: quick ? 500 : 5_000, pods: quick ? 1_000 : 10_000, clients: 64 };

const log = (msg: string): void => { process.stderr.write(`[bench-scheduler ${new Date().toISOString().slice(11, 19)}] ${msg}\n`); };
const fmt = (v: number, d = 0): string => v.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

const zones = 10;
const nodeName = (i: number): string => `node-${String(i).padStart(5, '0')}`;
const nodeBody = (i: number): string => {
  const name = nodeName(i);
  const r = { cpu: '32', memory: '128Gi', pods: '110', 'ephemeral-storage': '100Gi' };
  return JSON.stringify({
    apiVersion: 'v1', kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'topology.kubernetes.io/zone': `zone-${i % zones}` } },
    status: { capacity: r, allocatable: r, conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }] },
  });
};

const podBody = (ns: string, i: number): string => JSON.stringify({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name: `pod-${String(i).padStart(5, '0')}`, namespace: ns, labels: { app: 'bench', group: `g${i % 100}` } },
  spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9', resources: { requests: { cpu: '100m', memory: '500Mi' } } }] },
});

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'mini-kube-bench-sched-'));
  const dataDir = join(work, 'data');
  const pki = join(dataDir, 'pki');
  const loadStart = loadavg().map((l) => l.toFixed(1)).join(' ');
  const port = await freePort();
  log(`apiserver: starting (load average ${loadStart})`);
  // TaintNodesByCondition off, as upstream's scheduler_perf has it: no node lifecycle controller here lifts the
  // not-ready taint of the nodes the bench creates
  const api = await startServer('apiserver', [MAIN, 'apiserver', '--data-dir', dataDir, '--secure-port', String(port), '--max-requests-inflight', '0',
    '--max-mutating-requests-inflight', '0', '--disable-admission-plugins', 'TaintNodesByCondition'], port, () => readTls(pki));
  const tls = (await readTls(pki))!;
  const p = pool(api.origin, tls, N.clients);
  const [caPem, certPem, keyPem] = await Promise.all(['ca.crt', 'admin.crt', 'admin.key'].map((f) => readFile(join(pki, f), 'utf8')));
  const rows: [string, string][] = [];
  try {
    log(`creating ${N.nodes} nodes`);
    const nodes = await closedLoop({ concurrency: N.clients, maxOps: N.nodes, maxMs: 600_000 }, async (i) => {
      // create drops status (as upstream): it is written through nodes/status, as a kubelet does
      const body = nodeBody(i);
      await call(p, 'POST', '/api/v1/nodes', body);
      await call(p, 'PUT', `/api/v1/nodes/${nodeName(i)}/status`, body);
    });
    if (nodes.errors) throw new Error(`node creation failed: ${nodes.firstError}`);
    rows.push(['nodes created (64 clients)', `${fmt(N.nodes)} in ${fmt(nodes.ms / 1000, 1)} s (${fmt(nodes.rate)}/s)`]);
    await createNamespaces(p, ['bench1', 'bench2']);

    // One scheduler run: resolves when `expected` pods are bound.
    const config = parseConfiguration({ clientConnection: { qps: 5000, burst: 5000 } });
    const runScheduler = (expected: number, bound: Map<string, number>): { synced: Promise<number>; done: Promise<number>; stop: () => Promise<void>; scheduler: Scheduler } => {
      const client = new Client({ host: api.origin, caData: caPem!, certData: certPem!, keyData: keyPem!, qps: 0 });
      let syncedAt = 0;
      let resolveSynced!: (t: number) => void;
      let resolveDone!: (t: number) => void;
      const synced = new Promise<number>((r) => { resolveSynced = r; });
      const done = new Promise<number>((r) => { resolveDone = r; });
      // the Prometheus series as `mini-kube scheduler` registers them: their cost is part of the scheduler's
      const observer = registerSchedulerMetrics(new Registry(), () => scheduler.queue);
      const scheduler = new Scheduler({
        client, config, observer, logger: pino({ name: 'scheduler', level: process.env.BENCH_LOG ?? 'warn' }, pino.destination(2)),
        onSynced: () => { syncedAt = performance.now(); resolveSynced(syncedAt); },
        onBound: (pod) => {
          bound.set(`${pod.metadata?.namespace}/${pod.metadata?.name}`, performance.now());
          if (bound.size >= expected) resolveDone(performance.now());
        },
      });
      const ac = new AbortController();
      const running = scheduler.run(ac.signal);
      const progress = setInterval(() => {
        const q = scheduler.queue.stats();
        log(`  bound ${bound.size}/${expected}; queue active ${q.active} backoff ${q.backoff} unschedulable ${q.unschedulable}; ${JSON.stringify(scheduler.metrics)}`);
      }, 5000);
      return { synced, done, scheduler, stop: async () => { clearInterval(progress); ac.abort(); await running; await client.close(); } };
    };

    // 1. Streaming: the scheduler runs while pods are created.
    const created = new Map<string, number>();
    const bound1 = new Map<string, number>();
    const s1 = runScheduler(N.pods, bound1);
    await s1.synced;
    log(`streaming: creating ${N.pods} pods with the scheduler running`);
    const t0 = performance.now();
    const creates = await closedLoop({ concurrency: N.clients, maxOps: N.pods, maxMs: 900_000 }, async (i) => {
      await call(p, 'POST', '/api/v1/namespaces/bench1/pods', podBody('bench1', i));
      created.set(`bench1/pod-${String(i).padStart(5, '0')}`, performance.now());
    });
    if (creates.errors) throw new Error(`pod creation failed: ${creates.firstError}`);
    const tEnd = await Promise.race([s1.done, new Promise<number>((_, rej) => setTimeout(() => rej(new Error(`streaming: only ${bound1.size} bound after 10 min`)), 600_000))]);
    const lat = [...bound1].map(([k, t]) => t - (created.get(k) ?? t)).sort((a, b) => a - b);
    const m1 = s1.scheduler.metrics;
    await s1.stop();
    rows.push(['pods created (64 clients), scheduler running', `${fmt(N.pods)} in ${fmt(creates.ms / 1000, 1)} s (${fmt(creates.rate)}/s)`]);
    rows.push(['streaming: pods bound per second (first create → last binding)', `${fmt((N.pods / (tEnd - t0)) * 1000)}/s`]);
    rows.push(['streaming: creation-to-binding latency p50 / p90 / p99', `${fmt(percentile(lat, 50))} / ${fmt(percentile(lat, 90))} / ${fmt(percentile(lat, 99))} ms`]);
    rows.push(['streaming: scheduling attempts / unschedulable / errors', `${m1.attempts} / ${m1.unschedulable} / ${m1.errors}`]);
    rows.push(['streaming: scheduling algorithm time per pod (filter + score)', `${fmt(m1.algorithmMs / Math.max(1, m1.attempts), 2)} ms`]);

    // 2. Backlog: pods wait, then a fresh scheduler binds them all.
    log(`backlog: creating ${N.pods} pods with no scheduler`);
    const creates2 = await closedLoop({ concurrency: N.clients, maxOps: N.pods, maxMs: 900_000 }, (i) => call(p, 'POST', '/api/v1/namespaces/bench2/pods', podBody('bench2', i)));
    if (creates2.errors) throw new Error(`pod creation failed: ${creates2.firstError}`);
    const bound2 = new Map<string, number>();
    const startAt = performance.now();
    const s2 = runScheduler(N.pods, bound2);
    const syncedAt = await s2.synced;
    const cpu0 = process.cpuUsage();
    log(`backlog: scheduler synced in ${fmt(syncedAt - startAt)} ms; binding`);
    const end2 = await Promise.race([s2.done, new Promise<number>((_, rej) => setTimeout(() => rej(new Error(`backlog: only ${bound2.size} bound after 10 min`)), 600_000))]);
    const cpu = process.cpuUsage(cpu0);
    const m2 = s2.scheduler.metrics;
    const mem = process.memoryUsage().rss / 1024 / 1024;
    await s2.stop();
    rows.push(['backlog: scheduler start → caches synced (nodes + the pods of both phases)', `${fmt(syncedAt - startAt)} ms`]);
    rows.push(['backlog: pods bound per second (synced → last binding)', `${fmt((N.pods / (end2 - syncedAt)) * 1000)}/s (${fmt((end2 - syncedAt) / 1000, 1)} s)`]);
    rows.push(['backlog: scheduler CPU per pod (this process, user + system, synced → last binding)', `${fmt((cpu.user + cpu.system) / 1000 / N.pods, 2)} ms`]);
    rows.push(['backlog: scheduling attempts / unschedulable / errors', `${m2.attempts} / ${m2.unschedulable} / ${m2.errors}`]);
    rows.push(['backlog: scheduling algorithm time per pod (filter + score)', `${fmt(m2.algorithmMs / Math.max(1, m2.attempts), 2)} ms (${fmt(1000 / Math.max(0.001, m2.algorithmMs / Math.max(1, m2.attempts)))} pods/s of algorithm alone)`]);
    rows.push(['apiserver RSS at the end / this process (scheduler + load)', `${fmt((await memoryOf(api.pid)).rssMb)} MB / ${fmt(mem)} MB`]);
  } finally {
    await p.close();
    await api.stop();
    await rm(work, { recursive: true, force: true });
  }
  const loadEnd = loadavg().map((l) => l.toFixed(1)).join(' ');
  const width = Math.max(...rows.map(([k]) => k.length));
  process.stdout.write(`\nscheduler benchmark: ${N.nodes} nodes, ${N.pods} pods per phase; ${cpus().length} CPUs, node ${process.version}; load average ${loadStart} → ${loadEnd}\n\n`);
  for (const [k, v] of rows) process.stdout.write(`${k.padEnd(width)}  ${v}\n`);
  process.stdout.write(`\n| metric | value |\n| --- | --- |\n${rows.map(([k, v]) => `| ${k} | ${v} |`).join('\n')}\n`);
}

main().then(() => process.exit(0), (e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
