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

export class WsChannels {
  private readonly inputs = new Map<number, PassThrough>();
  private readonly outputs: Writable[] = [];
  /** Messages waiting for the hold to end, in order; undefined once it has. */
  private held: { n: number; data: Buffer; cb: (err?: Error | null) => void }[] | undefined;
  private closeHeld = false;

  /**
   * `holdMs`: how long after the handshake messages to the client wait. client-go before 1.34 (kubectl 1.30-1.33)
   * reads the connection before it has set up its streams and drops what comes on a stream it does not know yet
   * ("Unknown stream id 1, discarding message", kubernetes#131189): a command that prints at once lost its output.
   */
  constructor(private readonly ws: WebSocket, private readonly base64: boolean, holdMs = 0) {
    if (holdMs > 0) {
      this.held = [];
      setTimeout(() => this.release(), holdMs).unref();
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

  send(n: number, data: Buffer, cb: (err?: Error | null) => void = () => undefined): void {
    if (this.held) { this.held.push({ n, data, cb }); return; }
    if (this.ws.readyState !== this.ws.OPEN) { cb(); return; }
    if (this.base64) this.ws.send(String.fromCharCode(48 + n) + data.toString('base64'), cb);
    else this.ws.send(Buffer.concat([Buffer.from([n]), data]), { binary: true }, cb);
  }

  onClose(fn: () => void): void { if (this.ws.readyState >= this.ws.CLOSING) fn(); else this.ws.once('close', fn); }

  /** Closes the connection once every output has sent what it still has queued (each waits for its last send). */
  close(): void {
    void Promise.all(this.outputs.map(flushed)).then(() => {
      if (this.held) { this.closeHeld = true; return; }
      if (this.ws.readyState === this.ws.OPEN) this.ws.close(1000);
    });
  }

  private release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const m of held) this.send(m.n, m.data, m.cb);
    if (this.closeHeld) this.close();
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
