import { Duplex, PassThrough } from 'node:stream';
import { constants, createDeflate, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SpdyConnection, type SpdyStream } from './spdy.js';
import { SPDY3_DICTIONARY } from './spdy-dictionary.js';

/** A client's side of the wire: frames written byte by byte, frames read back whole. */
function wire() {
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const socket = Duplex.from({ readable: toServer, writable: fromServer });
  const deflate = createDeflate({ dictionary: SPDY3_DICTIONARY });
  const compressed: Buffer[] = [];
  deflate.on('data', (c: Buffer) => compressed.push(c));
  const headerBlock = (h: Record<string, string>): Promise<Buffer> => new Promise((resolve) => {
    const parts: Buffer[] = [];
    const u32 = (n: number): Buffer => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; };
    parts.push(u32(Object.keys(h).length));
    for (const [k, v] of Object.entries(h)) parts.push(u32(k.length), Buffer.from(k), u32(v.length), Buffer.from(v));
    deflate.write(Buffer.concat(parts));
    deflate.flush(constants.Z_SYNC_FLUSH, () => resolve(Buffer.concat(compressed.splice(0))));
  });
  const control = (type: number, flags: number, body: Buffer): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt16BE(0x8003, 0);
    head.writeUInt16BE(type, 2);
    head.writeUInt32BE(body.length, 4);
    head[4] = flags;
    return Buffer.concat([head, body]);
  };
  const send = (frame: Buffer): void => { for (let i = 0; i < frame.length; i += 3) toServer.write(frame.subarray(i, i + 3)); };
  let received = Buffer.alloc(0);
  const frames: Buffer[] = [];
  fromServer.on('data', (c: Buffer) => {
    received = Buffer.concat([received, c]);
    while (received.length >= 8 && received.length >= 8 + (received.readUInt32BE(4) & 0xffffff)) {
      const n = 8 + (received.readUInt32BE(4) & 0xffffff);
      frames.push(received.subarray(0, n));
      received = received.subarray(n);
    }
  });
  const next = async (): Promise<Buffer> => {
    for (let i = 0; i < 200 && !frames.length; i++) await new Promise((r) => setTimeout(r, 5));
    const f = frames.shift();
    if (!f) throw new Error('no frame from the server');
    return f;
  };
  return {
    socket, send, next, toServer,
    async synStream(id: number, headers: Record<string, string>, flags = 0): Promise<void> {
      const ids = Buffer.alloc(10);
      ids.writeUInt32BE(id, 0);
      send(control(1, flags, Buffer.concat([ids, await headerBlock(headers)])));
    },
    data(id: number, payload: string, fin: boolean): void {
      const head = Buffer.alloc(8);
      head.writeUInt32BE(id, 0);
      head.writeUInt32BE(payload.length, 4);
      head[4] = fin ? 1 : 0;
      send(Buffer.concat([head, Buffer.from(payload)]));
    },
    control,
  };
}

describe('SPDY/3.1 server framing', () => {
  it('replies to client streams, carries DATA both ways with FIN, echoes PINGs and ends on GOAWAY', async () => {
    const w = wire();
    const streams: SpdyStream[] = [];
    const conn = new SpdyConnection(w.socket, (s) => streams.push(s));
    let closed = false;
    conn.onClose(() => { closed = true; });

    await w.synStream(1, { streamtype: 'data', port: '80', requestid: '0' });
    const reply = await w.next();
    expect(reply.readUInt16BE(0)).toBe(0x8003);
    expect(reply.readUInt16BE(2)).toBe(2); // SYN_REPLY
    expect(reply.readUInt32BE(8) & 0x7fffffff).toBe(1);
    // The reply's header block: an empty list in the server's own zlib stream.
    expect(inflateSync(reply.subarray(12), { dictionary: SPDY3_DICTIONARY, finishFlush: constants.Z_SYNC_FLUSH }).readUInt32BE(0)).toBe(0);
    expect(streams[0]!.headers).toEqual({ streamtype: 'data', port: '80', requestid: '0' });

    // A second header block decodes with the same zlib context.
    await w.synStream(3, { streamtype: 'error', port: '80', requestid: '0' });
    await w.next();
    expect(streams[1]!.headers.streamtype).toBe('error');

    let got = '';
    streams[0]!.on('data', (c: Buffer) => { got += c.toString(); });
    const ended = new Promise((r) => streams[0]!.once('end', r));
    w.data(1, 'hello ', false);
    w.data(1, 'world', true);
    await ended;
    expect(got).toBe('hello world');

    streams[0]!.end('back');
    const data = await w.next();
    expect(data[0]! & 0x80).toBe(0);
    expect(data.readUInt32BE(0)).toBe(1);
    expect(data.subarray(8).toString()).toBe('back');
    const fin = await w.next();
    expect(fin[4]! & 1).toBe(1);

    const ping = Buffer.alloc(4);
    ping.writeUInt32BE(7);
    w.send(w.control(6, 0, ping));
    const pong = await w.next();
    expect([pong.readUInt16BE(2), pong.readUInt32BE(8)]).toEqual([6, 7]);

    // A stream id that does not grow is refused with RST_STREAM (PROTOCOL_ERROR).
    await w.synStream(3, { streamtype: 'data' });
    const rst = await w.next();
    expect([rst.readUInt16BE(2), rst.readUInt32BE(8), rst.readUInt32BE(12)]).toEqual([3, 3, 1]);

    w.send(w.control(7, 0, Buffer.alloc(8)));
    for (let i = 0; i < 100 && !closed; i++) await new Promise((r) => setTimeout(r, 5));
    expect(closed).toBe(true);
  });
});
