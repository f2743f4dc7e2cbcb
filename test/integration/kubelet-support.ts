// Shared by the kubelet's integration tests: a node identity from the test apiserver's PKI, a kubelet host in this
// process with the fake runtime and short intervals, pods bound by hand (the scheduler is not running), polls.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { Client, type KubeObject } from '../../pkg/client/index.js';
import { KubeletHost, ProcessRuntime, type KubeletHostOptions } from '../../pkg/kubelet/index.js';
import { ensurePki, writeKubeconfig } from '../../pkg/pki/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

/** A client authenticating as system:node:NAME (certificate issued from the test apiserver's CA). */
export const nodeClient = async (api: TestApiServer, node: string): Promise<Client> => {
  const pki = await ensurePki(join(api.dataDir, 'pki'), { nodes: [node] });
  const pair = pki.nodes[node]!;
  const [caData, certData, keyData] = await Promise.all([pki.ca.cert, pair.cert, pair.key].map((p) => readFile(p, 'utf8')));
  return new Client({ host: api.url, caData, certData, keyData, qps: 0, userAgent: `kubelet/${node}` });
};

/** A kubeconfig file for system:node:NAME, for kubelet processes. */
export const writeNodeKubeconfig = async (api: TestApiServer, node: string, path: string): Promise<void> => {
  const pki = await ensurePki(join(api.dataDir, 'pki'), { nodes: [node] });
  const [caPem, certPem, keyPem] = await Promise.all([pki.ca.cert, pki.nodes[node]!.cert, pki.nodes[node]!.key].map((p) => readFile(p, 'utf8')));
  await writeKubeconfig(path, { server: api.url, caPem: caPem!, certPem: certPem!, keyPem: keyPem!, user: `system:node:${node}` });
};

/** What the controller-manager's root-CA publisher does: pods' kube-api-access volumes need `kube-root-ca.crt`. */
export const publishRootCa = async (api: TestApiServer, admin: Client, namespace = 'default'): Promise<void> => {
  await admin.configMaps(namespace).create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kube-root-ca.crt' }, data: { 'ca.crt': await readFile(api.pki.ca.cert, 'utf8') } });
};

export interface RunningKubelet { host: KubeletHost; stop(): Promise<void> }

/** Runs the kubelet(s) until stop(), which also closes `client`. */

export const startKubelet = (client: Client, nodeNames: string[], o: Partial<KubeletHostOptions> = {}): RunningKubelet => {
  const host = new KubeletHost({
    client, nodeNames, logger: pino({ name: 'kubelet', level: process.env.MINI_KUBE_TEST_LOG ?? 'warn' }),
    leaseRenewMs: 300, statusUpdateMs: 300, plegRelistMs: 200, backoff: { initialMs: 500, maxMs: 4_000 },
    resources: { cpu: '4', memory: '8Gi', pods: 110 },
    ...o,
  });
  const ac = new AbortController();
  const done = host.run(ac.signal);
  return { host, stop: async () => { ac.abort(); await done; await client.close(); } };
};

/** What kubeletCluster gives a describe block once its beforeAll has run. */
export interface KubeletCluster { api: TestApiServer; admin: Client; kubelet: RunningKubelet }

/**
 * A test apiserver, an admin client and a kubelet for `node` (registered) in this process, made in the calling describe
 * block's beforeAll and stopped in its afterAll.
 */
export function kubeletCluster(node: string, o: Partial<KubeletHostOptions> = {}): KubeletCluster {
  const c = {} as KubeletCluster;
  beforeAll(async () => {
    c.api = await startTestApiServer();
    c.admin = await Client.fromKubeconfig(c.api.kubeconfig, { qps: 0 });
    c.kubelet = startKubelet(await nodeClient(c.api, node), [node], o);
    await c.kubelet.host.whenRegistered();
  }, 30_000);
  afterAll(async () => {
    await c.kubelet?.stop();
    await c.admin?.close();
    await c.api?.close();
  });
  return c;
}

export const pod = (name: string, o: { annotations?: Record<string, string>; spec?: Record<string, unknown> } = {}): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name, namespace: 'default', ...(o.annotations ? { annotations: o.annotations } : {}) },
  spec: { containers: [{ name: 'c', image: 'nginx:1.27' }], terminationGracePeriodSeconds: 1, ...o.spec },
});

/** Creates the pod and binds it to the node, as the scheduler would. */
export const createBound = async (admin: Client, p: KubeObject, node: string): Promise<KubeObject> => {
  const created = await admin.pods('default').create(p);
  await admin.pods('default').bind(created.metadata!.name!, node);
  return created;
};

export const eventually = async <T>(fn: () => Promise<T | undefined | null | false>, ms = 15_000, what = 'condition'): Promise<T> => {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) { last = e; }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

export const condition = (obj: KubeObject, type: string): Record<string, unknown> | undefined =>
  ((obj.status?.conditions ?? []) as Record<string, unknown>[]).find((c) => c.type === type);

export interface FakeNode { api: TestApiServer; admin: Client; kubelet: RunningKubelet; stop(): Promise<void> }

/** A test apiserver, its admin client, and one registered node on the fake runtime (kubelet options as `o`). */
export async function startFakeNode(node: string, o: Partial<KubeletHostOptions> = {}): Promise<FakeNode> {
  const api = await startTestApiServer();
  const admin = await Client.fromKubeconfig(api.kubeconfig, { qps: 0 });
  const kubelet = startKubelet(await nodeClient(api, node), [node], o);
  await kubelet.host.whenRegistered();
  return { api, admin, kubelet, async stop() { await kubelet.stop(); await admin.close(); await api.close(); } };
}

/**
 * Removes a process runtime's root dir. A kubelet stops without killing its pods' processes, as upstream's does, so a
 * container or its log copier may still add a file while the tree is removed: ENOTEMPTY is retried.
 */
export const removeRootDir = (dir: string): Promise<void> => rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });

export interface ProcessNode extends FakeNode { rootDir: string }

/**
 * A test apiserver (with kube-root-ca.crt published), its admin client, and one node on the process runtime with a
 * root dir of its own; `serve` adds the node's HTTPS server (the cluster CA's clients, a free port on 127.0.0.1).
 */
export async function startProcessNode(node: string, o: Partial<KubeletHostOptions> & { serve?: Partial<NonNullable<KubeletHostOptions['server']>> } = {}): Promise<ProcessNode> {
  const api = await startTestApiServer();
  const admin = await Client.fromKubeconfig(api.kubeconfig, { qps: 0 });
  const rootDir = await mkdtemp(join(tmpdir(), 'mini-kube-kubelet-'));
  await publishRootCa(api, admin);
  const { serve, ...rest } = o;
  const kubelet = startKubelet(await nodeClient(api, node), [node], {
    nodeIpFor: () => '127.0.0.1',
    runtimeFor: (_i, _n, hostIp) => new ProcessRuntime({ rootDir, hostIp }),
    ...(serve ? { server: { clientCa: await readFile(api.pki.ca.cert, 'utf8'), port: 0, address: '127.0.0.1', ...serve } } : {}),
    ...rest,
  });
  await kubelet.host.whenRegistered();
  return {
    api, admin, kubelet, rootDir,
    async stop() {
      await kubelet.stop();
      await admin.close();
      await api.close();
      await removeRootDir(rootDir);
    },
  };
}
