// `mini-kube apiserver` as a newcomer runs it from the README: alone it writes DIR/admin.kubeconfig for the port it
// got and says so in one line; a port or a data dir already in use, and a bad --runtime-config or feature gate, are
// told in plain words with what to do.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { freePort } from '../bench/processes.js';
import { bundleMain } from '../support/binary.js';
import { kubectl } from '../support/apiserver.js';

let bundle: { main: string; cleanup(): Promise<void> } | undefined;
let work = '';
const children = new Set<ChildProcess>();

beforeAll(async () => {
  bundle = await bundleMain('mini-kube-apiserver-cmd-');
  work = await mkdtemp(join(tmpdir(), 'mini-kube-apiserver-cmd-'));
}, 60_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await Promise.all([bundle?.cleanup(), work && rm(work, { recursive: true, force: true })]);
});

const apiserver = (...args: string[]): { child: ChildProcess; stderr: () => string; exit: Promise<number | null> } => {
  const child = spawn(process.execPath, [bundle!.main, 'apiserver', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  const exit = once(child, 'exit').then(([code]) => { children.delete(child); return code as number | null; });
  return { child, stderr: () => stderr, exit };
};

const untilLine = async (p: ReturnType<typeof apiserver>, re: RegExp): Promise<RegExpExecArray> => {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const m = re.exec(p.stderr());
    if (m) return m;
    if (Date.now() > deadline || p.child.exitCode !== null) throw new Error(`no ${re} on stderr:\n${p.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('mini-kube apiserver', () => {
  it('writes DIR/admin.kubeconfig for the port it serves on, says so, and refuses a second server on its data dir or port', async () => {
    const dataDir = join(work, 'one');
    const first = apiserver('--data-dir', dataDir, '--secure-port', '0');
    await untilLine(first, /^ready: export KUBECONFIG=(.*)$/m);
    const kubeconfig = join(dataDir, 'admin.kubeconfig');
    expect(first.stderr()).toContain(`\nready: export KUBECONFIG=${kubeconfig}\n`);
    expect(first.stderr()).toMatch(/"msg":"serving"/); // the structured logs stay
    expect((await kubectl(kubeconfig, ['get', '--raw', '/readyz'])).stdout).toBe('ok');
    expect((await kubectl(kubeconfig, ['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'])).stdout).toBe('kubernetes-admin');
    const server = (await kubectl(kubeconfig, ['config', 'view', '-o', 'jsonpath={.clusters[0].cluster.server}'])).stdout;

    const sameDir = apiserver('--data-dir', dataDir, '--secure-port', '0');
    expect(await sameDir.exit).toBe(1);
    expect(sameDir.stderr()).toContain(`\nError: apiserver failed to start: another mini-kube is using ${dataDir}; stop it or pass --data-dir\n`);

    const samePort = apiserver('--data-dir', join(work, 'two'), '--secure-port', new URL(server).port);
    expect(await samePort.exit).toBe(1);
    expect(samePort.stderr()).toMatch(/\nError: apiserver failed to start: listen EADDRINUSE: address already in use 127.0.0.1:\d+; pass --secure-port 0 \(any free port\) or another port\n$/);

    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
  }, 90_000);

  it('refuses a bad --runtime-config or an unknown feature gate as a flag error, before starting', async () => {
    const dataDir = join(work, 'never');
    const runtimeConfig = apiserver('--data-dir', dataDir, '--runtime-config=foo/v1=true');
    expect(await runtimeConfig.exit).toBe(2);
    expect(runtimeConfig.stderr()).toBe('Error: invalid argument "foo/v1=true" for "--runtime-config" flag: unknown api groups foo\nRun \'mini-kube apiserver --help\' for usage.\n');
    const badKey = apiserver('--data-dir', dataDir, '--runtime-config', 'apps/v1/deployments/x=false');
    expect(await badKey.exit).toBe(2);
    expect(badKey.stderr()).toContain('flag: runtime-config invalid key apps/v1/deployments/x\n');
    const gate = apiserver('--data-dir', dataDir, '--feature-gates=Bogus=true');
    expect(await gate.exit).toBe(2);
    expect(gate.stderr()).toBe('Error: invalid argument "Bogus=true" for "--feature-gates" flag: unrecognized feature gate: Bogus\nRun \'mini-kube apiserver --help\' for usage.\n');
    expect(existsSync(dataDir)).toBe(false);
  }, 60_000);

  it('stops gracefully when told to the moment /readyz first says ok', async () => {
    const port = await freePort();
    const p = apiserver('--data-dir', join(work, 'quick-stop'), '--secure-port', String(port));
    const agent = new Agent({ connect: { rejectUnauthorized: false } });
    try {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const res = await request(`https://127.0.0.1:${port}/readyz`, { dispatcher: agent }).catch(() => undefined);
        if (res?.statusCode === 200 && await res.body.text() === 'ok') break;
        await res?.body.dump();
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 5));
      }
    } finally {
      await agent.close();
    }
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(0); // not the signal's default death, with the store left unclosed
    expect(p.stderr()).toMatch(/"msg":"stopped"/);
  }, 60_000);
});
