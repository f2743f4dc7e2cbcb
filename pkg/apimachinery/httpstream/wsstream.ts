// Kubernetes' channel protocol over a WebSocket (apimachinery wsstream): every message starts with its channel
// number; `base64.` protocols send text messages whose first character is the channel digit and the rest base64.
// v5.channel.k8s.io adds channel 255: a message [255, n] from the client closes its channel n (stdin EOF).
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { PassThrough, Writable } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { rejectUpgrade } from './reject.js';

const CLOSE_CHANNEL = 255;

export const isWebSocketRequest = (req: IncomingMessage): boolean =>
  /\bupgrade\b/i.test(req.headers.connection ?? '') && (req.headers.upgrade ?? '').toLowerCase() === 'websocket';

/** The subprotocols a WebSocket client offered, in its order of preference. */
export const offeredProtocols = (req: IncomingMessage): string[] =>
  (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim()).filter(Boolean);

/**
 * Completes the WebSocket handshake with the first offered protocol the server supports (none offered: the
 * default, binary channels), or answers 400 as upstream does when nothing matches.
 */
export function acceptWebSocket(req: IncomingMessage, socket: Duplex, head: Buffer, supported: string[]): Promise<WebSocket | undefined> {
  const offered = offeredProtocols(req);
  const chosen = offered.find((p) => supported.includes(p));
  if (offered.length && !chosen) {
    rejectUpgrade(socket, 400, `unable to upgrade: requested protocol(s) are not supported: [${offered.join(' ')}]; supports [${supported.join(' ')}]`);
    return Promise.resolve(undefined);
  }
  // `ws` accepts only RFC 7230 tokens as subprotocols, and SPDY/3.1+portforward.k8s.io has a '/': it is offered
  // to `ws` in a token-safe spelling and answered as the client wrote it.
  if (offered.length) req.headers['sec-websocket-protocol'] = offered.map((p) => p.replace(/[^\w!#$%&'*+.^`|~-]/g, '_')).join(', ');
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, handleProtocols: () => chosen ?? false });
  return new Promise((resolve) => wss.handleUpgrade(req, socket, head, (ws) => resolve(ws)));
}

/** Ends a stream and resolves once all it was given is written (at once when it is absent, destroyed or done). */
export const flushed = (w: Writable | undefined): Promise<void> => new Promise((resolve) => {
  if (!w || w.destroyed || w.writableFinished) { resolve(); return; }
  w.once('close', () => resolve());
  w.end(() => resolve());
});

/**
 * A client's channels over one WebSocket. Messages go out one at a time, each once the one before it is written,
 * and the close frame after the last: as upstream's wsstream (one Go Write per frame on a tls.Conn), every frame
 * is its own TLS record. Written while another is in flight, Node would batch them (writev) into one record, and a
 * client that reads a frame and then waits on its socket misses the next one already decrypted with it: the Python
 * client before kubernetes-client/python#2646 hangs after the status when the close frame came in its record.
 */
export class WsChannels {
  private readonly inputs = new Map<number, PassThrough>();
  private readonly outputs: Writable[] = [];
  private readonly queue: { n: number; data: Buffer; cb: (err?: Error | null) => void }[] = [];
  /** A message is being written, or the hold after the handshake has not ended: the queue waits. */
  private busy = false;
  /** close() was called and every output has flushed: the close frame goes once the queue is empty. */
  private closing = false;

  /**
   * `holdMs`: how long after the handshake messages to the client wait. client-go before 1.34 (kubectl 1.30-1.33)
   * reads the connection before it has set up its streams and drops what comes on a stream it does not know yet
   * ("Unknown stream id 1, discarding message", kubernetes#131189): a command that prints at once lost its output.
   */
  constructor(private readonly ws: WebSocket, private readonly base64: boolean, holdMs = 0) {
    if (holdMs > 0) {
      this.busy = true;
      setTimeout(() => { this.busy = false; this.next(); }, holdMs).unref();
    }
    ws.on('message', (data: Buffer, isBinary: boolean) => this.receive(Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer), isBinary));
    ws.on('close', () => { for (const s of this.inputs.values()) s.end(); });
    ws.on('error', () => undefined);
  }

  /** What the client sends on channel n. */
  input(n: number): PassThrough {
    let s = this.inputs.get(n);
    if (!s) { s = new PassThrough(); this.inputs.set(n, s); }
    return s;
  }

  /** Writes to the client on channel n; ending it sends nothing (channels close with the connection). */
  output(n: number): Writable {
    const w = new Writable({ write: (chunk: Buffer, _enc, cb) => this.send(n, chunk, cb), final: (cb) => cb() });
    this.outputs.push(w);
    return w;
  }

  /** Queues a message on channel n; `cb` once it is written (or dropped, the connection being gone). */
  send(n: number, data: Buffer, cb: (err?: Error | null) => void = () => undefined): void {
    this.queue.push({ n, data, cb });
    this.next();
  }

  onClose(fn: () => void): void { if (this.ws.readyState >= this.ws.CLOSING) fn(); else this.ws.once('close', fn); }

  /** Closes the connection once every output has sent what it still has queued (each waits for its last send). */
  close(): void {
    void Promise.all(this.outputs.map(flushed)).then(() => { this.closing = true; this.next(); });
  }

  private next(): void {
    while (!this.busy) {
      const m = this.queue.shift();
      if (!m) {
        if (this.closing && this.ws.readyState === this.ws.OPEN) this.ws.close(1000);
        return;
      }
      if (this.ws.readyState !== this.ws.OPEN) { m.cb(); continue; }
      this.busy = true;
      const written = (err?: Error | null): void => { this.busy = false; m.cb(err); this.next(); };
      if (this.base64) this.ws.send(String.fromCharCode(48 + m.n) + m.data.toString('base64'), written);
      else this.ws.send(Buffer.concat([Buffer.from([m.n]), m.data]), { binary: true }, written);
    }
  }

  private receive(data: Buffer, isBinary: boolean): void {
    if (!data.length) return;
    let channel: number;
    let payload: Buffer;
    if (this.base64 && !isBinary) { channel = data[0]! - 48; payload = Buffer.from(data.subarray(1).toString(), 'base64'); }
    else { channel = data[0]!; payload = data.subarray(1); }
    if (channel === CLOSE_CHANNEL) { if (payload.length) this.input(payload[0]!).end(); return; }
    if (payload.length) this.input(channel).write(payload);
  }
}
