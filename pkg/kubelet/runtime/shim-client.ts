// The process runtime's side of a container shim (shim.ts): starting one, or finding one again after a kubelet
// restart, and a connection to its socket that carries the container's output (for attach) and its stdin, and
// tells of the exit. When the connection ends without an exit frame, exit.json says what happened; a shim that
// died without writing it leaves the container exited with 255, as containerd reports a task whose shim is lost.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { processAlive } from './procfs.js';
import { EXIT_FILE, Frame, frame, frameReader, SPEC_FILE, STARTED_FILE, writeStateFile, type ShimExit, type ShimSpec, type ShimStarted } from './shim-protocol.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const readJson = <T>(path: string): T | undefined => {
  try { return JSON.parse(readFileSync(path, 'utf8')) as T; } catch { return undefined; }
};

const tryConnect = (path: string): Promise<Socket> => new Promise((resolve, reject) => {
  const s = connect(path);
  s.once('connect', () => { s.off('error', reject); resolve(s); });
  s.once('error', reject);
});

/** A shim process, detached (it outlives the kubelet); `done` once it exited or could not be spawned. */
const launch = (command: string[], stateDir: string): { pid?: number; done: boolean } => {
  const child = spawn(command[0]!, [...command.slice(1), stateDir], { detached: true, stdio: 'ignore' });
  const shim = { pid: child.pid, done: false };
  child.once('exit', () => { shim.done = true; });
  child.once('error', () => { shim.done = true; });
  child.unref();
  return shim;
};

export interface ShimOutput { stdout(chunk: Buffer): void; stderr(chunk: Buffer): void }

export class ShimHandle {
  /** The container's process, once the shim started it. */
  started?: ShimStarted;
  exit?: ShimExit;
  /** Resolves with the exit (never rejects). */
  readonly exited: Promise<ShimExit>;
  /** Where the container's output goes while the kubelet runs (attached clients). */
  output?: ShimOutput;
  private socket?: Socket;
  private resolveExit!: (e: ShimExit) => void;
  private readonly startedWaiters: (() => void)[] = [];
  /** Callers of reopenLog waiting for the shim's answer, in order. */
  private readonly reopenWaiters = new Set<() => void>();

  private constructor(private readonly stateDir: string, private readonly socketPath: string) {
    this.exited = new Promise((r) => { this.resolveExit = r; });
    this.started = readJson<ShimStarted>(join(stateDir, STARTED_FILE));
  }

  /**
   * Writes the spec, starts the shim and waits until the container runs (or could not start). A shim that exits
   * before it listens has run nothing (it starts the container after): it could not load, as when the package's
   * bundle is being rebuilt under it (its files removed, then written again), and another is started, until the
   * deadline.
   */
  static async start(command: string[], stateDir: string, spec: ShimSpec): Promise<ShimHandle> {
    writeStateFile(stateDir, SPEC_FILE, spec);
    const h = new ShimHandle(stateDir, spec.socket);
    const deadline = Date.now() + 10_000;
    let shim = launch(command, stateDir);
    for (;;) {
      if (h.recordedExit()) break;
      try { h.attachSocket(await tryConnect(spec.socket)); break; } catch { /* not listening yet */ }
      if (shim.done) {
        if (h.recordedExit()) break;
        if (!existsSync(spec.socket) && !existsSync(join(stateDir, STARTED_FILE)) && Date.now() < deadline) {
          await sleep(100);
          shim = launch(command, stateDir);
          continue;
        }
        h.lost();
        break;
      }
      if (Date.now() > deadline) { try { process.kill(-shim.pid!, 'SIGKILL'); } catch { /* gone */ } throw new Error('the container shim did not start within 10s'); }
      await sleep(10);
    }
    await new Promise<void>((r) => { if (h.started || h.exit) r(); else h.startedWaiters.push(r); });
    return h;
  }

  /** The shim of a container found on disk at start-up: its recorded state now, its connection soon. */
  static adopt(stateDir: string, socketPath: string): ShimHandle {
    const h = new ShimHandle(stateDir, socketPath);
    if (!h.recordedExit()) {
      if (!h.started || !processAlive(h.started.shimPid)) h.lost();
      else void h.reconnect();
    }
    return h;
  }

  /** The container's stdin, through the shim (ended: the shim closes it). */
  stdin(): Writable {
    return new Writable({
      write: (chunk: Buffer, _enc, cb) => { this.socket?.write(frame(Frame.stdin, chunk)); cb(); },
      final: (cb) => { this.socket?.write(frame(Frame.stdinEnd)); cb(); },
    });
  }

  /** Asks the shim to write to a new file at the log path; resolves once it does (CRI ReopenContainerLog). */
  reopenLog(timeoutMs = 5_000): Promise<void> {
    const s = this.socket;
    if (!s) return Promise.reject(new Error('no connection to the container\'s shim'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { this.reopenWaiters.delete(done); reject(new Error('the container\'s shim did not reopen its log')); }, timeoutMs);
      const done = (): void => { clearTimeout(timer); resolve(); };
      this.reopenWaiters.add(done);
      s.write(frame(Frame.reopenLog));
    });
  }

  /** Stops listening (the kubelet stops; the shim goes on). */
  detach(): void { this.socket?.destroy(); this.socket = undefined; }

  private attachSocket(s: Socket): void {
    this.socket = s;
    s.on('data', frameReader((type, payload) => {
      if (type === Frame.stdout) this.output?.stdout(payload);
      else if (type === Frame.stderr) this.output?.stderr(payload);
      else if (type === Frame.started) { this.started = JSON.parse(payload.toString()) as ShimStarted; this.wakeStarted(); }
      else if (type === Frame.exit) this.finish(JSON.parse(payload.toString()) as ShimExit);
      else if (type === Frame.logReopened) { const [first] = this.reopenWaiters; if (first) { this.reopenWaiters.delete(first); first(); } }
    }));
    s.on('error', () => undefined);
    s.once('close', () => {
      if (this.socket !== s || this.exit) return;
      this.socket = undefined;
      if (this.recordedExit()) return;
      if (this.started && processAlive(this.started.shimPid)) void this.reconnect();
      else this.lost();
    });
  }

  private async reconnect(): Promise<void> {
    while (!this.exit) {
      try { this.attachSocket(await tryConnect(this.socketPath)); return; } catch { /* retry below */ }
      if (this.recordedExit()) return;
      if (!this.started || !processAlive(this.started.shimPid)) { this.lost(); return; }
      await sleep(100);
    }
  }

  /** exit.json, if the shim wrote it: then the container is done. */
  private recordedExit(): boolean {
    const exit = readJson<ShimExit>(join(this.stateDir, EXIT_FILE));
    if (exit) this.finish(exit);
    return exit !== undefined;
  }

  private lost(): void {
    if (this.recordedExit()) return;
    this.finish({ exitCode: 255, finishedAt: Date.now(), ...(this.started ? {} : { startError: 'the container shim exited before the container started' }) });
  }

  private finish(exit: ShimExit): void {
    if (this.exit) return;
    this.exit = exit;
    this.wakeStarted();
    this.resolveExit(exit);
  }

  private wakeStarted(): void { for (const w of this.startedWaiters.splice(0)) w(); }
}
