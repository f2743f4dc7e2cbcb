// Shared set-up of the controller-manager tests: a real apiserver in this process, the controller-manager's
// kubeconfig (client certificate system:kube-controller-manager), and the controller-manager either as a separate
// OS process (the binary bundled from the current sources, as crash.test.ts does: dist/ may be stale) or in this
// process when process separation is not the point.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { Client, formatTime, loadKubeconfig } from '../../pkg/client/index.js';
import { runControllerManager, type ControllerManagerOptions } from '../../pkg/controller/controller-manager.js';
import { writeKubeconfig } from '../../pkg/pki/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';


export { bundleMain } from '../support/binary.js';

/** DIR/controller-manager.kubeconfig with the controller-manager's client certificate. */
export async function controllerManagerKubeconfig(s: TestApiServer): Promise<string> {
  const [caPem, certPem, keyPem] = await Promise.all([s.pki.ca.cert, s.pki.controllerManager.cert, s.pki.controllerManager.key].map((p) => readFile(p, 'utf8')));
  const path = join(s.dataDir, 'controller-manager.kubeconfig');
  await writeKubeconfig(path, { server: s.url, caPem: caPem!, certPem: certPem!, keyPem: keyPem!, user: 'system:kube-controller-manager' });
  return path;
}

export interface CmProcess {
  child: ChildProcess;
  /** Its stderr (pino JSON lines) so far. */
  logs(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** A controller-manager process; it serves no HTTPS unless `args` give a --secure-port (tests share the machine). */
export function spawnControllerManager(main: string, kubeconfig: string, args: string[]): CmProcess {
  const serving = args.some((a) => a.startsWith('--secure-port')) ? [] : ['--secure-port', '0'];
  const child = spawn(process.execPath, [main, 'controller-manager', '--kubeconfig', kubeconfig, ...serving, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (c: Buffer) => { log += c.toString(); if (process.env.MINI_KUBE_TEST_LOG) process.stderr.write(c); });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('exit', (code, signal) => done({ code, signal })));
  return {
    child, exited, logs: () => log,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * The controller-manager in this process (its own client from the controller-manager kubeconfig), by default with
 * per-controller service-account credentials. stop() throws if the authorizer refused any controller anything (a
 * log line saying "forbidden"): its bootstrap system:controller:* role lacks a rule upstream's has.
 */
export async function startInProcess(kubeconfig: string, o: Partial<ControllerManagerOptions> = {}): Promise<{ client: Client; stop(): Promise<void> }> {
  const { namespace: _ns, ...restConfig } = await loadKubeconfig(kubeconfig);
  const cfg = { ...restConfig, qps: 0 };
  const client = new Client(cfg);
  const ac = new AbortController();
  const forbidden: string[] = [];
  const logger = pino({ name: 'controller-manager', level: process.env.MINI_KUBE_TEST_LOG ?? 'warn' }, {
    write(line: string) {
      if (/forbidden/i.test(line)) forbidden.push(line);
      if (process.env.MINI_KUBE_TEST_LOG) process.stderr.write(line);
    },
  });
  const run = runControllerManager({
    client, restConfig: cfg, controllers: ['*'], leaderElect: false, useServiceAccountCredentials: true, logger, ...o,
  }, ac.signal);
  return {
    client,
    async stop() {
      ac.abort();
      await run;
      await client.close();
      if (forbidden.length) throw new Error(`the authorizer refused controllers:\n${forbidden.join('')}`);
    },
  };
}

export interface ControllersCluster {
  s: TestApiServer;
  /** The admin's client. */
  c: Client;
  cm: { stop(): Promise<void> };
}

/** A memory-backed apiserver in this process, an admin client, and a controller-manager in this process. */
export async function startControllersCluster(o: Partial<ControllerManagerOptions>): Promise<ControllersCluster> {
  const s = await startTestApiServer({ storageBackend: 'memory' });
  const c = new Client({ ...(await loadKubeconfig(s.kubeconfig)), qps: 0 });
  return { s, c, cm: await startInProcess(await controllerManagerKubeconfig(s), o) };
}

export async function stopControllersCluster(h: Partial<ControllersCluster>): Promise<void> {
  await h.cm?.stop();
  await h.c?.close();
  await h.s?.close();
}

export const eventually = async <T>(fn: () => Promise<T>, ok: (v: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch((e: unknown) => e as T);
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)?.slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

export const exists = async (s: TestApiServer, path: string): Promise<boolean> => (await s.api('GET', path)).status === 200;

/** Plays the kubelet: phase Running, an IP, and the Ready condition as given. */
export async function setPodStatus(c: Client, ns: string, name: string, ready: boolean, podIP: string): Promise<void> {
  const t = formatTime(Date.now());
  await c.pods(ns).patch(name, 'merge', {
    status: {
      phase: 'Running', podIP, podIPs: [{ ip: podIP }], startTime: t,
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: t }, { type: 'ContainersReady', status: ready ? 'True' : 'False', lastTransitionTime: t }],
    },
  }, { subresource: 'status' });
}
