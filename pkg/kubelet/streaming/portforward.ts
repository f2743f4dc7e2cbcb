// Port-forward, as the kubelet's CRI streaming server serves it (kubelet cri/streaming/portforward):
//  - SPDY (protocol portforward.k8s.io): per forwarded connection the client opens an `error` and a `data` stream
//    with the same `requestid` and `port` headers; the data stream carries the TCP bytes both ways, a failure is
//    written as text to the error stream. kubectl 1.31+ tunnels the same SPDY session through a WebSocket with the
//    subprotocol SPDY/3.1+portforward.k8s.io (binary messages carry the raw frames).
//  - WebSocket channels (v4.channel.k8s.io, as client libraries use): query `port` lists the ports; channel 2i is
//    the data and 2i+1 the error of port i, each starting with the port as 16-bit little endian.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { createWebSocketStream } from 'ws';
import { rejectUpgrade } from '../../apimachinery/httpstream/reject.js';
import { SpdyConnection, type SpdyStream } from './spdy.js';
import { upgradeSpdy } from './spdy-upgrade.js';
import { acceptWebSocket, isWebSocketRequest, offeredProtocols, WsChannels } from '../../apimachinery/httpstream/wsstream.js';

const PROTOCOL = 'portforward.k8s.io';
const TUNNEL_PROTOCOL = `SPDY/3.1+${PROTOCOL}`;
const WS_PROTOCOLS = ['v4.channel.k8s.io', 'v4.base64.channel.k8s.io'];
const STREAM_CREATION_TIMEOUT_MS = 30_000;

export interface PortForwardTarget {
  /** A connection to the port in the pod's network. */
  dial(port: number): Promise<Duplex>;
  pod: string;
  uid: string;
  logger: Logger;
}

export function servePortForward(req: IncomingMessage, socket: Duplex, head: Buffer, query: URLSearchParams, t: PortForwardTarget): void {
  if (!isWebSocketRequest(req)) {
    upgradeSpdy(req, socket, head, [PROTOCOL], streamPairer(t));
    return;
  }
  if (offeredProtocols(req).includes(TUNNEL_PROTOCOL)) {
    void acceptWebSocket(req, socket, head, [TUNNEL_PROTOCOL]).then((ws) => {
      if (!ws) return;
      const tunnel = createWebSocketStream(ws);
      tunnel.on('error', () => tunnel.destroy());
      new SpdyConnection(tunnel, streamPairer(t)).onClose(() => tunnel.destroy());
    });
    return;
  }
  const ports: number[] = [];
  for (const v of query.getAll('port')) {
    for (const p of v.split(',')) {
      const port = Number(p);
      if (!/^\d+$/.test(p) || port < 1 || port > 65535) { rejectUpgrade(socket, 400, `unable to parse "${v}" as a port`); return; }
      ports.push(port);
    }
  }
  if (!ports.length) { rejectUpgrade(socket, 400, 'query parameter "port" is required'); return; }
  void acceptWebSocket(req, socket, head, WS_PROTOCOLS).then((ws) => {
    if (!ws) return;
    const ch = new WsChannels(ws, ws.protocol.includes('base64'));
    const le = (port: number): Buffer => { const b = Buffer.alloc(2); b.writeUInt16LE(port, 0); return b; };
    let open = ports.length;
    ports.forEach((port, i) => {
      ch.send(2 * i, le(port));
      ch.send(2 * i + 1, le(port));
      void forward(port, ch.input(2 * i), ch.output(2 * i), (msg) => ch.send(2 * i + 1, Buffer.from(msg)), t)
        .finally(() => { if (--open === 0) ch.close(); });
    });
  });
}

/** Pairs each request's error and data streams (upstream's httpStreamHandler) and forwards when both are there. */
function streamPairer(t: PortForwardTarget): (s: SpdyStream) => void {
  const pairs = new Map<string, { error?: SpdyStream; data?: SpdyStream; timer: NodeJS.Timeout }>();
  return (s) => {
    const type = s.headers.streamtype;
    const port = Number(s.headers.port);
    if ((type !== 'error' && type !== 'data') || !/^\d+$/.test(s.headers.port ?? '') || port < 1 || port > 65535) { s.reset(); return; }
    // Clients before requestid: the error stream's id, and the data stream follows it (id + 2).
    const id = s.headers.requestid ?? String(type === 'error' ? s.id : s.id - 2);
    let pair = pairs.get(id);
    if (!pair) {
      const timer = setTimeout(() => {
        pairs.delete(id);
        pair?.error?.end(`timed out waiting for streams of request ${id}`);
        pair?.data?.reset();
      }, STREAM_CREATION_TIMEOUT_MS);
      pair = { timer };
      pairs.set(id, pair);
    }
    if (pair[type]) { s.end(`error processing stream for request ${id}: ${type} stream already assigned`); return; }
    pair[type] = s;
    if (type === 'error') s.resume();
    const { error, data } = pair;
    if (!error || !data) return;
    clearTimeout(pair.timer);
    pairs.delete(id);
    void forward(port, data, data, (msg) => error.write(msg), t).finally(() => error.end());
  };
}

/** Joins one client stream to a new connection to the pod's port; failures go to the error stream. */
async function forward(port: number, from: NodeJS.ReadableStream, to: NodeJS.WritableStream, fail: (msg: string) => void, t: PortForwardTarget): Promise<void> {
  let conn: Duplex;
  try {
    conn = await t.dial(port);
  } catch (err) {
    const msg = `error forwarding port ${port} to pod ${t.pod}, uid ${t.uid}: ${(err as Error).message}`;
    t.logger.info({ port, pod: t.pod }, msg);
    fail(msg);
    to.end();
    return;
  }
  await new Promise<void>((resolve) => {
    conn.on('error', () => conn.destroy());
    from.pipe(conn);
    conn.pipe(to);
    // The client reset its stream or hung up: the pod's connection goes too.
    from.once('close', () => conn.destroy());
    conn.once('close', () => resolve());
  });
}
