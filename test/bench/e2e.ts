// `node dist/test/bench/e2e.js [--quick] [nodes] [pods] [process]` (after `npm run build`): the kubelet and
// end-to-end benchmarks of issue 5, each against a fresh cluster of separate processes (test/bench/e2e-cluster.ts):
//   nodes:   `mini-kube kubelet --runtime fake --nodes 10000` (one process); kubelet start → every Node Ready=True
//            (observed by a watch on nodes);
//   pods:    apiserver, controller-manager, scheduler and one fake kubelet for 1,000 nodes; once they are Ready with
//            their podCIDR (node-ipam's), 10 Deployments × 1,000 replicas created at once; first create → every pod Running (watch on pods), and pod start-up latency
//            as the SLO measures it: creation (the pod's ADDED event, ms precision) → Running observed via watch;
//   process: the same chain with one kubelet on the process runtime; 20 busybox pods' start-up latency;
//   churn:   one fake node; rounds of a Deployment and ConfigMaps made and deleted; the apiserver's memory as they go;
//   up:      `mini-kube up` (one process-runtime node, DNS, proxy, metrics-server): start → its `ready:` line, on a
//            new data dir once, then on the kept one (median).
// BENCH_CPU_PROF=<dir> runs every process under `node --cpu-prof` (profiles written when they stop);
// BENCH_APISERVER_ARGS="--flag=value ..." gives the pods step's apiserver extra flags (to compare settings);
// BENCH_E2E_LIMIT_S: how long a step may take before it reports what it reached (default 120, --quick 60).
import { spawn } from 'node:child_process';
import { cpus, loadavg, tmpdir } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { call, median, percentile, pool } from './load.js';
import { cpuSecondsOf, memoryOf } from './processes.js';
import { startCluster, type Cluster, type ClusterOptions } from './e2e-cluster.js';
import { objectName, stringField, watchLines } from './e2e-watch.js';
import { compiledMain } from '../../cmd/package-info.js';

const MAIN = compiledMain(); // the shipped bundle (npm run build)
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const steps = args.filter((a) => !a.startsWith('--'));
const want = (s: string): boolean => !steps.length || steps.includes(s);
const N = {
  nodes: quick ? 1_000 : 10_000,
  podNodes: quick ? 100 : 1_000,
  deployments: 10,
  replicas: quick ? 100 : 1_000,
  processPods: quick ? 5 : 20,
  churnRounds: quick ? 30 : 200,
  upWarmStarts: quick ? 1 : 5,
  /** How long a step may run before it reports what it reached. */
  limitMs: Number(process.env.BENCH_E2E_LIMIT_S ?? (quick ? 60 : 120)) * 1000,
};
/**
 * Client rate limits of the controller-manager and scheduler for the pods step, as clusters at this scale set them
 * (kube-controller-manager --kube-api-qps=5000 --kube-api-burst=10000); the defaults (20/30 and 50/100) alone would
 * take 500 s to create 10,000 pods. The multi-node fake kubelet is unlimited (cmd/kubelet.ts).
 */
const scaleLimits = ['--kube-api-qps', '5000', '--kube-api-burst', '10000'];

const log = (msg: string): void => { process.stderr.write(`[bench-e2e ${new Date().toISOString().slice(11, 19)}] ${msg}\n`); };
const fmt = (v: number, d = 0): string => (Number.isNaN(v) ? '—' : v.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }));
const secs = (ms: number): string => `${fmt(ms / 1000, 1)} s`;

interface Row { metric: string; value: string; target: string; ok?: boolean }
const rows: Row[] = [];

async function withCluster<T>(o: Omit<ClusterOptions, 'main' | 'dataDir' | 'log'>, fn: (c: Cluster) => Promise<T>): Promise<T> {
  const work = await mkdtemp(join(tmpdir(), 'mini-kube-bench-e2e-'));
  let cluster: Cluster | undefined;
  try {
    cluster = await startCluster({ ...o, main: MAIN, dataDir: join(work, 'data'), log });
    return await fn(cluster);
  } catch (e) {
    if (cluster) log(`failed; process logs:\n${await cluster.logs()}`);
    throw e;
  } finally {
    await cluster?.stop();
    if (process.env.BENCH_KEEP) log(`kept ${work}`);
    else await rm(work, { recursive: true, force: true });
  }
}

/** CPU seconds each process of the cluster uses from now until the returned function is called (from its start if later). */
const cpuMeter = async (c: Cluster): Promise<() => Promise<string>> => {
  const procs = (): { name: string; pid: number }[] => [{ name: 'apiserver', pid: c.api.pid }, ...c.children];
  const cpu = (pid: number): Promise<number> => cpuSecondsOf(pid).catch(() => NaN);
  const before = new Map(await Promise.all(procs().map(async (p) => [p.pid, await cpu(p.pid)] as const)));
  return async () => (await Promise.all(procs().map(async (p) => `${p.name} ${fmt((await cpu(p.pid)) - (before.get(p.pid) ?? 0), 1)}`))).join(', ');
};

/**
 * apiserver_request_total summed by verb and resource[/subresource], and the seconds those requests took
 * (apiserver_request_duration_seconds_sum, key + " seconds"), from the apiserver's /metrics.
 */
const requestCounts = async (c: Cluster): Promise<Map<string, number>> => {
  const p = pool(c.api.origin, c.tls, 1);
  try {
    const text = (await call(p, 'GET', '/metrics')).toString('utf8');
    const counts = new Map<string, number>();
    for (const m of text.matchAll(/^apiserver_request_(total|duration_seconds_sum)\{([^}]*)\} ([\d.e+-]+)/gm)) {
      const label = (k: string): string => new RegExp(`${k}="([^"]*)"`).exec(m[2]!)?.[1] ?? '';
      const key = `${label('verb')} ${label('resource')}${label('subresource') ? `/${label('subresource')}` : ''}${m[1] === 'total' ? '' : ' seconds'}`;
      counts.set(key, (counts.get(key) ?? 0) + Number(m[3]));
    }
    return counts;
  } finally {
    await p.destroy();
  }
};

/** The requests made between two requestCounts, per pod, largest first, with their mean latency. */
const requestsPerPod = (before: Map<string, number>, after: Map<string, number>, pods: number): string => {
  const delta = (k: string): number => (after.get(k) ?? 0) - (before.get(k) ?? 0);
  const diff = [...after.keys()].filter((k) => !k.endsWith(' seconds')).map((k) => [k, delta(k)] as const).filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]);
  const total = diff.reduce((n, [, v]) => n + v, 0);
  return `${fmt(total / pods, 2)}: ${diff.slice(0, 6).map(([k, v]) => `${k} ${fmt(v / pods, 2)} (mean ${fmt((1000 * delta(`${k} seconds`)) / v)} ms)`).join(', ')}`;
};

const rss = async (pid: number): Promise<string> => {
  const m = await memoryOf(pid).catch(() => ({ rssMb: NaN, peakMb: NaN }));
  return `${fmt(m.rssMb)} MB (peak ${fmt(m.peakMb)})`;
};

/** Resolves when `done()` holds after a watch line (poke), or rejects at the deadline with `progress()`. */
const until = (check: { done: () => boolean; progress: () => string }, ms: number, ended: Promise<void>): { poke: () => void; reached: Promise<void> } => {
  let resolveIt!: () => void;
  let timer: NodeJS.Timeout | undefined;
  const ticker = setInterval(() => log(`  ${check.progress()}`), 5_000);
  const reached = new Promise<void>((res, rej) => {
    resolveIt = res;
    timer = setTimeout(() => rej(new Error(`not reached within ${ms / 1000} s: ${check.progress()}`)), ms);
    ended.catch(rej);
  }).finally(() => { clearTimeout(timer); clearInterval(ticker); });
  return { poke: () => { if (check.done()) resolveIt(); }, reached };
};

interface NodeEvent { object: { metadata: { name: string }; spec?: { podCIDR?: string; taints?: { key: string }[] }; status?: { conditions?: { type: string; status: string }[] } } }

/**
 * Waits until `count` nodes are Ready (by a watch opened now), and with `settled` also have their spec.podCIDR from
 * node-ipam and no longer the not-ready taint they were created with (a settled cluster, as one a workload arrives
 * on); returns the time each milestone was reached.
 */
async function watchNodesReady(c: Cluster, count: number, start: () => void, settled = false): Promise<{ registeredMs: number; readyMs: number }> {
  const p = pool(c.api.origin, c.tls, 2);
  const seen = new Set<string>();
  const ready = new Set<string>();
  let t0 = 0;
  let registeredMs = NaN;
  let poke = (): void => undefined;
  const w = await watchLines(p, '/api/v1/nodes', (line, at) => {
    const ev = JSON.parse(line) as NodeEvent;
    const name = ev.object.metadata.name;
    seen.add(name);
    if (Number.isNaN(registeredMs) && seen.size === count) registeredMs = at - t0;
    const schedulable = !!ev.object.spec?.podCIDR && !ev.object.spec.taints?.some((t) => t.key === 'node.kubernetes.io/not-ready');
    if (ev.object.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True') && (!settled || schedulable)) ready.add(name);
    poke();
  });
  try {
    const u = until({ done: () => ready.size >= count, progress: () => `nodes registered ${seen.size}/${count}, Ready ${ready.size}` }, N.limitMs, w.ended);
    poke = u.poke;
    t0 = performance.now();
    start();
    await u.reached;
    return { registeredMs, readyMs: performance.now() - t0 };
  } finally {
    w.close();
    await p.destroy();
  }
}

async function nodesStep(): Promise<void> {
  log(`nodes: one fake kubelet for ${fmt(N.nodes)} nodes`);
  await withCluster({ nodes: N.nodes, runtime: 'fake', components: [] }, async (c) => {
    let kubeletPid = 0;
    const cpu = await cpuMeter(c);
    const r = await watchNodesReady(c, N.nodes, () => { kubeletPid = c.startKubelets()[0]!.pid; });
    const cpuUsed = await cpu();
    const ok = r.readyMs < 20_000;
    rows.push({ metric: `fake nodes: kubelet start → ${fmt(N.nodes)} Nodes created (watch)`, value: secs(r.registeredMs), target: 'report' });
    rows.push({ metric: `fake nodes: kubelet start → ${fmt(N.nodes)} Nodes Ready=True (watch)`, value: `${secs(r.readyMs)} (${fmt((N.nodes / r.readyMs) * 1000)} nodes/s)`, target: quick ? 'report' : '< 20 s (kwok: 180 s)', ok: quick ? undefined : ok });
    rows.push({ metric: 'fake nodes: CPU seconds used until then', value: cpuUsed, target: 'report' });
    rows.push({ metric: 'fake nodes: RSS apiserver / kubelet once Ready', value: `${await rss(c.api.pid)} / ${await rss(kubeletPid)}`, target: 'report' });
  });
}

const deployment = (ns: string, name: string, replicas: number, container: Record<string, unknown>): string => JSON.stringify({
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name, namespace: ns },
  spec: {
    replicas, selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { terminationGracePeriodSeconds: 0, containers: [{ name: 'c', ...container }] } },
  },
});

interface PodTimes { added: number; bound?: number; running?: number }

/** Creates the Deployments at once and follows their pods to Running: milestones and per-pod start-up latency. */
async function podsToRunning(c: Cluster, what: string, deployments: number, replicas: number, container: Record<string, unknown>) {
  const ns = 'bench';
  const total = deployments * replicas;
  const p = pool(c.api.origin, c.tls, 16);
  const pods = new Map<string, PodTimes>();
  let bound = 0;
  let running = 0;
  let t0 = 0;
  const at = { created: NaN, bound: NaN };
  let poke = (): void => undefined;
  try {
    await call(p, 'POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }));
    const w = await watchLines(p, `/api/v1/namespaces/${ns}/pods`, (line, t) => {
      const name = objectName(line)!;
      let rec = pods.get(name);
      if (!rec) {
        rec = { added: t };
        pods.set(name, rec);
        if (pods.size === total) at.created = t - t0;
      }
      if (rec.bound === undefined && line.includes('"nodeName":"')) {
        rec.bound = t;
        if (++bound === total) at.bound = t - t0;
      }
      if (rec.running === undefined && stringField(line, 'phase', line.indexOf('"status":')) === 'Running') {
        rec.running = t;
        running++;
        poke();
      }
    });
    try {
      const u = until({ done: () => running >= total, progress: () => `${what}: pods created ${pods.size}/${total}, bound ${bound}, Running ${running}` }, N.limitMs, w.ended);
      poke = u.poke;
      t0 = performance.now();
      await Promise.all(Array.from({ length: deployments }, (_, i) =>
        call(p, 'POST', `/apis/apps/v1/namespaces/${ns}/deployments`, deployment(ns, `web-${i}`, replicas, container))));
      await u.reached.catch(async (err: Error) => {
        // what a list says next to what the watch saw: a pod never created, or an event that never came
        const listed = JSON.parse((await call(p, 'GET', `/api/v1/namespaces/${ns}/pods`)).toString()) as { items: { metadata: { name: string; resourceVersion: string } }[] };
        const unseen = listed.items.filter((i) => !pods.has(i.metadata.name)).map((i) => `${i.metadata.name}@${i.metadata.resourceVersion}`);
        const names = new Map<string, number>();
        for (const i of listed.items) names.set(i.metadata.name, (names.get(i.metadata.name) ?? 0) + 1);
        const twice = listed.items.filter((i) => names.get(i.metadata.name)! > 1)
          .map((i) => { const m = i.metadata as Record<string, unknown>; return `${String(m.name)} uid ${String(m.uid)} rv ${String(m.resourceVersion)}`; });
        if (twice.length) unseen.push(`listed twice: ${twice.join(' | ')}`);
        const rss = JSON.parse((await call(p, 'GET', `/apis/apps/v1/namespaces/${ns}/replicasets`)).toString()) as { items: { metadata: { name: string }; status?: { replicas?: number } }[] };
        const short = rss.items.filter((r) => (r.status?.replicas ?? 0) < replicas).map((r) => `${r.metadata.name}: ${r.status?.replicas}`);
        throw new Error(`${err.message}; listed ${listed.items.length} pods, unseen by the watch: [${unseen.slice(0, 5).join(' ')}]; ReplicaSets short: [${short.join(', ')}]`);
      });
      const allMs = performance.now() - t0;
      const lat = Float64Array.from([...pods.values()].map((r) => r.running! - r.added)).sort();
      // where the wait is: creation → binding (scheduler), binding → Running (kubelet)
      const toBound = Float64Array.from([...pods.values()].map((r) => (r.bound ?? r.running!) - r.added)).sort();
      const toRunning = Float64Array.from([...pods.values()].map((r) => r.running! - (r.bound ?? r.running!))).sort();
      return {
        total, allMs, createdMs: at.created, boundMs: at.bound, p50: percentile(lat, 50), p90: percentile(lat, 90), p99: percentile(lat, 99),
        bind: { p50: percentile(toBound, 50), p99: percentile(toBound, 99) }, run: { p50: percentile(toRunning, 50), p99: percentile(toRunning, 99) },
      };
    } finally {
      w.close();
    }
  } finally {
    await p.destroy();
  }
}

async function podsStep(): Promise<void> {
  const total = N.deployments * N.replicas;
  log(`pods: ${fmt(total)} pods (${N.deployments} Deployments × ${fmt(N.replicas)}) on ${fmt(N.podNodes)} fake nodes`);
  const apiserver = (process.env.BENCH_APISERVER_ARGS ?? '').split(/\s+/).filter(Boolean);
  const extraArgs = { 'controller-manager': scaleLimits, scheduler: scaleLimits, apiserver };
  await withCluster({ nodes: N.podNodes, runtime: 'fake', components: ['controller-manager', 'scheduler'], extraArgs }, async (c) => {
    const nodes = await watchNodesReady(c, N.podNodes, () => c.startKubelets(), true);
    log(`pods: ${fmt(N.podNodes)} nodes Ready with their podCIDR, untainted, in ${secs(nodes.readyMs)}; creating the Deployments`);
    const cpu = await cpuMeter(c);
    const requestsBefore = await requestCounts(c);
    const r = await podsToRunning(c, 'pods', N.deployments, N.replicas, {
      image: 'registry.k8s.io/pause:3.9', resources: { requests: { cpu: '10m', memory: '16Mi' } },
    });
    const ok = r.allMs < 20_000;
    rows.push({ metric: `e2e fake: first create → ${fmt(total)} pods created / bound (watch)`, value: `${secs(r.createdMs)} / ${secs(r.boundMs)}`, target: 'report' });
    rows.push({ metric: `e2e fake: first create → ${fmt(total)} pods Running on ${fmt(N.podNodes)} nodes`, value: `${secs(r.allMs)} (${fmt((total / r.allMs) * 1000)} pods/s)`, target: quick ? 'report' : '< 20 s (kwok CI: 120 s)', ok: quick ? undefined : ok });
    rows.push({ metric: 'e2e fake: pod start-up latency p50 / p90 / p99 (created → Running, watch)', value: `${fmt(r.p50)} / ${fmt(r.p90)} / ${fmt(r.p99)} ms`, target: 'p99 < 2 s (SLO: 5 s)', ok: r.p99 < 2_000 });
    rows.push({ metric: 'e2e fake: of which created → bound / bound → Running, p50 / p99', value: `${fmt(r.bind.p50)} / ${fmt(r.bind.p99)} ms; ${fmt(r.run.p50)} / ${fmt(r.run.p99)} ms`, target: 'report' });
    rows.push({ metric: 'e2e fake: CPU seconds used from the first create to the last Running', value: await cpu(), target: 'report' });
    rows.push({ metric: 'e2e fake: apiserver requests per pod meanwhile (top 6), with their mean latency', value: requestsPerPod(requestsBefore, await requestCounts(c), total), target: 'report' });
    const mem = await Promise.all(c.children.map(async (ch) => `${ch.name} ${await rss(ch.pid)}`));
    rows.push({ metric: 'e2e fake: RSS at the end', value: [`apiserver ${await rss(c.api.pid)}`, ...mem].join(', '), target: 'report' });
  });
}

async function processStep(): Promise<void> {
  log(`process: ${N.processPods} busybox pods on one kubelet with the process runtime`);
  await withCluster({ nodes: 1, runtime: 'process', components: ['controller-manager', 'scheduler'] }, async (c) => {
    await watchNodesReady(c, 1, () => c.startKubelets(), true);
    const r = await podsToRunning(c, 'process', 1, N.processPods, { image: 'busybox', command: ['sleep', '3600'] });
    rows.push({ metric: `process runtime: ${N.processPods} busybox pods, first create → all Running`, value: secs(r.allMs), target: 'report' });
    rows.push({ metric: 'process runtime: pod start-up latency p50 / p99 (created → Running, watch)', value: `${fmt(r.p50)} / ${fmt(r.p99)} ms`, target: 'p99 < 5 s (SLO)', ok: r.p99 < 5_000 });
    rows.push({ metric: 'process runtime: of which created → bound / bound → Running, p50 / p99', value: `${fmt(r.bind.p50)} / ${fmt(r.bind.p99)} ms; ${fmt(r.run.p50)} / ${fmt(r.run.p99)} ms`, target: 'report' });
  });
}

/** The apiserver's memory from its /metrics (MB): resident, V8's heap in use, and buffers outside it. */
async function apiserverMemory(p: ReturnType<typeof pool>): Promise<{ rss: number; heap: number; external: number }> {
  const text = (await call(p, 'GET', '/metrics')).toString();
  const mb = (name: string): number => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]) / 2 ** 20;
  return { rss: mb('process_resident_memory_bytes'), heap: mb('nodejs_heap_size_used_bytes'), external: mb('nodejs_external_memory_bytes') };
}

/**
 * Objects coming and going, as a day of development or an operator's tests make them: each round a Deployment of 3
 * replicas (waited for until available), scaled to 1 and deleted, and 5 ConfigMaps made and deleted. The store and
 * the watch caches keep history (up to 20,000 revisions), so the apiserver grows to a bound, not for good.
 */
async function churnStep(): Promise<void> {
  log(`churn: ${N.churnRounds} rounds of a Deployment (3 replicas) and 5 ConfigMaps made and deleted, one fake node`);
  await withCluster({ nodes: 1, runtime: 'fake', components: ['controller-manager', 'scheduler'] }, async (c) => {
    await watchNodesReady(c, 1, () => c.startKubelets(), true);
    const p = pool(c.api.origin, c.tls, 4);
    const fmtMem = (m: { rss: number; heap: number; external: number }): string => `${fmt(m.rss)} / ${fmt(m.heap)} / ${fmt(m.external)} MB`;
    try {
      const before = await apiserverMemory(p);
      const ns = '/apis/apps/v1/namespaces/default/deployments';
      const cms = '/api/v1/namespaces/default/configmaps';
      const started = performance.now();
      let after = before;
      for (let i = 1; i <= N.churnRounds; i++) {
        const name = `churn-${i}`;
        const labels = { app: name };
        await call(p, 'POST', ns, JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec: { replicas: 3, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }] } } } }));
        await Promise.all(Array.from({ length: 5 }, (_, j) => call(p, 'POST', cms, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${name}-${j}` }, data: { round: String(i) } }))));
        for (const deadline = performance.now() + 30_000; ;) {
          const d = JSON.parse((await call(p, 'GET', `${ns}/${name}`)).toString()) as { status?: { availableReplicas?: number } };
          if (d.status?.availableReplicas === 3) break;
          if (performance.now() > deadline) throw new Error(`churn: ${name} not available in 30 s`);
          await new Promise((r) => setTimeout(r, 50));
        }
        await call(p, 'PATCH', `${ns}/${name}/scale`, JSON.stringify({ spec: { replicas: 1 } }), [200], { 'content-type': 'application/merge-patch+json' });
        await call(p, 'DELETE', `${ns}/${name}`);
        await Promise.all(Array.from({ length: 5 }, (_, j) => call(p, 'DELETE', `${cms}/${name}-${j}`)));
        if (i % 50 === 0) log(`churn: round ${i}, apiserver ${fmtMem(after = await apiserverMemory(p))}`);
      }
      const ms = performance.now() - started;
      after = await apiserverMemory(p);
      // the garbage collector removes the last ReplicaSets and pods meanwhile
      await new Promise((r) => setTimeout(r, 10_000));
      const settled = await apiserverMemory(p);
      const revision = (JSON.parse((await call(p, 'GET', '/api/v1/namespaces')).toString()) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
      rows.push({ metric: `churn: ${N.churnRounds} rounds (Deployment ×3 made, scaled, deleted; 5 ConfigMaps), one fake node`, value: `${secs(ms)}, ${fmt(Number(revision))} revisions`, target: 'report' });
      rows.push({ metric: 'churn: apiserver RSS / heap used / external, before → after → 10 s later', value: `${fmtMem(before)} → ${fmtMem(after)} → ${fmtMem(settled)}`, target: 'report' });
    } finally {
      await p.destroy();
    }
  });
}

/** Milliseconds from spawning `mini-kube up` to its ready line; then Ctrl-C, and its exit awaited. */
async function upUntilReady(dataDir: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [MAIN, 'up', '--data-dir', dataDir, '--secure-port', '0'], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => { err = (err + d.toString()).slice(-4096); });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  try {
    const ready = await Promise.race([
      new Promise<number>((resolve) => {
        let out = '';
        child.stdout!.on('data', (d: Buffer) => { out += d.toString(); if (out.includes('ready:')) resolve(performance.now() - started); });
      }),
      exited.then((code) => { throw new Error(`up exited with ${code} before it was ready: ${err}`); }),
      new Promise<never>((_r, reject) => setTimeout(() => reject(new Error(`up not ready after ${N.limitMs / 1000} s: ${err}`)), N.limitMs).unref()),
    ]);
    return ready;
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGINT');
    await exited;
  }
}

async function upStep(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'mini-kube-bench-up-'));
  try {
    const dataDir = join(work, 'data');
    log('up: start → ready on a new data dir');
    const cold = await upUntilReady(dataDir);
    const warm: number[] = [];
    for (let i = 1; i <= N.upWarmStarts; i++) {
      log(`up: start → ready on the kept data dir ${i}/${N.upWarmStarts}`);
      warm.push(await upUntilReady(dataDir));
    }
    rows.push({ metric: `mini-kube up: start → ready line, new data dir / kept data dir (median of ${N.upWarmStarts})`, value: `${secs(cold)} / ${secs(median(warm))} (${warm.map((w) => fmt(w / 1000, 1)).join(', ')} s)`, target: 'report' });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const loadStart = loadavg().map((l) => l.toFixed(1)).join(' ');
  const started = performance.now();
  const failures: string[] = [];
  for (const [name, step] of [['nodes', nodesStep], ['pods', podsStep], ['process', processStep], ['churn', churnStep], ['up', upStep]] as const) {
    if (!want(name)) continue;
    try {
      await step();
    } catch (e) {
      // one step failing (a target far out of reach) still reports the others
      log(`${name} failed: ${e instanceof Error ? e.message : String(e)}`);
      failures.push(name);
      rows.push({ metric: `${name}: failed`, value: e instanceof Error ? e.message.split('\n')[0]! : String(e), target: '', ok: false });
    }
  }
  const loadEnd = loadavg().map((l) => l.toFixed(1)).join(' ');
  const width = Math.max(...rows.map((r) => r.metric.length));
  const ok = (r: Row): string => (r.ok === undefined ? '' : r.ok ? 'yes' : 'NO');
  process.stdout.write(`\nkubelet / end-to-end benchmark${quick ? ' (--quick)' : ''}: ${cpus().length} CPUs, node ${process.version}; load average ${loadStart} → ${loadEnd}; took ${secs(performance.now() - started)}\n\n`);
  for (const r of rows) process.stdout.write(`${r.metric.padEnd(width)}  ${r.value}  [${r.target}${r.ok === undefined ? '' : `: ${ok(r)}`}]\n`);
  process.stdout.write(`\n| metric | value | target | ok? |\n| --- | --- | --- | --- |\n${rows.map((r) => `| ${r.metric} | ${r.value} | ${r.target} | ${ok(r)} |`).join('\n')}\n`);
  if (failures.length) process.exitCode = 1;
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
