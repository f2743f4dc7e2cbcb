// Streaming for the process runtime: exec (a new process in the container's environment), attach (the running
// container's stdio, fanned out to every attached client) and port-forward (a TCP connection to the pod's IP, or,
// for a pod in its own network namespace, to localhost inside it, as upstream's kubelet does).
//
// A tty needs a pseudo-terminal, which Node cannot open without a native module. When a tty is asked for, the
// command runs under util-linux `script -qfec CMD /dev/null`, which owns a real pty (echo, line discipline, \r\n,
// `tty` answers /dev/pts/N) and reports the command's exit code; resize sets the pty's size with `stty -F`. Where
// `script` is missing, the command runs on pipes and the first line of its output says so.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { constants } from 'node:os';
import { Duplex, PassThrough, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { killSessionTree } from './procfs.js';
import type { StreamingOptions, StreamingSession } from './types.js';

const SCRIPT = ['/usr/bin/script', '/bin/script'].find((p) => existsSync(p));
/** Whether a tty can be given (util-linux `script` is there). */
export const PTY_AVAILABLE = SCRIPT !== undefined;
export const NO_PTY_NOTICE = 'mini-kube: no pseudo-terminal available (util-linux `script` not found); running without a tty\r\n';

const shellQuote = (argv: string[]): string => argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');

/** argv run on a new pseudo-terminal by `script` (whose shell execs it), or undefined where `script` is missing. */
export const onPty = (argv: string[]): string[] | undefined => (SCRIPT ? [SCRIPT, '-qfec', shellQuote(['exec', ...argv]), '/dev/null'] : undefined);

const exitCodeOf = (code: number | null, signal: NodeJS.Signals | null): number => code ?? (signal ? 128 + (constants.signals[signal] ?? 9) : 0);

/**
 * Sets the window size of the pty `script` (pid) opens; best effort. As upstream's runtime applies each size from the
 * resize channel once the process has started, a size asked for before `script` has its pty (kubectl 1.30+ sends the
 * first one as soon as the exec starts; a client may attach to a tty container just started) waits for it, so that
 * none is lost. Sizes of one pty are set one after the other, in order, the latest last: kubectl sends two at once
 * (one row and column more, then the size, to make the shell redraw), and two `stty` racing could leave the first.
 */
export function resizePty(pid: number, width: number, height: number): Promise<void> {
  let queue = resizing.get(pid);
  if (!queue) resizing.set(pid, queue = { tty: ptyOf(pid), last: Promise.resolve() });
  const q = queue;
  const next = q.last.then(async () => {
    const tty = await q.tty;
    if (tty) await new Promise<void>((resolve) => execFile('stty', ['-F', tty, 'rows', String(height), 'cols', String(width)], () => resolve()));
  });
  q.last = next;
  void next.then(() => { if (q.last === next) resizing.delete(pid); });
  return next;
}
const resizing = new Map<number, { tty: Promise<string | undefined>; last: Promise<void> }>();

/** How long a resize waits for `script` to open its pty, which it does as it starts. */
const PTY_WAIT_MS = 10_000;

/**
 * The pty of `script` (pid), once it is there: the slave `script` holds (util-linux opens it before it forks the
 * command), or else its child's stdin. Undefined when `script` is gone or has none within PTY_WAIT_MS.
 */
async function ptyOf(pid: number): Promise<string | undefined> {
  for (const deadline = Date.now() + PTY_WAIT_MS; ; await sleep(10)) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
    if (!fds.length) return undefined; // gone (or a zombie)
    const [child] = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '')).trim().split(/\s+/);
    const paths = [...fds.map((fd) => `/proc/${pid}/fd/${fd}`), ...(child ? [`/proc/${child}/fd/0`] : [])];
    const tty = (await Promise.all(paths.map((p) => readlink(p).catch(() => '')))).find((l) => l.startsWith('/dev/pts/'));
    if (tty || Date.now() >= deadline) return tty;
  }
}

/** runc's words (through containerd) for an exec'd command that is not there. */
export const execNotFoundMessage = (cmd: string): string =>
  `OCI runtime exec failed: exec failed: unable to start container process: exec: "${cmd}": executable file not found in $PATH: unknown`;

/** Runs argv with the container's env and working directory, its stdio joined to the session. */
export function execStreaming(argv: string[], env: Record<string, string>, cwd: string, o: StreamingOptions): Promise<StreamingSession> {
  const ptyArgv = o.tty ? onPty(argv) : undefined;
  const pty = ptyArgv !== undefined;
  const cmd = ptyArgv ?? argv;
  // As containerd's exec with a terminal: TERM=xterm over the container's environment.
  const child = spawn(cmd[0]!, cmd.slice(1), { cwd, env: o.tty ? { ...env, TERM: 'xterm' } : env, detached: true, stdio: [o.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number>((resolve) => child.once('close', (code, signal) => resolve(exitCodeOf(code, signal))));
  let stdout: NodeJS.ReadableStream = child.stdout!;
  if (o.tty) {
    // A terminal has one output: what the command (or `script`) writes to stderr joins stdout.
    const merged = new PassThrough();
    if (!pty) merged.write(NO_PTY_NOTICE);
    let open = 2;
    for (const s of [child.stdout!, child.stderr!]) {
      s.on('data', (c: Buffer) => merged.write(c));
      s.once('end', () => { if (--open === 0) merged.end(); });
    }
    stdout = merged;
  }
  child.stdin?.on('error', () => undefined); // the command may exit before reading its input
  return new Promise((resolve, reject) => {
    child.once('error', (err: NodeJS.ErrnoException) => reject(new Error(err.code === 'ENOENT' ? execNotFoundMessage(argv[0]!) : err.message)));
    child.once('spawn', () => resolve({
      stdin: child.stdin ?? undefined,
      stdout,
      stderr: o.tty ? undefined : child.stderr!,
      exited,
      resize: (w, h) => { if (pty && child.pid) void resizePty(child.pid, w, h); },
      close: () => {
        if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
        killSessionTree(child.pid);
      },
    }));
  });
}

/**
 * A running container's stdio shared by attached clients: output goes to every one of them (as well as to the log),
 * their input to the container's stdin, which closes after the first client's input ends when stdinOnce is set; a
 * tty container's clients resize its terminal.
 */
export class AttachHub {
  private readonly clients = new Set<{ out: PassThrough; err: PassThrough }>();

  constructor(
    private readonly stdin: NodeJS.WritableStream | undefined, private readonly stdinOnce: boolean, private readonly exited: Promise<number>,
    /** Sets the size of the container's terminal (tty containers). */
    private readonly resize?: (width: number, height: number) => void,
  ) {
    stdin?.on('error', () => undefined);
  }

  stdout(chunk: Buffer): void { for (const c of this.clients) c.out.write(chunk); }
  stderr(chunk: Buffer): void { for (const c of this.clients) c.err.write(chunk); }

  /** The container's output ended: every client's streams end too. */
  end(): void { for (const c of this.clients) { c.out.end(); c.err.end(); } this.clients.clear(); }

  attach(o: StreamingOptions): StreamingSession {
    const client = { out: new PassThrough(), err: new PassThrough() };
    this.clients.add(client);
    const target = this.stdin;
    const stdin = o.stdin && target ? new Writable({
      write: (chunk: Buffer, _enc, cb) => { target.write(chunk); cb(); },
      final: (cb) => { if (this.stdinOnce) target.end(); cb(); },
    }) : undefined;
    return {
      stdin,
      stdout: client.out,
      stderr: o.tty ? undefined : client.err,
      exited: this.exited,
      resize: (w, h) => this.resize?.(w, h),
      close: () => { this.clients.delete(client); client.out.end(); client.err.end(); },
    };
  }
}

/** Connects to port on the pod's IP: the process runtime's pods are reachable from the node. */
export function dialPod(ip: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: ip, port });
    socket.once('connect', () => { socket.off('error', reject); resolve(socket); });
    socket.once('error', (err: NodeJS.ErrnoException) => reject(new Error(`failed to connect to localhost:${port} inside the pod's network: dial tcp4 ${ip}:${port}: connect: ${err.code === 'ECONNREFUSED' ? 'connection refused' : err.message}`)));
  });
}

/**
 * The relay run inside a pod's network namespace: connects to localhost:PORT (IPv4, then IPv6), reports on fd 3
 * ("ok", or the error) and then copies stdin to the socket and the socket to stdout.
 */
const NETNS_RELAY = `
const net = require('node:net'); const fs = require('node:fs');
const port = Number(process.argv[1]);
const tryHost = (hosts, errors) => {
  const s = net.connect({ host: hosts[0], port });
  s.once('connect', () => { fs.writeSync(3, 'ok\\n'); process.stdin.pipe(s); s.pipe(process.stdout); s.on('close', () => process.exit(0)); });
  s.once('error', (e) => {
    errors.push((hosts[0] === '::1' ? 'IPv6' : 'IPv4') + ': dial tcp ' + (hosts[0] === '::1' ? '[::1]' : hosts[0]) + ':' + port + ': connect: ' + (e.code === 'ECONNREFUSED' ? 'connection refused' : e.message));
    if (hosts.length > 1) tryHost(hosts.slice(1), errors); else { fs.writeSync(3, errors.join(' ') + '\\n'); process.exit(1); }
  });
};
tryHost(['127.0.0.1', '::1'], []);
`;

/** A connection to localhost:port inside the network namespace `netns` (`ip netns exec` running a small relay). */
export function dialInNetns(netns: string, port: number): Promise<Duplex> {
  const child = spawn('ip', ['netns', 'exec', netns, process.execPath, '-e', NETNS_RELAY, String(port)], { stdio: ['pipe', 'pipe', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let status = '';
    const fail = (msg: string): void => reject(new Error(`failed to connect to localhost:${port} inside namespace "${netns}", ${msg}`));
    child.once('error', (err) => fail(err.message));
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => {
      status += d.toString();
      if (!status.includes('\n')) return;
      if (status.startsWith('ok')) {
        const conn = Duplex.from({ readable: child.stdout!, writable: child.stdin! });
        conn.once('close', () => child.kill());
        resolve(conn);
      } else fail(status.trim());
    });
    child.once('close', () => fail(status.trim() || 'the relay exited'));
  });
}
