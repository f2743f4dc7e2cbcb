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
/** Resolves when the callback handed to `register` is called, or after `ms`. */
const calledOrAfter = (ms: number, register: (done: () => void) => void): Promise<void> => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  register(() => { clearTimeout(timer); resolve(); });
});

export class GracefulShutdown {
  private initiated = false;
  private refusing = false;
  private inflight = 0;
  private onDrained: (() => void) | undefined;
  private onAllClosed: (() => void) | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly sessions = new Set<ServerHttp2Session>();
  /** HTTP/1.1 requests in progress on each connection: one that is idle can be closed at once. */
  private readonly busy = new WeakMap<Socket, number>();
  /** The responses of the non-long-running requests in flight. */
  private readonly tracked = new Set<ServerResponse | Http2ServerResponse>();

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
    // an upgraded connection (exec, attach, port-forward) is busy until it closes
    app.server.on('upgrade', (_req: IncomingMessage, socket: Socket) => this.busy.set(socket, 1));
    app.server.on('session', (session: ServerHttp2Session) => {
      this.sessions.add(session);
      session.once('close', () => this.sessions.delete(session));
    });
    // one listener per request for both counts
    app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const socket = req.httpVersionMajor === 1 ? req.socket : undefined;
      if (socket) {
        this.busy.set(socket, (this.busy.get(socket) ?? 0) + 1);
        if (this.refusing) res.shouldKeepAlive = false;
      }
      res.once('close', () => {
        if (this.tracked.delete(res)) {
          this.inflight--;
          if (this.inflight === 0) this.onDrained?.();
        }
        if (!socket) return;
        const left = (this.busy.get(socket) ?? 1) - 1;
        this.busy.set(socket, left);
        if (this.refusing && left === 0) socket.end();
      });
    });
  }

  /** The request chain's step right after request info (upstream's WithRetryAfter and WithWaitGroup); a callback hook, as it runs on every request. */
  readonly onRequest = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void => {
    const longRunning = isLongRunning(request.info);
    if (!this.refusing) {
      // an upgrade takes the connection over: not a request that finishes (and no 'request' event counts it down)
      if (!longRunning && !request.headers.upgrade) {
        this.inflight++;
        this.tracked.add(reply.raw);
      }
      return done();
    }
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
    if (!this.o.sendRetryAfter) this.stopListening();
    await this.drained();
    if (this.o.sendRetryAfter) this.stopListening();
    endWatches();
    await this.connectionsClosed();
    for (const s of this.sockets) s.destroy();
  }

  private drained(): Promise<void> {
    if (this.inflight === 0) return Promise.resolve();
    return calledOrAfter(this.o.drainTimeoutMs, (done) => { this.onDrained = done; });
  }

  /** No new connection; HTTP/2 ones get GOAWAY (their open streams finish); idle HTTP/1.1 ones close. */
  private stopListening(): void {
    this.app.server.close();
    for (const session of this.sessions) session.close();
    for (const socket of this.sockets) {
      if ((socket as TLSSocket).alpnProtocol !== 'h2' && !this.busy.get(socket)) socket.end();
    }
  }

  private connectionsClosed(): Promise<void> {
    if (this.sockets.size === 0) return Promise.resolve();
    return calledOrAfter(CLOSE_TIMEOUT_MS, (done) => { this.onAllClosed = done; });
  }
}
