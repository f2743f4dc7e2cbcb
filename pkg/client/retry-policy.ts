// When a request is tried again, as client-go's rest/with_retry.go and the IsRetryableErrorFunc of request.go:
// an answer is retried (any verb) only when it is a 429 or 5xx carrying Retry-After, after its seconds; a failed
// connection only for a GET whose connection was reset or closed (a request; Go's IsConnectionReset/IsProbableEOF)
// or, for a watch, also one that timed out — a second later (the artificial "Retry-After: 1"). Connection refused
// is never retried: the caller (a reflector's relist, a leader elector's next try) decides what comes next.

/** The artificial Retry-After client-go gives a retryable connection error. */
export const CONNECTION_RETRY_MS = 1_000;

/** Node and undici error codes of a connection closed under a request (Go's EOF, "connection reset by peer"). */
const CLOSED = new Set(['ECONNRESET', 'UND_ERR_SOCKET']);
/** Codes of a connection or response that timed out (Go's net.Error Timeout()). */
const TIMED_OUT = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT']);

const codeOf = (e: unknown): string | undefined => {
  const err = e as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const code = err?.code ?? err?.cause?.code;
  return typeof code === 'string' ? code : undefined;
};

/** Whether a connection error is worth another try: a watch's (`stream`) or a request's of `method`. */
export const retryableError = (e: unknown, method: string, stream: boolean): boolean => {
  const code = codeOf(e);
  if (code === undefined) return false;
  if (stream) return CLOSED.has(code) || TIMED_OUT.has(code);
  return method === 'GET' && CLOSED.has(code);
};

/** client-go's checkWait: the wait a 429 or 5xx asks for in an integer Retry-After, or undefined (not retried). */
export const retryAfterWaitMs = (statusCode: number, headers: Record<string, string | string[] | undefined>): number | undefined => {
  if (statusCode !== 429 && statusCode < 500) return undefined;
  const v = headers['retry-after'];
  const s = (Array.isArray(v) ? v[0] : v)?.trim();
  if (!s || !/^[+-]?\d+$/.test(s)) return undefined;
  return Math.max(0, Number(s)) * 1000;
};
