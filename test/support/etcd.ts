// A real etcd (Debian's etcd-server; .ci/run installs it) on free ports in a temp dir, for the etcd3 backend's tests.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../bench/processes.js';

export interface EtcdServer {
  url: string;
  stop(): Promise<void>;
}

/** Whether an `etcd` binary is on PATH. */
export const haveEtcd = (): boolean => spawnSync('etcd', ['--version'], { stdio: 'ignore' }).status === 0;

/**
 * Starts one on two free ports; a port taken between being found free and etcd binding it (another test's server,
 * or the same port found twice) means new ports and another try.
 */
export async function startEtcd(): Promise<EtcdServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startEtcdOnce();
    } catch (err) {
      if (attempt >= 5 || !/address already in use/.test((err as Error).message)) throw err;
    }
  }
}

async function startEtcdOnce(): Promise<EtcdServer> {
  const dir = await mkdtemp(join(tmpdir(), 'etcd-'));
  const client = await freePort();
  let peer = await freePort();
  while (peer === client) peer = await freePort();
  const url = `http://127.0.0.1:${client}`;
  const peerUrl = `http://127.0.0.1:${peer}`;
  const proc = spawn('etcd', [
    '--name', 'test', '--data-dir', join(dir, 'data'),
    '--listen-client-urls', url, '--advertise-client-urls', url,
    '--listen-peer-urls', peerUrl, '--initial-advertise-peer-urls', peerUrl, '--initial-cluster', `test=${peerUrl}`,
    '--log-level', 'error', '--logger', 'zap',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4_000)));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    proc.kill('SIGKILL');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (proc.exitCode !== null) {
      await rm(dir, { recursive: true, force: true });
      throw new Error(`etcd exited: ${stderr}`);
    }
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok && ((await res.json()) as { health?: string }).health === 'true') return { url, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`etcd did not become healthy in 20 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}
