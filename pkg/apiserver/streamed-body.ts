// An HTTP/2 request can carry a body without a Content-Length: its DATA frames simply follow the headers
// (kubectl's `create --raw -f` and `replace --raw -f` stream their file so). fastify reads a body only when
// Content-Length or Transfer-Encoding announces one, so such a request is marked as chunked for it; the
// stream itself says whether data follows (its HEADERS frame did not end it).
import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';

export function markStreamedBody(raw: IncomingMessage | Http2ServerRequest): void {
  if (raw.httpVersionMajor !== 2) return;
  const headers = raw.headers;
  if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return;
  if (!(raw as Http2ServerRequest).stream.endAfterHeaders) headers['transfer-encoding'] = 'chunked';
}
