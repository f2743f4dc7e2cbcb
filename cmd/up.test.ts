// `mini-kube up` as a user runs it: the compiled binary, real child processes, a real TLS client.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { bundledMain } from './package-info.js';

const main = bundledMain;

let dir: string;
let ups: ChildProcess[] = [];
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'up-')); });
afterEach(async () => {
  for (const up of ups) {
    if (up.exitCode === null && up.signalCode === null) {
      process.kill(-up.pid!, 'SIGKILL'); // its children too
      await new Promise((r) => up.once('exit', r));
    }
  }
  ups = [];
  await rm(dir, { recursive: true, force: true });
});

const run = (...args: string[]) => {
  // a process group of its own, as a terminal gives a command (Ctrl-C signals the whole group)
  const child = spawn(process.execPath, [main, 'up', '--data-dir', dir, ...args], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  ups.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  /** Created on demand so that a test expecting a failure leaves no dangling rejection. */
  const line = (): Promise<string> => new Promise<string>((resolve, reject) => {
    if (out.includes('\n')) resolve(out);
    child.stdout.on('data', () => { if (out.includes('\n')) resolve(out); });
    void exited.then((code) => reject(new Error(`up exited ${String(code)}: ${err}`)));
  });
  return { child, exited, line, stderr: () => err, stdout: () => out };
};

/** The process running `mini-kube <command>` with this argument (a child of up, found by its command line). */
const pidOf = (command: string, arg: string): number => {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const argv = (() => { try { return readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0'); } catch { return []; } })();
    if (argv.includes(command) && argv.includes(arg)) return Number(entry);
  }
  throw new Error(`no ${command} process with ${arg}`);
};

/** The live processes whose parent is `pid` (a zombie is not one: it has exited). */
const childrenOf = (pid: number): number[] => readdirSync('/proc').filter((e) => /^\d+$/.test(e)).flatMap((entry) => {
  try {
    // pid (comm) state ppid ...: comm may hold spaces and parentheses
    const [state, ppid] = readFileSync(`/proc/${entry}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
    return Number(ppid) === pid && state !== 'Z' ? [Number(entry)] : [];
  } catch {
    return [];
  }
});
const alive = (pid: number): boolean => {
  try {
    return !/^.*\) Z /s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

describe.skipIf(!existsSync(main))('mini-kube up (compiled)', () => {
  it('prints one ready line, serves the admin kubeconfig, and stops cleanly on Ctrl-C', async () => {
    const u = run('--secure-port', '0');
    expect(await u.line()).toBe(`ready: export KUBECONFIG=${join(dir, 'admin.kubeconfig')}\n`);
    expect((await stat(join(dir, 'admin.kubeconfig'))).mode & 0o777).toBe(0o600);

    const kc = parse(await readFile(join(dir, 'admin.kubeconfig'), 'utf8'));
    const user = kc.users[0].user;
    const b64 = (s: string) => Buffer.from(s, 'base64').toString();
    const agent = new Agent({ connect: { ca: b64(kc.clusters[0].cluster['certificate-authority-data']), cert: b64(user['client-certificate-data']), key: b64(user['client-key-data']) } });
    const res = await request(`${kc.clusters[0].cluster.server}/api/v1/namespaces/default`, { dispatcher: agent });
    expect(res.statusCode).toBe(200);
    expect((await res.body.json() as { metadata: { name: string } }).metadata.name).toBe('default');

    // as kubeadm init: kube-public/cluster-info readable without credentials, signed with each signing bootstrap token
    const server = kc.clusters[0].cluster.server as string;
    const ca = b64(kc.clusters[0].cluster['certificate-authority-data']);
    const anonymous = new Agent({ connect: { ca } });
    const clusterInfo = async (): Promise<{ data: Record<string, string> }> =>
      (await request(`${server}/api/v1/namespaces/kube-public/configmaps/cluster-info`, { dispatcher: anonymous })).body.json() as Promise<{ data: Record<string, string> }>;
    expect((await clusterInfo()).data.kubeconfig).toContain(`server: ${server}`);
    const token = await request(`${server}/api/v1/namespaces/kube-system/secrets`, {
      dispatcher: agent, method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { name: 'bootstrap-token-abcdef' }, type: 'bootstrap.kubernetes.io/token', stringData: { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true', 'usage-bootstrap-signing': 'true' } }),
    });
    expect(token.statusCode).toBe(201);
    await token.body.dump();
    for (const deadline = Date.now() + 20_000; !(await clusterInfo()).data['jws-kubeconfig-abcdef'];) {
      if (Date.now() > deadline) throw new Error('cluster-info not signed by the bootstrap signer');
      await new Promise((r) => setTimeout(r, 100));
    }
    const whoami = await request(`${server}/apis/authentication.k8s.io/v1/selfsubjectreviews`, {
      dispatcher: anonymous, method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer abcdef.0123456789abcdef' },
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    });
    expect((await whoami.body.json() as { status: { userInfo: { username: string } } }).status.userInfo.username).toBe('system:bootstrap:abcdef');
    await anonymous.close();
    await agent.close();

    // a component killed once the cluster is up comes back at once, as the kubelet restarts a container the first time
    const metricsLog = join(dir, 'logs', 'metrics-server.log');
    const starts = async (): Promise<number> => (await readFile(metricsLog, 'utf8')).split('\n').filter((l) => l.includes('"Serving securely"')).length;
    expect(await starts()).toBe(1);
    process.kill(pidOf('metrics-server', join(dir, 'metrics-server.kubeconfig')), 'SIGKILL');
    for (const deadline = Date.now() + 10_000; await starts() < 2;) {
      if (Date.now() > deadline) throw new Error(`metrics-server was not started again: ${u.stderr()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(u.stderr()).toContain(`Warning: metrics-server was killed by SIGKILL; see its log: ${metricsLog}; starting it again\n`);

    // Ctrl-C: SIGINT to every process of the group; up stops its children itself, the apiserver last, so the
    // controller-manager and the scheduler give their leases up (a restart does not wait 15 s for them)
    process.kill(-u.child.pid!, 'SIGINT');
    expect(await u.exited).toBe(0);
    expect(await readFile(join(dir, 'logs', 'apiserver.log'), 'utf8')).toContain('shutting down');
    for (const c of ['controller-manager', 'scheduler']) expect(await readFile(join(dir, 'logs', `${c}.log`), 'utf8'), c).toContain('"released lease"');
  });

  it('holds its data dir: a second up is refused naming its pid; killed with SIGKILL, its children stop and the dir is free', async () => {
    const first = run('--secure-port', '0');
    await first.line();
    // the self-signed serving pairs of the scheduler, the controller-manager and the kubelet are made once, then kept
    const servingPairs = (): Promise<string[]> => Promise.all(['pki/kube-scheduler.crt', 'pki/kube-controller-manager.crt', 'kubelet/node-1/pki/kubelet.crt']
      .map((f) => readFile(join(dir, f), 'utf8')));
    const pairs = await servingPairs();
    const children = childrenOf(first.child.pid!);
    expect(children.length).toBeGreaterThanOrEqual(4); // apiserver, controller-manager, scheduler, kubelet, ...
    // refused by up's own claim, which does not depend on its apiserver holding the store (it may be restarting)
    const second = run('--secure-port', '0');
    expect(await second.exited).toBe(1);
    expect(second.stdout()).toBe('');
    expect(second.stderr()).toBe(`Error: another mini-kube (pid ${first.child.pid}) is using ${dir}; stop it or pass --data-dir\n`);

    // up killed outright: each child sees its channel to up close and stops gracefully
    process.kill(first.child.pid!, 'SIGKILL');
    for (const deadline = Date.now() + 20_000; children.some(alive);) {
      if (Date.now() > deadline) throw new Error(`still running: ${children.filter(alive).join(', ')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await readFile(join(dir, 'logs', 'apiserver.log'), 'utf8')).toContain('shutting down');
    const third = run('--secure-port', '0');
    expect(await third.line()).toBe(`ready: export KUBECONFIG=${join(dir, 'admin.kubeconfig')}\n`);
    expect(await servingPairs()).toEqual(pairs);
    process.kill(-third.child.pid!, 'SIGINT');
    expect(await third.exited).toBe(0);
  }, 90_000); // two whole control planes started, and one stopped by its children alone

  it('says which child died and where its log is, and exits 1', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    const u = run('--secure-port', String(port));
    expect(await u.exited).toBe(1);
    blocker.close();
    expect(u.stdout()).toBe('');
    expect(u.stderr()).toContain(`apiserver exited with code 1; see its log: ${join(dir, 'logs', 'apiserver.log')}`);
  });

  it('refuses a bad flag with exit 2', async () => {
    const u = run('--nodes', 'many');
    expect(await u.exited).toBe(2);
    expect(u.stderr()).toContain('invalid argument "many" for "--nodes" flag');
  });
});
