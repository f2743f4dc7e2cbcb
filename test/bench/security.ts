// `node dist/test/bench/security.js [--quick]` (after `npm run build`): what the security chain costs. Two apiservers
// as child processes (LevelDB, fsync'd writes), each with its own data dir:
//   secure: the defaults, --authorization-mode Node,RBAC and the default admission plugins;
//   open:   --authorization-mode AlwaysAllow and every admission plugin disabled.
// The load is ConfigMap creates from 64 clients authenticated by a client certificate as "bench-user", who is no
// system:masters member: on the secure server a RoleBinding allows the creates, so RBAC really evaluates. A third
// side sends the same load to the secure server from 64 clients carrying a bound service-account token (every
// request's JWT is verified, or answered by the token cache). Rounds alternate between the sides and each keeps its
// best. Target: secure ≥ 80% of open. Each server's CPU time per
// create (from /proc/<pid>/stat) is reported too: on a machine shared with other work it says more than the rate.
// BENCH_CPU_PROF=<dir> runs the secure server under `node --cpu-prof` (the profile is written when it stops).
import { cpus, loadavg, tmpdir } from 'node:os';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Pool } from 'undici';
import { compiledMain } from '../../cmd/package-info.js';
import { ALL_ORDERED_PLUGINS, DEFAULT_OFF_PLUGINS } from '../../pkg/admission/names.js';
import { issueCertificate } from '../../pkg/pki/index.js';
import { loadKey } from '../../pkg/pki/keys.js';
import { x509 } from '../../pkg/pki/x509.js';
import { call, closedLoop, pool, type RunResult } from './load.js';
import { configMap, namespace } from './objects.js';
import { freePort, readTls, startServer, type ServerProcess, type Tls } from './processes.js';

const MAIN = compiledMain(); // the shipped bundle (npm run build)
const quick = process.argv.includes('--quick');
const N = { rounds: 3, create64: { maxOps: quick ? 5_000 : 20_000, maxMs: quick ? 1_000 : 2_000 }, warmup: 2_000 };
const NS = 'bench';
const USER = 'bench-user';
const SA = 'bench-sa';

const log = (msg: string): void => { process.stderr.write(`[bench-security ${new Date().toISOString().slice(11, 19)}] ${msg}\n`); };
const fmt = (v: number): string => v.toLocaleString('en-US', { maximumFractionDigits: 0 });

const defaultPlugins = ALL_ORDERED_PLUGINS.filter((p) => !DEFAULT_OFF_PLUGINS.includes(p));

interface Side {
  server: ServerProcess;
  /** 64 connections as bench-user, or carrying bench-sa's token. */
  user: Pool;
  headers: Record<string, string>;
  next: number;
  best?: RunResult;
  /** CPU milliseconds of the server per create, over every measured round. */
  cpuMs: number;
  ops: number;
}

/** User + system CPU time of a process so far, in ms (clock ticks of /proc/<pid>/stat, 100 per second). */
async function cpuMsOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A client certificate for bench-user, signed by the server's own CA (it made its PKI at start). */
async function userTls(pki: string): Promise<Tls> {
  const [caPem, caKeyPem] = await Promise.all([readFile(join(pki, 'ca.crt'), 'utf8'), readFile(join(pki, 'ca.key'), 'utf8')]);
  const ca = { cert: new x509.X509Certificate(caPem), key: await loadKey(caKeyPem) };
  const pair = await issueCertificate(ca, { subject: { commonName: USER, organizations: ['bench-group'] }, usage: 'client', days: 1 });
  return { ca: Buffer.from(caPem), cert: Buffer.from(pair.certPem), key: Buffer.from(pair.keyPem) };
}

const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}`;
const bindWriter = (name: string, subject: Record<string, string>): string => JSON.stringify({
  apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'configmap-writer' }, subjects: [subject],
});

async function startSide(work: string, name: string, flags: string[], pools: Pool[], prof = false): Promise<Side & { admin: Pool; pki: string }> {
  const dataDir = join(work, name);
  const pki = join(dataDir, 'pki');
  const port = await freePort();
  const profArgs = prof && process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${resolve(process.env.BENCH_CPU_PROF)}`] : [];
  const server = await startServer(name, [...profArgs, MAIN, 'apiserver', '--data-dir', dataDir, '--secure-port', String(port), ...flags], port, () => readTls(pki));
  const admin = pool(server.origin, (await readTls(pki))!, 1);
  pools.push(admin);
  await call(admin, 'POST', '/api/v1/namespaces', namespace(NS));
  await call(admin, 'POST', `${rbac}/roles`, JSON.stringify({
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'configmap-writer' },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get'] }],
  }));
  await call(admin, 'POST', `${rbac}/rolebindings`, bindWriter('bench-user-writes', { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: USER }));
  const user = pool(server.origin, await userTls(pki), 64);
  pools.push(user);
  return { server, user, headers: {}, next: 0, cpuMs: 0, ops: 0, admin, pki };
}

/** The same server's load from 64 connections carrying bench-sa's bound token (TokenRequest, 1 h). */
async function tokenSide(s: Side & { admin: Pool; pki: string }, pools: Pool[]): Promise<Side> {
  await call(s.admin, 'POST', `/api/v1/namespaces/${NS}/serviceaccounts`, JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: SA } }));
  await call(s.admin, 'POST', `${rbac}/rolebindings`, bindWriter('bench-sa-writes', { kind: 'ServiceAccount', name: SA, namespace: NS }));
  const review = JSON.parse((await call(s.admin, 'POST', `/api/v1/namespaces/${NS}/serviceaccounts/${SA}/token`, JSON.stringify({
    apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 },
  }))).toString('utf8')) as { status: { token: string } };
  const user = pool(s.server.origin, { ca: await readFile(join(s.pki, 'ca.crt')) }, 64);
  pools.push(user);
  return { server: s.server, user, headers: { authorization: `Bearer ${review.status.token}` }, next: 1_000_000_000, cpuMs: 0, ops: 0 };
}

const creates = (s: Side, o: { maxOps: number; maxMs: number; concurrency: number }): Promise<RunResult> =>
  closedLoop(o, () => call(s.user, 'POST', `/api/v1/namespaces/${NS}/configmaps`, configMap(NS, `cm-${s.next++}`), undefined, s.headers)).then((r) => {
    if (r.errors) log(`${s.server.name}: ${r.errors} errors, first: ${r.firstError}`);
    return r;
  });

async function main(): Promise<void> {
  const started = performance.now();
  const loadStart = loadavg()[0]!.toFixed(1);
  const work = await mkdtemp(join(tmpdir(), 'mini-kube-bench-security-'));
  const pools: Pool[] = [];
  const sides: Side[] = [];
  try {
    log('starting the secure and the open apiserver');
    const secure = await startSide(work, 'secure', ['--authorization-mode', 'Node,RBAC'], pools, true);
    sides.push(secure);
    const open = await startSide(work, 'open', ['--authorization-mode', 'AlwaysAllow', '--disable-admission-plugins', defaultPlugins.join(',')], pools);
    sides.push(open);
    const token = await tokenSide(secure, pools);
    sides.push(token);
    log('warm-up');
    for (const s of sides) await creates(s, { concurrency: 16, maxOps: N.warmup, maxMs: 3_000 });
    for (let r = 0; r < N.rounds; r++) {
      log(`round ${r + 1}/${N.rounds}`);
      for (const s of sides) {
        const cpu = await cpuMsOf(s.server.pid);
        const res = await creates(s, { concurrency: 64, ...N.create64 });
        s.cpuMs += await cpuMsOf(s.server.pid) - cpu;
        s.ops += res.ops;
        if (!s.best || res.rate > s.best.rate) s.best = res;
      }
    }
    const ratio = secure.best!.rate / open.best!.rate;
    const ok = ratio >= 0.8;
    const perOp = (s: Side): number => s.cpuMs / s.ops;
    const rows = [
      ['ConfigMap creates/s, 64 clients as a RoleBinding-allowed user: Node,RBAC + default admission', `${fmt(secure.best!.rate)} /s`],
      ['ConfigMap creates/s, 64 clients, same user: AlwaysAllow, no admission plugins', `${fmt(open.best!.rate)} /s`],
      ['ConfigMap creates/s, 64 clients with a service-account token: Node,RBAC + default admission', `${fmt(token.best!.rate)} /s`],
      ['ratio (target ≥ 80%)', `${Math.round(ratio * 100)}% ${ok ? 'yes' : 'NO'}`],
      ['apiserver CPU per create: secure / open / secure with a token', `${perOp(secure).toFixed(3)} / ${perOp(open).toFixed(3)} / ${perOp(token).toFixed(3)} ms`],
      ['open CPU per create ÷ secure CPU per create (the rate ratio a CPU-bound server would show)', `${Math.round((perOp(open) / perOp(secure)) * 100)}%`],
    ];
    const desc = `${cpus().length} CPUs, node ${process.version}, load average ${loadStart} at the start, ${loadavg()[0]!.toFixed(1)} at the end; took ${fmt((performance.now() - started) / 1000)} s`;
    process.stdout.write(`\nmini-kube security-chain bench${quick ? ' (--quick)' : ''}: ${desc}\n\n| metric | value |\n| --- | ---: |\n${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}\n\n`);
  } finally {
    await Promise.all(pools.map((p) => p.destroy()));
    await Promise.all([...new Set(sides.map((s) => s.server))].map((server) => server.stop()));
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
