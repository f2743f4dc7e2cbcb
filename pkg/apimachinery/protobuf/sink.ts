// A growable output buffer for the protobuf encoder. A nested message's length is not known until
// it is written: begin() reserves one byte for it and end() writes it there, moving the body up in
// the rare case the length needs more than one byte. Far cheaper than a buffer per message.

/** Strings this short have a UTF-8 length under 128 (3 bytes a UTF-16 unit at most): one length byte. */
const SHORT_STRING = 42;

export class Sink {
  buf: Buffer;
  pos = 0;

  constructor(size = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(size);
  }

  reset(): void {
    this.pos = 0;
  }

  /** A copy of what was written (the scratch buffer is reused). */
  copy(): Buffer {
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    return out;
  }

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** A field key (field number * 8 + wire type), precomputed by the caller. */
  key(k: number): void {
    if (k < 128) {
      this.ensure(1);
      this.buf[this.pos++] = k;
    } else {
      this.varint(k);
    }
  }

  /** An int32/int64/bool varint; negatives are sign-extended to ten bytes as Go writes them. */
  varint(v: number | bigint): void {
    this.ensure(10);
    const buf = this.buf;
    if (typeof v === 'number' && v >= 0 && v <= Number.MAX_SAFE_INTEGER) {
      v = Math.trunc(v);
      while (v > 0x7fffffff) {
        buf[this.pos++] = (v % 128) | 0x80;
        v = Math.floor(v / 128);
      }
      while (v > 127) {
        buf[this.pos++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      buf[this.pos++] = v;
      return;
    }
    let u = BigInt.asUintN(64, typeof v === 'bigint' ? v : BigInt(Math.trunc(v)));
    while (u >= 0x80n) {
      buf[this.pos++] = Number(u & 0x7fn) | 0x80;
      u >>= 7n;
    }
    buf[this.pos++] = Number(u);
  }

  double(v: number): void {
    this.ensure(8);
    this.buf.writeDoubleLE(v, this.pos);
    this.pos += 8;
  }

  /** A length-delimited UTF-8 string (its key already written). */
  string(s: string): void {
    const n = s.length;
    if (n <= SHORT_STRING) {
      this.ensure(1 + 3 * n);
      const buf = this.buf;
      const start = this.pos + 1;
      let p = start;
      for (let i = 0; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) {
          p = start + buf.write(s, start, 'utf8');
          break;
        }
        buf[p++] = c;
      }
      buf[this.pos] = p - start;
      this.pos = p;
      return;
    }
    const len = Buffer.byteLength(s, 'utf8');
    this.varint(len);
    this.ensure(len);
    this.buf.write(s, this.pos, len, 'utf8');
    this.pos += len;
  }

  /** Length-delimited bytes (its key already written). */
  bytes(b: Uint8Array): void {
    this.varint(b.length);
    this.raw(b);
  }

  /** Bytes as they are, no length. */
  raw(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** Reserves the length byte of a nested message; returns where its body starts. */
  begin(): number {
    this.ensure(1);
    this.pos += 1;
    return this.pos;
  }

  /** Writes the length of the body that started at `start`, moving the body if the length takes more than a byte. */
  end(start: number): void {
    const len = this.pos - start;
    if (len < 128) {
      this.buf[start - 1] = len;
      return;
    }
    const extra = varintSize(len) - 1;
    this.ensure(extra);
    this.buf.copyWithin(start + extra, start, this.pos);
    this.pos = start - 1;
    this.varint(len);
    this.pos += len;
  }
}

export const varintSize = (n: number): number => {
  let size = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
};
