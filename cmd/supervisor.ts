// The children of `mini-kube up`: each with its output in its own log, stopped together; one that dies while the
// cluster comes up fails the whole, one that dies later is started again after a back-off.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { STOP_GRACE_MS, SUPERVISED_ENV } from './signals.js';

export interface ChildExit {
  name: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  logFile: string;
  /** Where in the log this spawn's output begins: the log is appended to across runs. */
  logStart: number;
}

/**
 * How a child that dies once the cluster is up comes back, as the kubelet brings back a static pod of the control
 * plane (and systemd the kubelet): at once the first time, as the kubelet's doBackOff (no back-off entry yet), then
 * after a back-off that starts at `initialMs` and doubles up to `maxMs`, starting over once the child has run
 * `resetAfterMs` (upstream's CrashLoopBackOff: 10 s, 5 min, 10 min).
 */
export interface RestartPolicy {
  initialMs: number;
  maxMs: number;
  resetAfterMs: number;
  /** Told of each death, with the wait before the restart. */
  onRestart(exit: ChildExit, delayMs: number): void;
}

interface Spawned {
  proc: ChildProcess;
  logStart: number;
}

interface Running extends Spawned {
  name: string;
  logFile: string;
  spawn: () => Spawned;
  exited: Promise<void>;
  startedAt: number;
  /** The wait before the last restart; undefined before the first death and once the back-off started over. */
  backoffMs?: number;
  restart?: NodeJS.Timeout;
}

const describeExit = (e: ChildExit): string =>
  e.signal ? `was killed by ${e.signal}` : `exited with code ${String(e.code)}`;

/** How much of a log's end is searched for the last error: the fatal line is among a dying process's last ones. */
const TAIL_BYTES = 64 * 1024;

/**
 * The last error a child wrote to its log from byte `from` on (what one spawn wrote): a line our components log at
 * pino's error or fatal level (its message and its error's), or else a crash's `SomethingError: message` line;
 * undefined when there is neither.
 */
export function lastLoggedError(logFile: string, from = 0): string | undefined {
  let tail: string;
  try {
    const fd = openSync(logFile, 'r');
    try {
      const size = fstatSync(fd).size;
      const buf = Buffer.alloc(Math.max(0, Math.min(size - from, TAIL_BYTES)));
      readSync(fd, buf, 0, buf.length, size - buf.length);
      tail = buf.toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  let crash: string | undefined;
  for (const line of tail.split('\n').reverse()) {
    if (line.startsWith('{')) {
      try {
        const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
        if ((entry.level ?? 0) >= 50) return [entry.msg, entry.err?.message].filter(Boolean).join(': ');
      } catch { /* cut by the tail's start */ }
    } else if (crash === undefined && /^[A-Za-z]*Error\b.*:/.test(line)) {
      crash = line;
    }
  }
  return crash;
}

export const unexpectedExitMessage = (e: ChildExit): string => {
  const error = lastLoggedError(e.logFile, e.logStart);
  return `${e.name} ${describeExit(e)}; see its log: ${e.logFile}${error ? ` (its last error: ${error})` : ''}`;
};

export class Supervisor {
  private readonly children: Running[] = [];
  private stopping = false;
  /** Aborted, with the ChildExit as reason, when a child dies before stop() was asked for. */
  readonly failure = new AbortController();

  private policy?: RestartPolicy;

  /** `command` and `prefix` start every child, e.g. node and the compiled main.js. */
  constructor(private readonly command: string, private readonly prefix: string[]) {}

  /**
   * `commandFlags` go before the prefix: node's own flags. The child gets an IPC channel, never used for messages:
   * its close tells the child that this process died (signals.ts's exitWithParent).
   */
  start(name: string, args: string[], logFile: string, commandFlags: string[] = []): void {
    const spawnChild = (): Spawned => {
      const fd = openSync(logFile, 'a', 0o600);
      try {
        const logStart = fstatSync(fd).size;
        return { logStart, proc: spawn(this.command, [...commandFlags, ...this.prefix, ...args], { stdio: ['ignore', fd, fd, 'ipc'], env: { ...process.env, [SUPERVISED_ENV]: '1' } }) };
      } finally {
        closeSync(fd); // the child holds its own copy
      }
    };
    const child: Running = { name, logFile, spawn: spawnChild, ...spawnChild(), exited: Promise.resolve(), startedAt: Date.now() };
    this.watch(child);
    this.children.push(child);
  }

  /** From now on a child that dies is started again (the cluster is up) instead of failing the whole. */
  keepAlive(policy: RestartPolicy): void {
    this.policy = policy;
  }

  private watch(child: Running): void {
    child.exited = new Promise<void>((resolve) => {
      let ended = false;
      const done = (code: number | null, signal: NodeJS.Signals | null): void => {
        // a child that could not be spawned may report both 'error' and 'exit': one death, one restart
        if (ended) return;
        ended = true;
        resolve();
        if (this.stopping || this.failure.signal.aborted) return;
        const exit: ChildExit = { name: child.name, code, signal, logFile: child.logFile, logStart: child.logStart };
        if (!this.policy) {
          this.failure.abort(exit);
          return;
        }
        const ranLong = Date.now() - child.startedAt >= this.policy.resetAfterMs;
        if (ranLong || child.backoffMs === undefined) child.backoffMs = 0;
        else child.backoffMs = child.backoffMs === 0 ? this.policy.initialMs : Math.min(child.backoffMs * 2, this.policy.maxMs);
        this.policy.onRestart(exit, child.backoffMs);
        child.restart = setTimeout(() => {
          child.restart = undefined;
          if (this.stopping) return;
          Object.assign(child, child.spawn(), { startedAt: Date.now() });
          this.watch(child);
        }, child.backoffMs);
      };
      child.proc.once('exit', done);
      child.proc.once('error', () => done(null, null));
    });
  }

  /**
   * Forwards the signal to every child still running and waits; a child that lingers past the grace gets SIGKILL.
   * The first child started (the apiserver, which every other one talks to) is stopped last, once the others have
   * exited: they can release their leader leases and write their last status on the way out.
   */
  async stop(graceMs = STOP_GRACE_MS): Promise<void> {
    this.stopping = true;
    for (const c of this.children) clearTimeout(c.restart);
    const deadline = Date.now() + graceMs;
    const [first, ...rest] = this.children;
    await this.stopGroup(rest, 'SIGTERM', deadline);
    if (first) await this.stopGroup([first], 'SIGTERM', deadline);
  }

  /** Ends every child at once (a second Ctrl-C). */
  kill(): void {
    this.stopping = true;
    for (const c of this.children) {
      clearTimeout(c.restart);
      if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
    }
  }

  private async stopGroup(children: Running[], signal: NodeJS.Signals, deadline: number): Promise<void> {
    const alive = children.filter((c) => c.proc.exitCode === null && c.proc.signalCode === null);
    for (const c of alive) c.proc.kill(signal);
    const all = Promise.all(alive.map((c) => c.exited));
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<'late'>((r) => { timer = setTimeout(() => r('late'), Math.max(0, deadline - Date.now())); });
    if ((await Promise.race([all, grace])) === 'late') {
      for (const c of alive) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
      await all;
    }
    clearTimeout(timer);
  }
}
