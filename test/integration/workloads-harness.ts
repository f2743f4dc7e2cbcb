// Shared set-up of the workload controller tests: a real apiserver (Node,RBAC) and the controller-manager in this
// process with --use-service-account-credentials, so each controller acts as
// system:serviceaccount:kube-system:<its account> under the bootstrap system:controller:* roles, as `mini-kube up`
// runs it; helpers to wait and to play the kubelet (mark pods running / ready / finished).
import { readFile } from 'node:fs/promises';
import { Client, formatTime, loadKubeconfig, type Clock } from '../../pkg/client/index.js';
import type { ClusterControllerConfig } from '../../pkg/controller/shared/cluster-context.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { controllerManagerKubeconfig, startInProcess } from './controllers-support.js';

export interface Harness {
  s: TestApiServer;
  /** An admin client for the test's own reads and writes. */
  c: Client;
  stop(): Promise<void>;
}

export interface HarnessOptions {
  clock?: Clock;
  config?: Partial<ClusterControllerConfig>;
  featureGates?: Record<string, boolean>;
  /** Objects to make before the controllers start. */
  seed?: (c: Client) => Promise<unknown>;
}

/** Runs the named controllers (upstream's --controllers names or aliases); stop() throws on any RBAC refusal. */
export async function startHarness(controllers: string[], o: HarnessOptions = {}): Promise<Harness> {
  // the gates act on both, as a cluster's components share them
  const s = await startTestApiServer({ storageBackend: 'memory', featureGates: o.featureGates ?? {} });
  const c = new Client({ ...(await loadKubeconfig(s.kubeconfig)), qps: 0 });
  await o.seed?.(c);
  // the cluster CA signs approved certificate requests, as `mini-kube up` sets it
  const [clusterSigningCertPem, clusterSigningKeyPem] = await Promise.all([readFile(s.pki.ca.cert, 'utf8'), readFile(s.pki.ca.key, 'utf8')]);
  const config = { clusterSigningCertPem, clusterSigningKeyPem, ...o.config };
  const cm = await startInProcess(await controllerManagerKubeconfig(s), { controllers, clock: o.clock, config, featureGates: o.featureGates });
  return {
    s, c,
    async stop() {
      await cm.stop();
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
