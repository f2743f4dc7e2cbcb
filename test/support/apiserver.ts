// A real apiserver for tests: in this process, on a random port, with a temp data dir, fresh PKI
// and an admin kubeconfig that the real kubectl can use.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { pino } from 'pino';
import { defaultApiServerConfig, type ApiServerConfig, type RunningApiServer } from '../../pkg/apiserver/config.js';
import { startApiServer } from '../../pkg/apiserver/server.js';
import { Client, type RestConfig } from '../../pkg/client/index.js';
import { runControllerManager } from '../../pkg/controller/controller-manager.js';
import { ensurePki, writeKubeconfig, type PkiPaths } from '../../pkg/pki/index.js';

export interface TestApiServer {
  server: RunningApiServer;
  url: string;
  dataDir: string;
  pki: PkiPaths;
  kubeconfig: string;
  /** An undici dispatcher that authenticates as the admin. */
  agent: Agent;
  /** JSON request as the admin; returns status, headers and the parsed (or raw) body. */
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any }>;
  kubectl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** kubectl with `input` on its stdin (for `apply -f -`). */
  kubectlWithInput(input: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  stop(): Promise<void>;
  /** Stops and removes the data dir. */
  close(): Promise<void>;
}

export interface TestApiServerOptions extends Partial<ApiServerConfig> {
  dataDir?: string;
  /**
   * Controllers of the controller-manager to run in this process (as the admin) next to the server, as a cluster
   * has them: by default the serviceaccount controller, whose "default" accounts the ServiceAccount admission plugin
   * needs before it admits a pod; [] for an apiserver alone.
   */
  controllers?: string[];
  /**
   * Default: TaintNodesByCondition off, as upstream's integration tests turn it off: no node lifecycle controller
   * lifts the not-ready taint of the nodes a test creates ([] keeps every default plugin on).
   */
  disableAdmissionPlugins?: string[];
}

/**
 * MINI_KUBE_TEST_ETCD=<etcd URL> runs the tests' apiservers on that etcd instead of LevelDB, each under its own
 * prefix named after its data dir (so a restart on the same data dir finds its objects again).
 */
const etcdBackend = (dataDir: string): Partial<ApiServerConfig> => {
  const url = process.env.MINI_KUBE_TEST_ETCD;
  return url ? { storageBackend: 'etcd3', etcd: { servers: [url], prefix: `/test${dataDir}` } } : {};
};

export async function startTestApiServer(options: TestApiServerOptions = {}): Promise<TestApiServer> {
  const { controllers = ['serviceaccount'], disableAdmissionPlugins = ['TaintNodesByCondition'], ...overrides } = options;
  const dataDir = overrides.dataDir ?? await mkdtemp(join(tmpdir(), 'mini-kube-test-'));
  const pki = await ensurePki(join(dataDir, 'pki'), { nodes: [] });
  const logger = pino({ name: 'apiserver', level: process.env.MINI_KUBE_TEST_LOG ?? 'warn' });
  const server = await startApiServer({
    ...defaultApiServerConfig(dataDir, logger),
    securePort: 0,
    tlsCertFile: pki.apiserver.cert,
    tlsPrivateKeyFile: pki.apiserver.key,
    clientCaFile: pki.ca.cert,
    allowPrivileged: true, // as `mini-kube up` and kubeadm's clusters
    ...etcdBackend(dataDir),
    disableAdmissionPlugins,
    ...overrides,
  });
  const [caPem, certPem, keyPem] = await Promise.all([pki.ca.cert, pki.admin.cert, pki.admin.key].map((p) => readFile(p, 'utf8')));
  const kubeconfig = join(dataDir, 'admin.kubeconfig');
  await writeKubeconfig(kubeconfig, { server: server.url, caPem: caPem!, certPem: certPem!, keyPem: keyPem!, user: 'kubernetes-admin' });
  const agent = new Agent({ connect: { ca: caPem, cert: certPem, key: keyPem } });
  const stopControllers = controllers.length
    ? runControllers({ host: server.url, caData: caPem!, certData: certPem!, keyData: keyPem!, qps: 0 }, controllers) : undefined;
  if (controllers.includes('serviceaccount')) await untilDefaultAccount(server.url, agent);
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await stopControllers?.();
    await agent.close();
    await server.close();
  };
  return {
    server, url: server.url, dataDir, pki, kubeconfig, agent,
    async api(method, path, body, headers = {}) {
      const res = await request(server.url + path, {
        method: method as 'GET', dispatcher: agent,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body === undefined ? undefined : typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
      });
      const text = await res.body.text();
      let parsed: unknown = text;
      try { parsed = JSON.parse(text); } catch { /* not JSON: keep the text */ }
      return { status: res.statusCode, headers: res.headers, body: parsed };
    },
    kubectl: (...args) => kubectl(kubeconfig, args),
    kubectlWithInput: (input, ...args) => kubectl(kubeconfig, args, input),
    stop,
    async close() {
      await stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits for default/default: tests create pods in "default" right away, and a loaded machine may be slow to sync. */
async function untilDefaultAccount(url: string, agent: Agent): Promise<void> {
  for (const deadline = Date.now() + 30_000; ;) {
    const res = await request(`${url}/api/v1/namespaces/default/serviceaccounts/default`, { dispatcher: agent });
    await res.body.dump();
    if (res.statusCode === 200) return;
    if (Date.now() > deadline) throw new Error('the serviceaccount controller made no default/default ServiceAccount within 30 s');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Runs the named controllers until the returned function is called (it resolves once they have stopped). */
function runControllers(restConfig: RestConfig, controllers: string[]): () => Promise<void> {
  const client = new Client(restConfig);
  const ac = new AbortController();
  const run = runControllerManager({
    client, restConfig, controllers, leaderElect: false, useServiceAccountCredentials: false,
    logger: pino({ name: 'controller-manager', level: process.env.MINI_KUBE_TEST_LOG ?? 'warn' }),
  }, ac.signal);
  return async () => {
    ac.abort();
    await run;
    await client.close();
  };
}

/** The Warning headers' texts (`299 - "text"`), in order. */
export function warningsOf(headers: Record<string, string | string[] | undefined>): string[] {
  const raw = headers.warning;
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return values.map((v) => JSON.parse(v.replace(/^299 - /, '')) as string);
}

export function kubectl(kubeconfig: string, args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('kubectl', ['--kubeconfig', kubeconfig, ...args], { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}
