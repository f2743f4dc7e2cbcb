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

export async function startTestApiServer(overrides: Partial<ApiServerConfig> & { dataDir?: string } = {}): Promise<TestApiServer> {
  const dataDir = overrides.dataDir ?? await mkdtemp(join(tmpdir(), 'mini-kube-test-'));
  const pki = await ensurePki(join(dataDir, 'pki'), { nodes: [] });
  const logger = pino({ name: 'apiserver', level: process.env.MINI_KUBE_TEST_LOG ?? 'warn' });
  const server = await startApiServer({
    ...defaultApiServerConfig(dataDir, logger),
    securePort: 0,
    tlsCertFile: pki.apiserver.cert,
    tlsPrivateKeyFile: pki.apiserver.key,
    clientCaFile: pki.ca.cert,
    ...overrides,
  });
  const [caPem, certPem, keyPem] = await Promise.all([pki.ca.cert, pki.admin.cert, pki.admin.key].map((p) => readFile(p, 'utf8')));
  const kubeconfig = join(dataDir, 'admin.kubeconfig');
  await writeKubeconfig(kubeconfig, { server: server.url, caPem: caPem!, certPem: certPem!, keyPem: keyPem!, user: 'kubernetes-admin' });
  const agent = new Agent({ connect: { ca: caPem, cert: certPem, key: keyPem } });
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await agent.close();
    await server.close();
  };
  return {
    server, url: server.url, dataDir, pki, kubeconfig, agent,
    async api(method, path, body, headers = {}) {
      const res = await request(server.url + path, {
        method: method as 'GET', dispatcher: agent,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
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

export function kubectl(kubeconfig: string, args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('kubectl', ['--kubeconfig', kubeconfig, ...args], { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}
