// Shared set-up of the workload controller tests: a real apiserver, the controllers in this process over
// pkg/client, and helpers to wait and to play the kubelet (mark pods running / ready / finished).
import { pino } from 'pino';
import { Client, EventRecorder, SharedInformerFactory, formatTime, loadKubeconfig, type Clock } from '../../pkg/client/index.js';
import type { ControllerInit } from '../../pkg/controller/shared/types.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

export interface Harness {
  s: TestApiServer;
  c: Client;
  stop(): Promise<void>;
}

export async function startHarness(controllers: Record<string, ControllerInit>, o: { clock?: Clock } = {}): Promise<Harness> {
  const s = await startTestApiServer({ storageBackend: 'memory' });
  const c = new Client({ ...(await loadKubeconfig(s.kubeconfig)), qps: 0 });
  const ac = new AbortController();
  const logger = pino({ level: process.env.MINI_KUBE_TEST_LOG ?? 'warn' });
  const informers = new SharedInformerFactory(c, {});
  const recorder = new EventRecorder({ sink: c.events(), component: 'controller-manager' });
  const runs = Object.entries(controllers).map(([name, init]) =>
    Promise.resolve(init({ client: c, informers, recorder, signal: ac.signal, workers: 2, logger: logger.child({ name }), clock: o.clock })));
  return {
    s, c,
    async stop() {
      ac.abort();
      await Promise.allSettled(runs);
      await informers.shutdown();
      await c.close();
      await s.close();
    },
  };
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

/** Plays the kubelet: phase Running and Ready=True for each pod given. */
export async function markReady(c: Client, ns: string, names: string[]): Promise<void> {
  const t = formatTime(Date.now());
  await Promise.all(names.map((name) => c.pods(ns).patch(name, 'merge', {
    status: {
      phase: 'Running', startTime: t,
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: t }, { type: 'ContainersReady', status: 'True', lastTransitionTime: t }],
    },
  }, { subresource: 'status' })));
}

/** Plays the kubelet: a terminal phase. */
export async function markFinished(c: Client, ns: string, names: string[], phase: 'Succeeded' | 'Failed'): Promise<void> {
  const t = formatTime(Date.now());
  await Promise.all(names.map((name) => c.pods(ns).patch(name, 'merge', {
    status: {
      phase, startTime: t,
      conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: t }],
      containerStatuses: [{ name: 'c', ready: false, restartCount: 0, image: 'busybox', imageID: '', state: { terminated: { exitCode: phase === 'Succeeded' ? 0 : 1, reason: phase === 'Succeeded' ? 'Completed' : 'Error', startedAt: t, finishedAt: t } } }],
    },
  }, { subresource: 'status' })));
}

export const podNames = async (c: Client, ns: string, selector?: string): Promise<string[]> =>
  (await c.pods(ns).list(selector ? { labelSelector: selector } : {})).items.map((p) => p.metadata!.name!).sort();
