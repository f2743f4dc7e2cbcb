// A cluster for the end-to-end benchmarks, started as `mini-kube up` starts it (cmd/components.ts gives each
// process's arguments) but from here, so that the bench knows every process id (resident memory), can add flags
// (client rate limits) and can run any of them under `node --cpu-prof` (BENCH_CPU_PROF=<dir>).
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { controlPlane } from '../../cmd/components.js';
import { ensurePki, writeKubeconfig } from '../../pkg/pki/index.js';
import { freePort, readTls, startServer, type ServerProcess, type Tls } from './processes.js';

export type Component = 'controller-manager' | 'scheduler' | 'kubelet';

export interface ClusterOptions {
  main: string;
  dataDir: string;
  nodes: number;
  runtime: 'fake' | 'process';
  /** Which components besides the apiserver (kubelets are started by startKubelets). */
  components: Component[];
  /** Extra arguments per component, e.g. client rate limits. */
  extraArgs?: Partial<Record<Component | 'apiserver', string[]>>;
  log: (msg: string) => void;
}

export interface Child {
  name: string;
  pid: number;
  exited: Promise<void>;
  stop(): Promise<void>;
}

export interface Cluster {
  api: ServerProcess;
  tls: Tls;
  children: Child[];
  /** Starts the kubelet process(es); resolves once spawned. */
  startKubelets(): Child[];
  /** Every process and its log, for failures. */
  logs(): Promise<string>;
  stop(): Promise<void>;
}

/** Node flags of every component: BENCH_NODE_FLAGS (space-separated, e.g. `--trace-gc`), and --cpu-prof with BENCH_CPU_PROF. */
const profArgs = (name: string): string[] => {
  const dir = process.env.BENCH_CPU_PROF;
  const flags = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  return [...flags, ...(dir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(dir)}`, `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`] : [])];
};

export async function startCluster(o: ClusterOptions): Promise<Cluster> {
  const nodes = Array.from({ length: o.nodes }, (_, i) => `node-${i + 1}`);
  // a multi-node fake kubelet runs as the admin (components.ts): no per-node certificates are needed then
  const certNodes = o.runtime === 'fake' && o.nodes > 1 ? [] : nodes;
  const pki = await ensurePki(join(o.dataDir, 'pki'), { nodes: certNodes, serverSans: ['127.0.0.1'] });
  const port = await freePort();
  const server = `https://127.0.0.1:${port}`;
  // no HTTPS serving for the scheduler and controller-manager: the default ports may be another cluster's
  const specs = controlPlane({ dataDir: o.dataDir, port, bindAddress: '127.0.0.1', nodes, runtime: o.runtime, pki, servingPorts: { scheduler: 0, controllerManager: 0 } });
  const [apiSpec, ...rest] = specs;
  const api = await startServer('apiserver', [...(apiSpec!.nodeFlags ?? []), ...profArgs('apiserver'), o.main, ...apiSpec!.args, ...(o.extraArgs?.apiserver ?? [])], port, () => readTls(join(o.dataDir, 'pki')));
  const tls = (await readTls(join(o.dataDir, 'pki')))!;
  const caPem = await readFile(pki.ca.cert, 'utf8');
  const children: Child[] = [];
  const logFiles: string[] = [];
  /** Writes the component's kubeconfig (as up does) and returns its arguments. */
  const withIdentity = async (spec: (typeof specs)[number]): Promise<string[]> => {
    if (!spec.identity) return spec.args;
    const kubeconfig = join(o.dataDir, `${spec.name}.kubeconfig`);
    const [certPem, keyPem] = await Promise.all([readFile(spec.identity.pair.cert, 'utf8'), readFile(spec.identity.pair.key, 'utf8')]);
    await writeKubeconfig(kubeconfig, { server, caPem, certPem, keyPem, user: spec.identity.user });
    return [...spec.args, '--kubeconfig', kubeconfig];
  };
  const spawnOne = (name: string, component: Component, args: string[], nodeFlags: string[] = []): Child => {
    const logFile = join(o.dataDir, `${name}.log`);
    logFiles.push(logFile);
    const fd = openSync(logFile, 'a');
    let child: ChildProcess;
    try {
      child = spawn(process.execPath, [...nodeFlags, ...profArgs(name), o.main, ...args, ...(o.extraArgs?.[component] ?? [])], { stdio: ['ignore', fd, fd] });
    } finally {
      closeSync(fd);
    }
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    const c: Child = {
      name, pid: child.pid!, exited,
      async stop() {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(killer);
      },
    };
    children.push(c);
    return c;
  };
  const componentOf = (name: string): Component => (name.startsWith('kubelet') ? 'kubelet' : name as Component);
  for (const spec of rest) {
    const c = componentOf(spec.name);
    if (c !== 'kubelet' && o.components.includes(c)) spawnOne(spec.name, c, await withIdentity(spec), spec.nodeFlags);
  }
  // kubeconfigs first, so that starting the kubelets is only a spawn (the benches time from it)
  const kubelets = await Promise.all(rest.filter((s) => componentOf(s.name) === 'kubelet').map(async (s) => ({ name: s.name, args: await withIdentity(s), nodeFlags: s.nodeFlags })));
  return {
    api, tls, children,
    startKubelets: () => kubelets.map((k) => spawnOne(k.name, 'kubelet', k.args, k.nodeFlags)),
    async logs() {
      const tails = await Promise.all(logFiles.map(async (f) => `--- ${f}\n${(await readFile(f, 'utf8').catch(() => '')).slice(-3000)}`));
      return [`--- apiserver\n${api.stderrTail().slice(-3000)}`, ...tails].join('\n');
    },
    async stop() {
      await Promise.all(children.map((c) => c.stop()));
      await api.stop();
    },
  };
}
