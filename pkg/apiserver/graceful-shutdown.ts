// Graceful termination, as upstream's generic apiserver does it: once shutdown starts, /readyz fails (its `shutdown`
// check); after --shutdown-delay-duration no new request is taken, the requests in flight finish (bounded by the
// request timeout), the watches end cleanly (a client sees its stream close, not a reset), and only then do the
// connections close. An acknowledged write is never cut off on its way back to its client.
//
//   without --shutdown-send-retry-after: the listener closes, HTTP/2 connections get GOAWAY, idle HTTP/1.1 ones
//     close; a new request on a connection still open is refused 503 "apiserver is shutting down", Retry-After: 1.
//   with it: the server keeps listening while it drains and answers every new request 429, Retry-After: 5, and
//     closes its connection, so that a client retries elsewhere rather than failing to connect.
// Health probes and /metrics are always answered; long-running requests (watch, exec, logs, proxy) are not waited for.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerResponse, ServerHttp2Session } from 'node:http2';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serviceUnavailable } from '../apimachinery/errors.js';
import type { Check } from './health.js';
import { isLongRunning } from './long-running.js';

export interface ShutdownOptions {
  /** --shutdown-delay-duration: how long /readyz fails before requests are refused (for load balancers to notice). */
  delayMs: number;
  /** --shutdown-send-retry-after: keep listening while draining, answering new requests 429 and closing their connection. */
  sendRetryAfter: boolean;
  /** The longest the requests in flight are waited for: --request-timeout, which bounds them. */
  drainTimeoutMs: number;
}

const EXEMPT_PREFIXES = ['/readyz', '/livez', '/healthz', '/metrics'];
/** Upstream's HTTP server shutdown timeout once drained: the time a GOAWAY'd or closing connection gets to finish. */
const CLOSE_TIMEOUT_MS = 2_000;

const isExempt = (url: string): boolean => EXEMPT_PREFIXES.some((p) => url.startsWith(p));
const isHttp2 = (request: FastifyRequest): boolean => request.raw.httpVersionMajor === 2;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/** How often, while draining, the connections are looked at for requests still in flight. */
const DRAIN_POLL_MS = 10;
/** Marks the responses of long-running requests: the drain does not wait for them. */
const LONG_RUNNING = Symbol('long-running');
type Marked<T> = T & { [LONG_RUNNING]?: true };
type Response = Marked<ServerResponse | Http2ServerResponse>;
/**
 * The response in progress on an HTTP/1.1 connection, which node's http server keeps on the socket (as
 * http-terminator reads it): the connections tell which requests are in flight without a listener per request,
 * which cost several microseconds of every small GET.
 */
const inProgress = (socket: Socket): Marked<ServerResponse> | null | undefined => (socket as Socket & { _httpMessage?: Marked<ServerResponse> | null })._httpMessage;
/** Resolves when the callback handed to `register` is called, or after `ms`. */
const calledOrAfter = (ms: number, register: (done: () => void) => void): Promise<void> => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  register(() => { clearTimeout(timer); resolve(); });
});

/**
 * Node leaves a closed HTTP/2 session's idle timer (fastify's http2SessionTimeout, 72 s) running, and setTimeout on a
 * destroyed session does nothing: until it fired, every session a client had closed kept the whole server from the
 * garbage collector, after it stopped too (several servers in one process: tests, embedders). Cleared through node's
 * own field, when it has one.
 */
const clearIdleTimer = (session: ServerHttp2Session): void => {
  const field = Object.getOwnPropertySymbols(session).find((s) => s.description === 'timeout');
  if (field) clearTimeout((session as unknown as Record<symbol, NodeJS.Timeout | undefined>)[field]);
};

export class GracefulShutdown {
  private initiated = false;
  private refusing = false;
  private onAllClosed: (() => void) | undefined;
  private readonly sockets = new Set<TLSSocket>();
  private readonly sessions = new Set<ServerHttp2Session>();
  /** Connections taken over by an upgrade (exec, attach, port-forward): never idle, never waited for. */
  private readonly upgraded = new WeakSet<Socket>();
  /** The HTTP/2 requests in flight that the drain waits for (an HTTP/1.1 connection tells its own). */
  private readonly streams = new Set<Response>();

  /** The readyz check that fails from the moment shutdown starts. */
  readonly readyzCheck: Check = { name: 'shutdown', check: () => !this.initiated };

  constructor(private readonly app: FastifyInstance, private readonly o: ShutdownOptions) {
    app.server.on('secureConnection', (socket: TLSSocket) => {
      this.sockets.add(socket);
      socket.once('close', () => {
        this.sockets.delete(socket);
        if (this.sockets.size === 0) this.onAllClosed?.();
      });
    });
    app.server.on('upgrade', (_req: IncomingMessage, socket: Socket) => this.upgraded.add(socket));
    app.server.on('session', (session: ServerHttp2Session) => {
      this.sessions.add(session);
      session.once('close', () => {
        this.sessions.delete(session);
        clearIdleTimer(session);
      });
    });
  }

  /** The request chain's step right after request info (upstream's WithRetryAfter and WithWaitGroup); a callback hook, as it runs on every request. */
  readonly onRequest = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void => {
    const longRunning = isLongRunning(request.info);
    if (!this.refusing) {
      // an upgrade takes the connection over: not a request that finishes
      if (longRunning || request.headers.upgrade) (reply.raw as Response)[LONG_RUNNING] = true;
      else if (isHttp2(request)) {
        const res: Response = reply.raw;
        this.streams.add(res);
        res.once('close', () => this.streams.delete(res));
      }
      return done();
    }
    if (!isHttp2(request)) reply.raw.shouldKeepAlive = false;
    if (isExempt(request.url) || (longRunning && !this.o.sendRetryAfter)) return done();
    if (!this.o.sendRetryAfter) {
      reply.header('retry-after', '1');
      return done(serviceUnavailable('apiserver is shutting down'));
    }
    if (isHttp2(request)) reply.raw.once('finish', () => (request.raw as unknown as { stream?: { session?: ServerHttp2Session } }).stream?.session?.close());
    else reply.header('connection', 'close');
    // an early answer: done is not called
    void reply.code(429).header('retry-after', '5').header('x-content-type-options', 'nosniff')
      .type('text/plain; charset=utf-8').send('The apiserver is shutting down, please try again later.\n');
  };

  /**
   * Runs the termination up to the point where nothing is left in flight; `endWatches` ends every watch cleanly.
   * What still holds a connection after that (exec, attach, port-forward, proxied streams) is cut.
   */
  async run(endWatches: () => void): Promise<void> {
    this.initiated = true;
    if (this.o.delayMs > 0) await sleep(this.o.delayMs);
    this.refusing = true;
    // an HTTP/1.1 request in flight closes its connection once answered
    for (const socket of this.sockets) {
      const res = inProgress(socket);
      if (res && !res.headersSent) res.shouldKeepAlive = false;
    }
    if (!this.o.sendRetryAfter) this.stopListening();
    await this.drained();
    if (this.o.sendRetryAfter) this.stopListening();
    else this.endIdle();
    endWatches();
    await this.connectionsClosed();
    for (const s of this.sockets) s.destroy();
  }

  /** Whether a request the drain waits for is in flight: an HTTP/2 stream, or an HTTP/1.1 connection's response. */
  private busy(): boolean {
    if (this.streams.size > 0) return true;
    for (const socket of this.sockets) {
      const res = inProgress(socket);
      if (res && !res[LONG_RUNNING]) return true;
    }
    return false;
  }

  /** Until nothing is in flight, or the request timeout; without Retry-After, connections close as they go idle. */
  private async drained(): Promise<void> {
    const deadline = Date.now() + this.o.drainTimeoutMs;
    while (this.busy() && Date.now() < deadline) {
      if (!this.o.sendRetryAfter) this.endIdle();
      await sleep(DRAIN_POLL_MS);
    }
  }

  /** No new connection; HTTP/2 ones get GOAWAY (their open streams finish); idle HTTP/1.1 ones close. */
  private stopListening(): void {
    this.app.server.close();
    for (const session of this.sessions) session.close();
    this.endIdle();
  }

  private endIdle(): void {
    for (const socket of this.sockets) {
      if (socket.alpnProtocol !== 'h2' && !this.upgraded.has(socket) && !inProgress(socket)) socket.end();
    }
  }

  private connectionsClosed(): Promise<void> {
    if (this.sockets.size === 0) return Promise.resolve();
    return calledOrAfter(CLOSE_TIMEOUT_MS, (done) => { this.onAllClosed = done; });
  }
}
