// The server side of SPDY/3.1 as client-go's spdystream speaks it (SPDY Protocol draft 3.1): the client opens every
// stream (SYN_STREAM with its headers), the server answers each with an empty SYN_REPLY and then exchanges DATA
// frames; FIN half-closes, RST_STREAM aborts, PINGs are echoed, GOAWAY ends the session. Header blocks are zlib
// streams with the SPDY/3 dictionary and one compression context per direction for the whole connection.
// Flow control is not enforced: spdystream neither sends nor honours WINDOW_UPDATE, so none are sent and any
// received are ignored. HTTP-centric libraries (spdy-transport) insist on `:method`/`:path` headers, which
// spdystream never sends, hence this small framer.
import { Duplex } from 'node:stream';
import { constants as zc, createDeflate, createInflate, type Deflate, type Inflate } from 'node:zlib';
import { SPDY3_DICTIONARY } from './spdy-dictionary.js';

const VERSION = 3;
const enum FrameType { SynStream = 1, SynReply = 2, RstStream = 3, Settings = 4, Ping = 6, GoAway = 7, Headers = 8, WindowUpdate = 9 }
const FLAG_FIN = 0x01;
const FLAG_UNIDIRECTIONAL = 0x02;
/** RST_STREAM status codes. */
export const RST_PROTOCOL_ERROR = 1;
export const RST_CANCEL = 5;
const MAX_DATA = 64 * 1024;

/** One zlib context, used for one header block after another (each ends with a sync flush). */
class HeaderZlib {
  private chunks: Buffer[] = [];
  private tail: Promise<Buffer> = Promise.resolve(Buffer.alloc(0));

  constructor(private readonly z: Inflate | Deflate) {
    z.on('data', (c: Buffer) => this.chunks.push(c));
    z.on('error', () => undefined); // surfaces through the pending flush, which never calls back; the connection closes
  }

  run(input: Buffer): Promise<Buffer> {
    this.tail = this.tail.then(() => new Promise<Buffer>((resolve, reject) => {
      const onError = (err: Error): void => reject(err);
      this.z.once('error', onError);
      this.z.write(input);
      this.z.flush(zc.Z_SYNC_FLUSH, () => {
        this.z.off('error', onError);
        const out = Buffer.concat(this.chunks);
        this.chunks = [];
        resolve(out);
      });
    }));
    return this.tail;
  }

  close(): void { this.z.close(); }
}

/** Header names are lower case on the wire; a name with several values joins them with NUL. */
export type SpdyHeaders = Record<string, string>;

const decodeHeaderBlock = (b: Buffer): SpdyHeaders => {
  const headers: SpdyHeaders = {};
  let o = 0;
  const str = (): string => { const n = b.readUInt32BE(o); o += 4; const s = b.toString('utf8', o, o + n); o += n; return s; };
  const count = b.readUInt32BE(o); o += 4;
  for (let i = 0; i < count; i++) { const name = str().toLowerCase(); headers[name] = str().split('\0')[0]!; }
  return headers;
};

const encodeHeaderBlock = (h: SpdyHeaders): Buffer => {
  const parts: Buffer[] = [];
  const u32 = (n: number): Buffer => { const b = Buffer.alloc(4); b.writeUInt32BE(n, 0); return b; };
  parts.push(u32(Object.keys(h).length));
  for (const [k, v] of Object.entries(h)) for (const s of [k.toLowerCase(), v]) { const b = Buffer.from(s); parts.push(u32(b.length), b); }
  return Buffer.concat(parts);
};

const controlFrame = (type: FrameType, flags: number, body: Buffer): Buffer => {
  const head = Buffer.alloc(8);
  head.writeUInt16BE(0x8000 | VERSION, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt32BE(body.length, 4);
  head[4] = flags;
  return Buffer.concat([head, body]);
};

const dataFrame = (id: number, flags: number, payload: Buffer): Buffer => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(id & 0x7fffffff, 0);
  head.writeUInt32BE(payload.length, 4);
  head[4] = flags;
  return Buffer.concat([head, payload]);
};

const u32s = (...n: number[]): Buffer => { const b = Buffer.alloc(4 * n.length); n.forEach((v, i) => b.writeUInt32BE(v >>> 0, 4 * i)); return b; };

/** A client-opened stream: readable = the client's DATA, writable = ours (end() sends FIN). */
export class SpdyStream extends Duplex {
  constructor(readonly id: number, readonly headers: SpdyHeaders, private readonly conn: SpdyConnection) {
    super({ allowHalfOpen: true });
    // A write racing the client's RST_STREAM or the connection's end has nowhere to go; nothing to report.
    this.on('error', () => undefined);
  }

  override _read(): void { /* data is pushed as frames arrive */ }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.conn.sendData(this.id, chunk, false).then(() => cb(), cb);
  }

  override _final(cb: (err?: Error | null) => void): void {
    this.conn.sendData(this.id, Buffer.alloc(0), true).then(() => cb(), cb);
  }

  /** Aborts the stream (RST_STREAM CANCEL). */
  reset(status = RST_CANCEL): void {
    this.conn.sendReset(this.id, status);
    this.destroy();
  }
}

/**
 * A SPDY/3.1 server session over an upgraded socket (or a WebSocket tunnel). `onStream` sees every stream the
 * client opens, already replied to.
 */
export class SpdyConnection {
  private buf: Buffer = Buffer.alloc(0);
  private readonly inflate = new HeaderZlib(createInflate({ dictionary: SPDY3_DICTIONARY }));
  private readonly deflate = new HeaderZlib(createDeflate({ dictionary: SPDY3_DICTIONARY }));
  private readonly streams = new Map<number, SpdyStream>();
  /** Frames are handled one at a time, in order: header blocks inflate asynchronously. */
  private inbound = Promise.resolve();
  /** Frames go out in order: a SYN_REPLY's compression must finish before its stream's DATA. */
  private outbound = Promise.resolve();
  private lastStreamId = 0;
  private closed = false;
  private readonly closeListeners: (() => void)[] = [];

  constructor(private readonly socket: Duplex, private readonly onStream: (s: SpdyStream) => void) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('end', () => this.close());
    socket.on('close', () => this.close());
    socket.on('error', () => this.close());
  }

  onClose(fn: () => void): void { if (this.closed) fn(); else this.closeListeners.push(fn); }

  /** Sends GOAWAY and closes the socket once it is written. */
  goAway(): void {
    if (this.closed) return;
    this.write(() => controlFrame(FrameType.GoAway, 0, u32s(this.lastStreamId, 0))).finally(() => { this.socket.end(); this.close(); }).catch(() => undefined);
  }

  sendData(id: number, payload: Buffer, fin: boolean): Promise<void> {
    if (payload.length <= MAX_DATA) return this.write(() => dataFrame(id, fin ? FLAG_FIN : 0, payload));
    const frames: Buffer[] = [];
    for (let o = 0; o < payload.length; o += MAX_DATA) frames.push(dataFrame(id, fin && o + MAX_DATA >= payload.length ? FLAG_FIN : 0, payload.subarray(o, o + MAX_DATA)));
    return this.write(() => Buffer.concat(frames));
  }

  sendReset(id: number, status: number): void {
    this.write(() => controlFrame(FrameType.RstStream, 0, u32s(id, status))).catch(() => undefined);
  }

  private write(frame: () => Buffer | Promise<Buffer>): Promise<void> {
    const done = this.outbound.then(async () => {
      if (this.closed) throw new Error('spdy connection closed');
      const bytes = await frame();
      await new Promise<void>((resolve, reject) => this.socket.write(bytes, (err) => (err ? reject(err) : resolve())));
    });
    this.outbound = done.catch(() => undefined);
    return done;
  }

  private receive(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    while (this.buf.length >= 8) {
      const length = this.buf.readUInt32BE(4) & 0xffffff;
      if (this.buf.length < 8 + length) break;
      const frame = this.buf.subarray(0, 8 + length);
      this.buf = this.buf.subarray(8 + length);
      this.inbound = this.inbound.then(() => this.handle(frame)).catch(() => { this.socket.destroy(); this.close(); });
    }
  }

  private async handle(f: Buffer): Promise<void> {
    if (this.closed) return;
    const flags = f[4]!;
    const body = f.subarray(8);
    if (!(f[0]! & 0x80)) {
      const s = this.streams.get(f.readUInt32BE(0) & 0x7fffffff);
      if (!s) return;
      if (body.length) s.push(Buffer.from(body));
      if (flags & FLAG_FIN) s.push(null);
      return;
    }
    switch (f.readUInt16BE(2) as FrameType) {
      case FrameType.SynStream: {
        const id = body.readUInt32BE(0) & 0x7fffffff;
        const headers = decodeHeaderBlock(await this.inflate.run(body.subarray(10)));
        if (id <= this.lastStreamId || id % 2 === 0) { this.sendReset(id, RST_PROTOCOL_ERROR); return; }
        this.lastStreamId = id;
        const s = new SpdyStream(id, headers, this);
        this.streams.set(id, s);
        s.once('close', () => this.streams.delete(id));
        if (flags & FLAG_FIN) s.push(null);
        if (flags & FLAG_UNIDIRECTIONAL) s.end();
        await this.write(async () => controlFrame(FrameType.SynReply, 0, Buffer.concat([u32s(id), await this.deflate.run(encodeHeaderBlock({}))])));
        this.onStream(s);
        return;
      }
      case FrameType.SynReply:
      case FrameType.Headers:
        // Never expected from a client, but the header block must still go through the shared zlib context.
        await this.inflate.run(body.subarray(4));
        return;
      case FrameType.RstStream: {
        const s = this.streams.get(body.readUInt32BE(0) & 0x7fffffff);
        s?.destroy();
        return;
      }
      case FrameType.Ping:
        // Echo the client's pings (odd ids); ours would be even, and none are sent.
        if (body.readUInt32BE(0) % 2 === 1) await this.write(() => Buffer.from(f));
        return;
      case FrameType.GoAway:
        this.socket.end();
        this.close();
        return;
      default: // SETTINGS, WINDOW_UPDATE and unknown frames: nothing to do
    }
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.streams.values()) s.destroy();
    this.streams.clear();
    this.inflate.close();
    this.deflate.close();
    for (const fn of this.closeListeners.splice(0)) fn();
  }
}
