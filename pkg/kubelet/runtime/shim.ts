// The container shim (`mini-kube container-shim STATE_DIR`), as containerd-shim or conmon: a detached process that
// owns one container's process, so the kubelet can die and come back without touching it. It writes the output to
// the CRI log ("<RFC3339Nano> stdout|stderr F|P <line>"), records the start (pid.json) and the exit (exit.json) in
// the state directory, serves the output and takes stdin on its Unix socket (attach; the kubelet's own connection
// tells it of the exit), forwards the signals it gets to the container, and exits after the container.
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync, rmSync, type WriteStream } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { constants } from 'node:os';
import { join } from 'node:path';
import { nowNanos, rfc3339Nano } from './cri-time.js';
import { onPty } from './process-streams.js';
import { killSessionTree } from './procfs.js';
import { EXIT_FILE, Frame, frame, frameReader, notFoundMessage, SPEC_FILE, STARTED_FILE, writeStateFile, type ShimExit, type ShimSpec, type ShimStarted } from './shim-protocol.js';

const nanoTime = (): string => rfc3339Nano(nowNanos());

/**
 * Turns a byte stream into CRI log lines written to `out`; at the end, output left without a newline is a last full
 * line, as containerd writes it (else a container's final `printf done` would be lost).
 */
const criWriter = (out: () => WriteStream, stream: 'stdout' | 'stderr'): { write: (chunk: Buffer) => void; end: () => void } => {
  let pending = '';
  return {
    write: (chunk) => {
      pending += chunk.toString('utf8');
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        out().write(`${nanoTime()} ${stream} F ${pending.slice(0, nl)}\n`);
        pending = pending.slice(nl + 1);
      }
      if (pending.length > 16 * 1024) { out().write(`${nanoTime()} ${stream} P ${pending}\n`); pending = ''; }
    },
    end: () => {
      if (pending) out().write(`${nanoTime()} ${stream} F ${pending}\n`);
      pending = '';
    },
  };
};

/** How long the output of a container whose process exited is waited for, when something else still holds it. */
const OUTPUT_DRAIN_MS = 2_000;
const FORWARDED: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2'];

export async function runShim(stateDir: string): Promise<void> {
  const spec = JSON.parse(readFileSync(join(stateDir, SPEC_FILE), 'utf8')) as ShimSpec;
  let out = createWriteStream(spec.logPath, { flags: 'a' });
  const clients = new Set<Socket>();
  let startedFrame: Buffer | undefined;
  let exitFrame: Buffer | undefined;
  const broadcast = (b: Buffer): void => { for (const c of clients) c.write(b); };

  // a tty container runs on a pseudo-terminal (`script`), whose one output is the container's stdout
  const argv = (spec.tty && onPty(spec.argv)) || spec.argv;
  const keepStdin = spec.stdin || spec.tty;
  let stdinOpen = keepStdin;

  const server = createServer((sock) => {
    sock.on('error', () => sock.destroy());
    if (exitFrame) { sock.end(exitFrame); return; }
    clients.add(sock);
    sock.once('close', () => clients.delete(sock));
    if (startedFrame) sock.write(startedFrame);
    sock.on('data', frameReader((type, payload) => {
      if (type === Frame.reopenLog) {
        // what was written to the old file is flushed there; from now on the new one takes the output
        const old = out;
        out = createWriteStream(spec.logPath, { flags: 'a' });
        old.end(() => sock.write(frame(Frame.logReopened)));
        return;
      }
      if (!stdinOpen || !child.stdin) return;
      if (type === Frame.stdin) child.stdin.write(payload);
      else if (type === Frame.stdinEnd) { stdinOpen = false; child.stdin.end(); }
    }));
  });
  rmSync(spec.socket, { force: true });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(spec.socket, resolve); });

  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: spec.cwd, env: spec.env, detached: true, stdio: [keepStdin ? 'pipe' : 'ignore', 'pipe', 'pipe', ...(spec.startedByte ? ['pipe' as const] : [])],
  });
  child.stdin?.on('error', () => undefined); // the container may exit before reading its input
  for (const s of FORWARDED) process.on(s, () => { try { if (child.pid) process.kill(child.pid, s); } catch { /* gone */ } });
  const log = { stdout: criWriter(() => out, 'stdout'), stderr: criWriter(() => out, spec.tty ? 'stdout' : 'stderr') };
  child.stdout!.on('data', (chunk: Buffer) => { log.stdout.write(chunk); broadcast(frame(Frame.stdout, chunk)); });
  child.stderr!.on('data', (chunk: Buffer) => { log.stderr.write(chunk); broadcast(frame(spec.tty ? Frame.stdout : Frame.stderr, chunk)); });

  let finished = false;
  const finish = (exit: ShimExit): void => {
    if (finished) return;
    finished = true;
    log.stdout.end();
    log.stderr.end();
    // the exit is told once the log file holds all the container wrote: the kubelet may read its end at once (a
    // FallbackToLogsOnError termination message), as containerd's shim drains a task's IO before its exit event
    out.end(() => {
      writeStateFile(stateDir, EXIT_FILE, exit);
      exitFrame = frame(Frame.exit, JSON.stringify(exit));
      for (const c of clients) c.end(exitFrame);
      server.close();
      process.exit(0);
    });
  };
  const markStarted = (): void => {
    if (startedFrame || finished) return;
    const started: ShimStarted = { shimPid: process.pid, pid: child.pid!, startedAt: Date.now() };
    writeStateFile(stateDir, STARTED_FILE, started);
    startedFrame = frame(Frame.started, JSON.stringify(started));
    broadcast(startedFrame);
  };
  child.once('spawn', () => {
    const setUp = spec.startedByte ? child.stdio[3] : undefined;
    if (setUp) { setUp.once('data', markStarted); setUp.on('error', () => undefined); } else markStarted();
  });
  child.once('error', (err: NodeJS.ErrnoException) => {
    if (startedFrame) return;
    const startError = err.code === 'ENOENT' ? notFoundMessage(spec.argv[0]!) : err.message;
    finish({ exitCode: 128, finishedAt: Date.now(), startError });
  });
  // The container ends with its own process: the kernel kills what else is left in a PID namespace whose init exits
  // (and containerd's shim the rest of a shared one's container), so a background child that still holds the output
  // does not keep it running. Its output is drained before the exit is told; a process that left the group and keeps
  // the pipes open is not waited for past a moment.
  child.once('exit', (code, signal) => {
    const exit: ShimExit = { exitCode: code ?? (signal ? 128 + (constants.signals[signal] ?? 9) : 0), ...(signal ? { signal } : {}), finishedAt: Date.now() };
    killSessionTree(child.pid!);
    const drained = (): void => finish(exit);
    child.once('close', drained);
    setTimeout(() => { child.stdout?.destroy(); child.stderr?.destroy(); drained(); }, OUTPUT_DRAIN_MS).unref();
  });
}
