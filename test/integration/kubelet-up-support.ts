// Shared by the kubelet's `up` tests: the compiled binary started on a temp data dir (each test file stops it with
// SIGTERM after each test by registering `afterEach(stopUp)` itself: test files share this module, so a hook here
// would be registered for the first file only), and the seeds' scenario: every node Ready, then `kubectl create
// deployment web --image=nginx --replicas=3` ends in 3 Running pods with IPs and the kubelet's events.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { bundledMain } from '../../cmd/package-info.js';
import { kubectl } from '../support/apiserver.js';
import { eventually } from './kubelet-support.js';

export const main = bundledMain;
let dir = '';
let up: ChildProcess | undefined;

export const stopUp = async (): Promise<void> => {
  if (up && up.exitCode === null && up.signalCode === null) {
    up.kill('SIGTERM');
    await new Promise((r) => up?.once('exit', r));
  }
  up = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = '';
};

/** The last lines of a component's log in the running cluster's data dir (for a failing test's message). */
export const upLogTail = async (component: string, lines = 20): Promise<string> =>
  (await readFile(join(dir, 'logs', `${component}.log`), 'utf8').catch((e: Error) => e.message)).trim().split('\n').slice(-lines).join('\n');

export const startUp = async (...args: string[]): Promise<string> => {
  dir = await mkdtemp(join(tmpdir(), 'kubelet-up-'));
  const child = spawn(process.execPath, [main, 'up', '--data-dir', dir, '--secure-port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  up = child;
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); if (out.includes('\n')) resolve(); });
    child.once('exit', (code) => reject(new Error(`up exited ${String(code)}: ${err}`)));
  });
  expect(out).toBe(`ready: export KUBECONFIG=${join(dir, 'admin.kubeconfig')}\n`);
  return join(dir, 'admin.kubeconfig');
};

export const seedsScenario = async (kc: string): Promise<void> => {
  const nodes = await kubectl(kc, ['get', 'nodes', '--no-headers']);
  expect(nodes.stdout.trim().split('\n').map((l) => l.split(/\s+/).slice(0, 2).join(' '))).toEqual(['node-1 Ready', 'node-2 Ready', 'node-3 Ready']);
  expect((await kubectl(kc, ['create', 'deployment', 'web', '--image=nginx', '--replicas=3'])).code).toBe(0);
  const lines = await eventually(async () => {
    const r = await kubectl(kc, ['get', 'pods', '-l', 'app=web', '--no-headers', '-o', 'wide']);
    const ls = r.stdout.trim().split('\n').filter(Boolean);
    return ls.length === 3 && ls.every((l) => /\s1\/1\s+Running\s/.test(l)) ? ls : undefined;
  }, 30_000, '3 Running pods');
  for (const l of lines) expect(l).toMatch(/\s\d+\.\d+\.\d+\.\d+\s+node-\d/);
  // The kubelets' recorders post their events after the status that made the pods Running: wait for them.
  const want = ['Scheduled', 'Pulling', 'Pulled', 'Created', 'Started'];
  await eventually(async () => {
    const events = await kubectl(kc, ['get', 'events', '--field-selector', 'involvedObject.kind=Pod', '-o', 'jsonpath={range .items[*]}{.reason}{"\\n"}{end}']);
    const reasons = new Set(events.stdout.split('\n'));
    return want.every((r) => reasons.has(r)) ? true : undefined;
  }, 30_000, `the pods' events ${want.join(', ')}`);
};

