// API errors as the client sees them: a `Status` body (or any failed response) becomes a StatusError from
// pkg/apimachinery, and predicates name the cases controllers branch on (as apierrors.IsNotFound & co).
import { StatusError, type Status, type StatusReason } from '../apimachinery/errors.js';

export { StatusError, isStatusError } from '../apimachinery/errors.js';

/** Upstream's reason for a bare status code (NewGenericServerResponse). */
const reasonForCode = (code: number): StatusReason => {
  switch (code) {
    case 400: return 'BadRequest';
    case 401: return 'Unauthorized';
    case 403: return 'Forbidden';
    case 404: return 'NotFound';
    case 405: return 'MethodNotAllowed';
    case 406: return 'NotAcceptable';
    case 409: return 'Conflict';
    case 410: return 'Expired';
    case 413: return 'RequestEntityTooLarge';
    case 415: return 'UnsupportedMediaType';
    case 422: return 'Invalid';
    case 429: return 'TooManyRequests';
    case 503: return 'ServiceUnavailable';
    case 504: return 'Timeout';
    default: return code >= 500 ? 'InternalError' : '';
  }
};

const isStatus = (body: unknown): body is Status =>
  typeof body === 'object' && body !== null && (body as Status).kind === 'Status';

/** A StatusError from an HTTP status code and its (parsed or raw) body. */
export const statusErrorFrom = (code: number, body: unknown): StatusError => {
  if (isStatus(body) && body.status !== 'Success') {
    return new StatusError(body.code || code, body.reason || reasonForCode(code), body.message ?? '', body.details);
  }
  const text = typeof body === 'string' ? body.trim() : body === undefined ? '' : JSON.stringify(body);
  const message = text ? `the server responded with the status code ${code} but did not return more information: ${text.slice(0, 512)}`
    : `the server responded with the status code ${code} but did not return more information`;
  return new StatusError(code, reasonForCode(code), message);
};

const hasReason = (reason: StatusReason, code?: number) => (e: unknown): boolean =>
  e instanceof StatusError && (e.reason === reason || (e.reason === '' && code !== undefined && e.code === code));

export const isNotFound = hasReason('NotFound', 404);
export const isAlreadyExists = hasReason('AlreadyExists');
export const isConflict = hasReason('Conflict', 409);
export const isInvalid = hasReason('Invalid', 422);
export const isForbidden = hasReason('Forbidden', 403);
export const isUnauthorized = hasReason('Unauthorized', 401);

/** A create refused because its namespace is terminating (the NamespaceLifecycle admission plugin's NamespaceTerminating cause). */
export const isNamespaceTerminating = (e: unknown): boolean => {
  if (!isForbidden(e)) return false;
  const err = e as { message?: string; details?: { causes?: { reason?: string }[] } };
  return /being terminated/.test(err.message ?? '') || !!err.details?.causes?.some((c) => c.reason === 'NamespaceTerminating');
};
export const isBadRequest = hasReason('BadRequest', 400);
export const isTooManyRequests = hasReason('TooManyRequests', 429);
export const isServerTimeout = hasReason('ServerTimeout');
export const isTimeout = hasReason('Timeout', 504);
/** 410: Expired or Gone (a resourceVersion too old to watch or list from). */
export const isResourceExpired = (e: unknown): boolean => e instanceof StatusError && (e.code === 410 || e.reason === 'Expired' || e.reason === 'Gone');

/** A request made with a client that was closed: nothing more can be sent with it, so retrying will not help. */
export class ClientClosedError extends Error {
  constructor() {
    super('the client is closed');
    this.name = 'ClientClosedError';
  }
}
export const isClientClosed = (e: unknown): boolean => e instanceof ClientClosedError;

/** An aborted request (AbortSignal). */
export const isAbortError = (e: unknown): boolean =>
  e instanceof Error && (e.name === 'AbortError' || (e as { code?: string }).code === 'UND_ERR_ABORTED');
