// An exec run to its end, as containerd's ExecSync runs one: its output gathered (stdout and stderr apart), ended
// at its timeout or when its caller gives up (a probe's timeout, a hook whose container stopped). It leads a process
// group of its own, killed whole then (SIGKILL, as containerd kills an exec on its deadline): killing its first
// process alone left the rest running, nsenter's child (entering a PID namespace forks, and nsenter forwards no
// signal) or what a shell started.
import { spawn } from 'node:child_process';
import { realClock } from '../../client/index.js';
import { killSessionTree } from './procfs.js';
import type { ExecResult } from './types.js';

/** The most of each stream kept. */
const MAX_OUTPUT = 16 * 1024 * 1024;

export const execToEnd = (argv: string[], o: { cwd: string; env: Record<string, string>; timeoutSeconds: number; signal?: AbortSignal }): Promise<ExecResult> =>
  new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd: o.cwd, env: o.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = { stdout: '', stderr: '' };
    for (const name of ['stdout', 'stderr'] as const) {
      child[name].setEncoding('utf8').on('data', (d: string) => { if (out[name].length < MAX_OUTPUT) out[name] += d; });
    }
    let timedOut = false;
    const kill = (): void => { if (child.pid) killSessionTree(child.pid); };
    const timer = o.timeoutSeconds > 0 ? realClock.setTimer(() => { timedOut = true; kill(); }, o.timeoutSeconds * 1000) : undefined;
    o.signal?.addEventListener('abort', kill, { once: true });
    if (o.signal?.aborted) kill();
    let settled = false;
    const end = (exitCode: number): void => {
      if (settled) return;
      settled = true;
      timer?.cancel();
      o.signal?.removeEventListener('abort', kill);
      // a command that could not run, or was killed, has 126, as an exec failing so did before
      resolve({ ...out, exitCode, ...(timedOut ? { timedOut } : {}) });
    };
    child.on('error', () => end(126));
    child.on('close', (code) => end(code ?? 126));
  });
