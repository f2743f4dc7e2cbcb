// The SPDY/3.1 upgrade as apimachinery's httpstream does it: the client lists the stream protocols it speaks in
// X-Stream-Protocol-Version headers (none: a legacy client, protocol ""), the server picks the first it supports,
// answers 101 with Upgrade: SPDY/3.1 and the chosen X-Stream-Protocol-Version, and SPDY frames follow.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { rejectUpgrade } from '../../apimachinery/httpstream/reject.js';
import { SpdyConnection, type SpdyStream } from './spdy.js';

const isSpdyRequest = (req: IncomingMessage): boolean => (req.headers.upgrade ?? '').toLowerCase() === 'spdy/3.1';

/** Negotiates and upgrades; returns the session and protocol, or undefined after answering the error. */
export function upgradeSpdy(req: IncomingMessage, socket: Duplex, head: Buffer, supported: string[], onStream: (s: SpdyStream) => void): { conn: SpdyConnection; protocol: string } | undefined {
  const raw = req.headersDistinct['x-stream-protocol-version'] ?? [];
  const offered = raw.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  const protocol = offered.length ? offered.find((p) => supported.includes(p)) : '';
  if (protocol === undefined) {
    rejectUpgrade(socket, 403, `unable to upgrade: unable to negotiate protocol: client supports [${offered.join(' ')}], server accepts [${supported.join(' ')}]`,
      { 'X-Accepted-Stream-Protocol-Versions': supported.join(', ') });
    return undefined;
  }
  if (!/\bupgrade\b/i.test(req.headers.connection ?? '') || !isSpdyRequest(req)) {
    rejectUpgrade(socket, 400, 'unable to upgrade: missing upgrade headers in request');
    return undefined;
  }
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n${protocol ? `X-Stream-Protocol-Version: ${protocol}\r\n` : ''}\r\n`);
  const conn = new SpdyConnection(socket, onStream);
  if (head.length) socket.unshift(head);
  return { conn, protocol };
}
