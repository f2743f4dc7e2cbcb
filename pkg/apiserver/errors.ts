// Panic recovery: whatever a handler or hook throws leaves as a Status with upstream's reason and
// code, in protobuf when the client negotiated it. StatusErrors render themselves; fastify's own
// errors map to their Kubernetes twins; any other error is a bug, logged with its stack and
// answered 500 without taking the server down.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, internalError, isStatusError, noRoute, PageNotFound, StatusError, tooLarge, unsupportedMediaType } from '../apimachinery/errors.js';
import { PROTOBUF_MEDIA_TYPE } from '../apimachinery/protobuf/index.js';
import { protobufStatus } from './protobuf-response.js';
import { setWarnings } from './respond.js';

function toStatusError(err: FastifyError | Error): StatusError {
  if (isStatusError(err)) return err;
  const code = (err as FastifyError).code;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return tooLarge();
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return unsupportedMediaType();
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return badRequest(err.message);
  const status = (err as FastifyError).statusCode;
  if (status && status >= 400 && status < 500) return new StatusError(status, status === 404 ? 'NotFound' : 'BadRequest', err.message);
  return internalError(err.message);
}

/** A Status for `se` in the negotiated encoding (protobuf or JSON), unless a response has been started. */
export function sendStatusError(request: FastifyRequest, reply: FastifyReply, se: StatusError): void {
  if (se.details?.retryAfterSeconds !== undefined) reply.header('retry-after', String(se.details.retryAfterSeconds));
  if (reply.sent || reply.raw.headersSent) return;
  // what the request warned of before it failed goes out with its error, as upstream's recorder sends it
  if (request.warnings) setWarnings(reply, request.warnings);
  // Go's http.NotFound, as upstream's not-found handler answers
  if (se instanceof PageNotFound) return void reply.code(404).header('x-content-type-options', 'nosniff').type('text/plain; charset=utf-8').send(Buffer.from('404 page not found\n'));
  const status = se.toStatus();
  const protobuf = protobufStatus(request, status);
  if (protobuf) return void reply.code(se.code).type(PROTOBUF_MEDIA_TYPE).send(protobuf);
  void reply.code(se.code).type('application/json').send(Buffer.from(JSON.stringify(status)));
}

/**
 * Bodies go out as Buffers: a string would make fastify add "; charset=utf-8", which upstream never sends.
 * `underRestfulRoot`: whether a path no route takes is the REST router's 404 Status, not the plain-text one.
 */
export function installErrorHandler(app: FastifyInstance, underRestfulRoot: (path: string) => boolean = () => false): void {
  app.setErrorHandler((err, request, reply) => {
    const se = toStatusError(err as FastifyError);
    if (se.code >= 500) request.log.error({ err, url: request.url }, 'request failed');
    sendStatusError(request, reply, se);
  });
  app.setNotFoundHandler((request, reply) => sendStatusError(request, reply, noRoute(underRestfulRoot(request.url.split('?')[0]!))));
}
