// exec and attach streams, as the kubelet's CRI streaming server serves them (kubelet cri/streaming/remotecommand):
// over a WebSocket with channels (v5/v4/v1, binary or base64) or over SPDY with one stream per purpose (streamtype
// error, stdin, stdout, stderr, resize; protocols v4/v3/v2/v1). The error channel/stream ends the session: from v4
// on a Status (Success, or Failure with reason NonZeroExitCode and an ExitCode cause), before that a plain message.
import type { IncomingMessage } from 'node:http';
import type { Duplex, Readable, Writable } from 'node:stream';
import type { Logger } from 'pino';
import type { StreamingOptions, StreamingSession } from '../runtime/types.js';
import type { SpdyStream } from './spdy.js';
import { upgradeSpdy } from './spdy-upgrade.js';
import { readTerminalSizes } from './terminal-size.js';
import { exitCodeStatus, internalErrorStatus, successStatus, type StreamStatus } from '../../apimachinery/remotecommand.js';
import { acceptWebSocket, flushed, isWebSocketRequest, WsChannels } from '../../apimachinery/httpstream/wsstream.js';

const V5 = 'v5.channel.k8s.io';
const V4 = 'v4.channel.k8s.io';
const WS_PROTOCOLS = [V5, V4, 'v4.base64.channel.k8s.io', 'channel.k8s.io', 'base64.channel.k8s.io'];
const SPDY_PROTOCOLS = [V4, 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'];
/** Upstream's streamCreationTimeout: how long the client has to open its SPDY streams. */
const STREAM_CREATION_TIMEOUT_MS = 30_000;
/**
 * How long output waits after a v5 WebSocket handshake, for client-go's executor, which sets up its streams late (see
 * WsChannels). v5 is client-go's; v4 clients (the Python and JavaScript ones) read every channel from the start and
 * get output as upstream's kubelet sends it, at once.
 */
const WS_OUTPUT_HOLD_MS = 50;
/** Output still flowing after the command exited (a background child holding the pipe) is cut after this. */
const OUTPUT_DRAIN_MS = 2_000;

export interface RemoteCommandOptions {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

/** exec's query (input/output/error/tty = 1, as the apiserver sends them; stdin/stdout/stderr=true also taken). */
export const remoteCommandOptions = (q: URLSearchParams): RemoteCommandOptions => {
  const on = (...keys: string[]): boolean => keys.some((k) => ['1', 'true'].includes(q.get(k) ?? ''));
  const tty = on('tty');
  // A terminal has no separate stderr.
  return { stdin: on('input', 'stdin'), stdout: on('output', 'stdout'), stderr: on('error', 'stderr') && !tty, tty };
};

interface ClientStreams {
  stdin?: Readable;
  stdout?: Writable;
  stderr?: Writable;
  resize?: Readable;
  error: Writable;
  /** The error channel speaks Status JSON (v4 and later). */
  status: boolean;
  onGone(fn: () => void): void;
  close(): void;
}

export interface RemoteCommand {
  /** Starts the command (exec) or joins the container (attach). */
  start(o: StreamingOptions): Promise<StreamingSession>;
  /** exec reports the command's exit code; attach ends with Success. */
  exitCodes: boolean;
  /** How errors name the command: `[sh -c exit 3]`. */
  describe: string;
  /** What a runtime error is reported as (upstream: "error executing command in container"). */
  failure: string;
  logger: Logger;
}

export function serveRemoteCommand(req: IncomingMessage, socket: Duplex, head: Buffer, o: RemoteCommandOptions, cmd: RemoteCommand): void {
  const ready = isWebSocketRequest(req) ? webSocketStreams(req, socket, head, o) : spdyStreams(req, socket, head, o);
  ready.then((streams) => streams && run(streams, o, cmd)).catch((err: unknown) => {
    cmd.logger.warn({ err }, 'exec/attach stream set-up failed');
    socket.destroy();
  });
}

async function webSocketStreams(req: IncomingMessage, socket: Duplex, head: Buffer, o: RemoteCommandOptions): Promise<ClientStreams | undefined> {
  const ws = await acceptWebSocket(req, socket, head, WS_PROTOCOLS);
  if (!ws) return undefined;
  const ch = new WsChannels(ws, ws.protocol.includes('base64'), ws.protocol === V5 ? WS_OUTPUT_HOLD_MS : 0);
  const streams: ClientStreams = {
    stdin: o.stdin ? ch.input(0) : undefined,
    stdout: o.stdout ? ch.output(1) : undefined,
    stderr: o.stderr ? ch.output(2) : undefined,
    error: ch.output(3),
    resize: o.tty ? ch.input(4) : undefined,
    status: ws.protocol === V5 || ws.protocol.startsWith('v4.'),
    onGone: (fn) => ch.onClose(fn),
    close: () => ch.close(),
  };
  // As upstream: an empty message on the lowest writable channel tells the client the streams are set up.
  ch.send(o.stdout ? 1 : o.stderr ? 2 : 3, Buffer.alloc(0));
  return streams;
}

function spdyStreams(req: IncomingMessage, socket: Duplex, head: Buffer, o: RemoteCommandOptions): Promise<ClientStreams | undefined> {
  return new Promise((resolve) => {
    const byType = new Map<string, SpdyStream>();
    let protocol = '';
    const expected = (): string[] => [
      'error', ...(o.stdin ? ['stdin'] : []), ...(o.stdout ? ['stdout'] : []), ...(o.stderr ? ['stderr'] : []),
      ...(o.tty && (protocol === V4 || protocol === 'v3.channel.k8s.io') ? ['resize'] : []),
    ];
    let done = false;
    const check = (): void => {
      if (done || !expected().every((t) => byType.has(t))) return;
      done = true;
      clearTimeout(timer);
      resolve({
        stdin: byType.get('stdin'), stdout: byType.get('stdout'), stderr: byType.get('stderr'), resize: byType.get('resize'),
        error: byType.get('error')!, status: protocol === V4,
        onGone: (fn) => up!.conn.onClose(fn),
        close: () => up!.conn.goAway(),
      });
    };
    const up = upgradeSpdy(req, socket, head, SPDY_PROTOCOLS, (s) => {
      const type = s.headers.streamtype ?? '';
      if (!['error', 'stdin', 'stdout', 'stderr', 'resize'].includes(type) || byType.has(type)) { s.reset(); return; }
      byType.set(type, s);
      // The client's unused directions: nothing is read from output streams.
      if (type !== 'stdin' && type !== 'resize') s.resume();
      check();
    });
    if (!up) { resolve(undefined); return; }
    protocol = up.protocol;
    const timer = setTimeout(() => { done = true; up.conn.goAway(); resolve(undefined); }, STREAM_CREATION_TIMEOUT_MS);
    up.conn.onClose(() => { if (!done) { done = true; clearTimeout(timer); resolve(undefined); } });
  });
}

async function run(c: ClientStreams, o: RemoteCommandOptions, cmd: RemoteCommand): Promise<void> {
  let session: StreamingSession | undefined;
  let gone = false;
  c.onGone(() => { gone = true; session?.close(); });
  let result: StreamStatus;
  try {
    session = await cmd.start({ stdin: o.stdin, tty: o.tty });
    if (gone) { session.close(); return; }
    const s = session;
    if (c.stdin && s.stdin) c.stdin.pipe(s.stdin as Writable);
    else c.stdin?.resume();
    // as upstream's HandleResizing, a size below 1x1 is skipped
    if (c.resize) readTerminalSizes(c.resize, (size) => { if (size.width && size.height) s.resize(size.width, size.height); });
    const copies = [copy(s.stdout, c.stdout), copy(s.stderr, c.stderr)];
    const code = await s.exited;
    await Promise.race([Promise.all(copies.map((x) => x.done)), new Promise((r) => setTimeout(r, OUTPUT_DRAIN_MS).unref())]);
    for (const x of copies) x.stop();
    result = cmd.exitCodes && code !== 0 ? exitCodeStatus(`error executing command ${cmd.describe}, exit code ${code}`, code) : successStatus();
  } catch (err) {
    // As upstream's apierrors.NewInternalError around the runtime's error.
    result = internalErrorStatus(`${cmd.failure}: ${(err as Error).message}`);
  }
  if (gone) return;
  // As upstream, the status is the last thing sent: output still queued on stdout/stderr (each chunk waits for the
  // previous one's send) goes out before it, or a client ends its stdout at the status and loses the rest.
  await Promise.all([flushed(c.stdout), flushed(c.stderr)]);
  if (gone) return;
  // before v4 only a failure is written, as its message (upstream's v1WriteStatusFunc writes the StatusError's text)
  if (c.status) c.error.write(JSON.stringify(result));
  else if (result.status === 'Failure') c.error.write(result.message!);
  c.error.end(() => c.close());
}

/**
 * Copies a session's output to the client (or drains it when the client did not ask for it): `done` once the
 * output ended; `stop` cuts what still comes (and discards it), so the client's stream can be ended.
 */
const copy = (from: NodeJS.ReadableStream | undefined, to: Writable | undefined): { done: Promise<void>; stop(): void } => {
  if (!from) return { done: Promise.resolve(), stop: () => undefined };
  const done = new Promise<void>((resolve) => {
    from.once('end', () => resolve());
    from.once('close', () => resolve());
  });
  if (to) from.pipe(to, { end: false });
  else from.resume();
  return { done, stop: () => { if (to) from.unpipe(to); from.resume(); } };
};
