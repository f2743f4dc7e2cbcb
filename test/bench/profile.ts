// One bench step against an apiserver child run with `node --cpu-prof`, then the top frames of its profile.
//   node dist/test/bench/profile.js <creates|creates1|crcreates|events|gets|pods|status|list|watch|startup> [seconds]
// The profile is kept (its path is printed) for Chrome DevTools or speedscope. BENCH_PRELOAD_PODS=n stores n pods first.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { call, closedLoop, createNamespaces, pool } from './load.js';
import { configMap, crd, eventConfigMap, GROUP, namespace, pod, runningStatusPatch, scheduledEvent, widget, WIDGET_FIELDS, WIDGET_RULES } from './objects.js';
import { freePort, readTls, startServer } from './processes.js';
import { watchFanout } from './watch.js';
import { compiledMain } from '../../cmd/package-info.js';

const MAIN = compiledMain(); // the shipped bundle (npm run build)
const [step = 'gets', secondsArg = '8'] = process.argv.slice(2);
const ms = Number(secondsArg) * 1000;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self and inclusive time per function, idle excluded, as shares of the busy time. */
export function topFrames(p: Profile, n = 30): string {
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  const parent = new Map<number, number>();
  for (const x of p.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
  const key = (x: ProfileNode): string =>
    `${x.callFrame.functionName || '(anonymous)'} ${x.callFrame.url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${x.callFrame.lineNumber + 1}`;
  const perNode = new Map<number, number>();
  p.samples.forEach((id, i) => perNode.set(id, (perNode.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  let busy = 0;
  for (const [id, t] of perNode) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') continue;
    busy += t;
    self.set(key(node), (self.get(key(node)) ?? 0) + t);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = key(byId.get(cur)!);
      if (seen.has(k) || k.startsWith('(root)')) continue;
      seen.add(k);
      incl.set(k, (incl.get(k) ?? 0) + t);
    }
  }
  const list = (m: Map<string, number>): string => [...m].sort((a, b) => b[1] - a[1]).slice(0, n)
    .map(([k, t]) => `${((t / busy) * 100).toFixed(1).padStart(5)}%  ${k}`).join('\n');
  return `busy ${(busy / 1e6).toFixed(2)} s\n== self\n${list(self)}\n== inclusive\n${list(incl)}`;
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'mini-kube-profile-'));
  const dataDir = join(work, 'data');
  const profDir = join(work, 'prof');
  const tls = () => readTls(join(dataDir, 'pki'));
  const start = async (prof: boolean) => {
    const port = await freePort();
    return startServer('apiserver', [...(prof ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), MAIN, 'apiserver', '--data-dir', dataDir, '--secure-port', String(port)], port, tls);
  };
  await (await start(false)).stop(); // PKI and store made: the profiled start is a warm one
  const s = await start(true);
  const t = (await tls())!;
  const p64 = pool(s.origin, t, 64);
  const p1 = pool(s.origin, t, 1);
  try {
    await createNamespaces(p64, ['bench', 'bench-pods', 'bench-watch']);
    const cm = (i: number): Promise<Buffer> => call(p64, 'POST', '/api/v1/namespaces/bench/configmaps', configMap('bench', `cm-${i}`));
    // BENCH_PRELOAD_PODS=n: n pods stored first, as `npm run bench` has before its ConfigMap steps
    const preload = Number(process.env.BENCH_PRELOAD_PODS ?? 0);
    if (preload) await closedLoop({ concurrency: 64, maxOps: preload, maxMs: 120_000 }, (i) => call(p64, 'POST', '/api/v1/namespaces/bench-pods/pods', pod('bench-pods', `pre-${i}`)));
    let r;
    switch (step) {
      case 'startup': break;
      case 'creates': r = await closedLoop({ concurrency: 64, maxOps: 1e6, maxMs: ms }, cm); break;
      case 'crcreates': { // the custom resource of the CRD bench (50 fields, 3 CEL rules), once it is served
        await call(p64, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('widgets', 'Widget', WIDGET_FIELDS, WIDGET_RULES));
        const cr = (i: number): Promise<Buffer> => call(p64, 'POST', `/apis/${GROUP}/v1/namespaces/bench/widgets`, widget('bench', `w-${i}`));
        for (const deadline = Date.now() + 10_000; !(await cr(-1).then(() => true, () => Date.now() > deadline));) await sleep(2);
        r = await closedLoop({ concurrency: 64, maxOps: 1e6, maxMs: ms }, cr);
        break;
      }
      case 'events': // the Scheduled events kube-scheduler writes, one per pod it binds
        r = await closedLoop({ concurrency: 64, maxOps: 1e6, maxMs: ms }, (i) => call(p64, 'POST', '/apis/events.k8s.io/v1/namespaces/bench/events', scheduledEvent('bench', `web-${i}`)));
        break;
      case 'creates1': r = await closedLoop({ concurrency: 1, maxOps: 1e6, maxMs: ms }, (i) => call(p1, 'POST', '/api/v1/namespaces/bench/configmaps', configMap('bench', `cm-${i}`))); break;
      case 'gets':
        await closedLoop({ concurrency: 64, maxOps: 2_000, maxMs: 60_000 }, cm);
        r = await closedLoop({ concurrency: 64, maxOps: 1e7, maxMs: ms }, (i) => call(p64, 'GET', `/api/v1/namespaces/bench/configmaps/cm-${i % 2_000}`));
        break;
      case 'pods': r = await closedLoop({ concurrency: 64, maxOps: 10_000, maxMs: ms }, (i) => call(p64, 'POST', '/api/v1/namespaces/bench-pods/pods', pod('bench-pods', `web-${i}`))); break;
      case 'status': { // the kubelet's merge patch of pods/status on stored pods, each pod once
        const uids: string[] = [];
        await closedLoop({ concurrency: 64, maxOps: 12_000, maxMs: 120_000 }, async (i) => {
          uids[i] = (JSON.parse((await call(p64, 'POST', '/api/v1/namespaces/bench-pods/pods', pod('bench-pods', `web-${i}`))).toString()) as { metadata: { uid: string } }).metadata.uid;
        });
        const merge = { 'content-type': 'application/merge-patch+json' };
        r = await closedLoop({ concurrency: 64, maxOps: uids.length, maxMs: ms }, (i) => call(p64, 'PATCH', `/api/v1/namespaces/bench-pods/pods/web-${i}/status`, runningStatusPatch(uids[i]!), [200], merge));
        break;
      }
      case 'list':
        await closedLoop({ concurrency: 64, maxOps: 10_000, maxMs: 120_000 }, (i) => call(p64, 'POST', '/api/v1/namespaces/bench-pods/pods', pod('bench-pods', `web-${i}`)));
        r = await closedLoop({ concurrency: 1, maxOps: 1e6, maxMs: ms }, () => call(p1, 'GET', '/api/v1/namespaces/bench-pods/pods'));
        break;
      case 'watch': {
        const w = await watchFanout({ origin: s.origin, tls: t, watchPath: '/api/v1/namespaces/bench-watch/configmaps?watch=true', writePath: '/api/v1/namespaces/bench-watch/configmaps', event: (i) => eventConfigMap('bench-watch', `ev-${i}`), watchers: 1000, events: 1000, rate: Number(process.env.BENCH_EVENT_RATE ?? 50), drainMs: 30_000 });
        process.stdout.write(`${JSON.stringify(w)}\n`);
        break;
      }
      default: throw new Error(`unknown step ${step}`);
    }
    if (r) process.stdout.write(`${step}: ${r.ops} ops in ${r.ms.toFixed(0)} ms = ${r.rate.toFixed(0)}/s, ${r.errors} errors ${r.firstError ?? ''}\n`);
  } finally {
    await Promise.all([p64.destroy(), p1.destroy()]);
    await s.stop();
  }
  const [file] = await readdir(profDir);
  const kept = join(tmpdir(), `mini-kube-${step}-${Date.now()}.cpuprofile`);
  const text = await readFile(join(profDir, file!), 'utf8');
  await writeFile(kept, text);
  process.stdout.write(`${topFrames(JSON.parse(text) as Profile)}\nprofile: ${kept}\n`);
  await rm(work, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  process.stderr.write(`profile failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
