// Upstream's request deadline (WithRequestDeadline) and timeout filter: a request that is not long-running has until
// its `timeout` query parameter (when shorter) or --request-timeout, counted from its arrival, to be answered; a
// write has at most 34 s (its handlers' own bound). Past that the client gets 504 Timeout, the write is not stored
// and webhook calls are cancelled (the request's Deadline); a response already under way is cut, as upstream's is.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Deadline } from '../apimachinery/deadline.js';
import { goDurationMs } from '../apimachinery/duration.js';
import { badRequest, type StatusError, timeout } from '../apimachinery/errors.js';
import { setLongTimeout } from '../apimachinery/long-timeout.js';
import { isLongRunning } from './long-running.js';

const WRITES = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);
/** Upstream's requestTimeoutUpperBound: the handlers of writes stop waiting after this. */
const WRITE_TIMEOUT_MS = 34_000;

/** A callback hook (it runs on every request) for right after request info; `send` answers with a Status. */
export function requestDeadline(requestTimeoutMs: number, send: (request: FastifyRequest, reply: FastifyReply, err: StatusError) => void) {
  return (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void => {
    if (isLongRunning(request.info)) return done();
    const param = (request.query as Record<string, unknown>).timeout;
    let ms = requestTimeoutMs;
    if (typeof param === 'string' && param !== '') {
      let asked: number;
      try {
        asked = goDurationMs(param);
      } catch (e) {
        return done(badRequest(`invalid timeout specified in the request URL - ${(e as Error).message}`));
      }
      // 0 (or less) is no timeout of the client's own; more than the server's is the server's
      if (asked > 0 && asked < ms) ms = asked;
    }
    const write = WRITES.has(request.info.verb);
    if (write) ms = Math.min(ms, WRITE_TIMEOUT_MS);
    const deadline = (request.deadline = new Deadline(Date.now() + ms));
    const timer = setLongTimeout(() => {
      deadline.expire();
      if (reply.sent || reply.raw.headersSent) {
        if (!reply.raw.writableFinished) reply.raw.destroy();
        return;
      }
      request.log.warn({ url: request.url, method: request.method, timeoutMs: ms }, 'request timed out');
      send(request, reply, timeout(write ? 'request did not complete within requested timeout - context deadline exceeded'
        : 'request did not complete within the allotted timeout'));
    }, ms);
    reply.raw.once('close', () => timer.cancel());
    done();
  };
}
