// `mini-kube scheduler` as its own OS process (the binary bundled from the current sources), with its own
// identity (system:kube-scheduler client certificate, so RBAC is exercised) and a KubeSchedulerConfiguration file:
// two candidates elect a leader on the Lease kube-system/kube-scheduler; the leader binds pods; when it is killed
// the other takes the lease over and binds the next pods.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Client } from '../../pkg/client/index.js';
import { writeKubeconfig } from '../../pkg/pki/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { bundleMain } from '../support/binary.js';
import { adminClient, createNode, eventually, podObject, waitBound } from './scheduler-support.js';

let bundle: { main: string; cleanup(): Promise<void> } | undefined;
let api: TestApiServer;
let client: Client;
let kubeconfig = '';
let configFile = '';
const children = new Set<ChildProcess>();

beforeAll(async () => {
  bundle = await bundleMain('mini-kube-scheduler-');
  api = await startTestApiServer();
  client = await adminClient(api);
  const [caPem, certPem, keyPem] = await Promise.all([api.pki.ca.cert, api.pki.scheduler.cert, api.pki.scheduler.key].map((p) => readFile(p, 'utf8')));
  kubeconfig = join(api.dataDir, 'scheduler.kubeconfig');
  await writeKubeconfig(kubeconfig, { server: api.url, caPem: caPem!, certPem: certPem!, keyPem: keyPem!, user: 'system:kube-scheduler' });
  configFile = join(api.dataDir, 'scheduler.yaml');
  await writeFile(configFile, [
    'apiVersion: kubescheduler.config.k8s.io/v1',
    'kind: KubeSchedulerConfiguration',
    'leaderElection:',
    '  leaderElect: true',
    '  leaseDuration: 3s',
    '  renewDeadline: 2s',
    '  retryPeriod: 500ms',
    'profiles:',
    '- schedulerName: default-scheduler',
    '  plugins:',
    '    score:',
    '      disabled:',
    '      - name: ImageLocality',
    '',
  ].join('\n'));
  await createNode(client, 'proc-n1');
}, 60_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await client?.close();
  await api?.close();
  await bundle?.cleanup();
});

const startScheduler = (): { child: ChildProcess; log: () => string } => {
  const child = spawn(process.execPath, [bundle!.main, 'scheduler', '--kubeconfig', kubeconfig, '--secure-port', '0', '--config', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  let log = '';
  child.stderr!.on('data', (c: Buffer) => { log += c.toString(); });
  return { child, log: () => log };
};

const holder = async (): Promise<string | undefined> => {
  try {
    return (await client.leases('kube-system').get('kube-scheduler')).spec?.holderIdentity || undefined;
  } catch {
    return undefined;
  }
};

it('elects a leader, binds pods, and hands over when the leader dies', async () => {
  const a = startScheduler();
  const first = await eventually(holder, 20_000, 'a lease holder');
  const b = startScheduler();
  await client.pods('default').create(podObject('proc-1'));
  expect(await waitBound(client, 'proc-1', 'default', 20_000)).toBe('proc-n1');
  expect(a.log()).toContain('started leading');
  await new Promise((r) => setTimeout(r, 1000));
  expect(b.log()).not.toContain('started leading');
  a.child.kill('SIGKILL');
  const second = await eventually(async () => { const h = await holder(); return h && h !== first ? h : undefined; }, 20_000, 'a new lease holder');
  expect(second).not.toBe(first);
  await client.pods('default').create(podObject('proc-2'));
  expect(await waitBound(client, 'proc-2', 'default', 20_000)).toBe('proc-n1');
  expect(b.log()).toContain('started leading');
  b.child.kill('SIGTERM');
  const code = await new Promise<number | null>((done) => b.child.on('exit', (c) => done(c)));
  expect(code).toBe(0);
}, 60_000);

it('refuses a bad configuration with exit 2', async () => {
  const bad = join(api.dataDir, 'bad.yaml');
  await writeFile(bad, 'apiVersion: kubescheduler.config.k8s.io/v1beta9\nkind: KubeSchedulerConfiguration\n');
  const child = spawn(process.execPath, [bundle!.main, 'scheduler', '--kubeconfig', kubeconfig, '--secure-port', '0', '--config', bad], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => { err += c.toString(); });
  const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
  expect(code).toBe(2);
  expect(err).toContain('no kind "KubeSchedulerConfiguration" is registered for version "kubescheduler.config.k8s.io/v1beta9"');
});

// As client-go's renew() and kube-scheduler's OnStoppedLeading: with the apiserver gone, the leader's renewals fail
// (connection refused is not retried) until the renew deadline passes; it stops leading and exits 1.
it('a leader whose apiserver goes away loses leadership within the renew deadline and exits', async () => {
  const s = startScheduler();
  await eventually(async () => (s.log().includes('started leading') ? true : undefined), 20_000, 'a leader');
  const exited = new Promise<number | null>((done) => s.child.on('exit', (c) => done(c)));
  await client.close();
  await api.stop();
  const stoppedAt = Date.now();
  const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('still running'), 15_000))]);
  expect(code).toBe(1);
  expect(Date.now() - stoppedAt).toBeLessThan(2_000 + 500 + 5_000); // renew deadline + retry period + the exit itself
  expect(s.log()).toContain('failed to renew lease kube-scheduler');
}, 60_000);
