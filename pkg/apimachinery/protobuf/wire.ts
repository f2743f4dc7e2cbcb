// The protobuf wire format: varints, fixed 32/64-bit values and length-delimited bytes, read from
// buffers (and written by sink.ts). Kubernetes messages use no groups and no zigzag (sint) fields.
import { Sink } from './sink.js';

export class ProtobufError extends Error {
  override name = 'ProtobufError';
}

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_FIXED32 = 5;

export class ProtoReader {
  pos: number;
  readonly end: number;

  constructor(readonly buf: Uint8Array, start = 0, end = buf.length) {
    this.pos = start;
    this.end = end;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** A varint read as a signed 64-bit integer (int32 negatives are sign-extended to 64 bits on the wire). */
  varint(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtobufError('unexpected end of data in a varint');
      const b = this.buf[this.pos++]!;
      if (i >= 7) return this.bigVarint(this.pos - i - 1);
      value += (b & 0x7f) * scale;
      scale *= 128;
      if (b < 0x80) return value;
    }
    throw new ProtobufError('varint longer than 10 bytes');
  }

  /** The slow path for varints of 8 or more bytes (large or negative numbers). */
  private bigVarint(start: number): number {
    let value = 0n;
    let shift = 0n;
    this.pos = start;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtobufError('unexpected end of data in a varint');
      const b = this.buf[this.pos++]!;
      value |= BigInt(b & 0x7f) << shift;
      shift += 7n;
      if (b < 0x80) return Number(BigInt.asIntN(64, value));
    }
    throw new ProtobufError('varint longer than 10 bytes');
  }

  /** A field key: its number and wire type. */
  key(): { field: number; wire: number } {
    const k = this.varint();
    const field = Math.floor(k / 8);
    if (k < 0 || field < 1 || field > 0x1fffffff) throw new ProtobufError(`invalid field key ${k}`);
    return { field, wire: k & 7 };
  }

  fixed64(): DataView {
    return this.view(8);
  }

  fixed32(): DataView {
    return this.view(4);
  }

  private view(n: number): DataView {
    if (this.pos + n > this.end) throw new ProtobufError('unexpected end of data in a fixed-size value');
    const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, n);
    this.pos += n;
    return v;
  }

  double(): number {
    return this.fixed64().getFloat64(0, true);
  }

  float(): number {
    return this.fixed32().getFloat32(0, true);
  }

  /** A length-delimited value (a view into the buffer, not a copy). */
  bytes(): Uint8Array {
    const n = this.varint();
    if (n < 0 || this.pos + n > this.end) throw new ProtobufError(`length ${n} runs past the end of the data`);
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }

  string(): string {
    return Buffer.from(this.bytes()).toString('utf8');
  }

  skip(wire: number): void {
    switch (wire) {
      case WIRE_VARINT: this.varint(); return;
      case WIRE_FIXED64: this.view(8); return;
      case WIRE_BYTES: this.bytes(); return;
      case WIRE_FIXED32: this.view(4); return;
      default: throw new ProtobufError(`unsupported wire type ${wire}`);
    }
  }
}

/** Builds one small message field by field (fixtures, hand-made messages); the encoder writes into a Sink directly. */
export class ProtoWriter {
  private readonly s = new Sink(256);

  varint(field: number, n: number | bigint | boolean): this {
    this.s.key(field * 8 + WIRE_VARINT);
    this.s.varint(typeof n === 'boolean' ? (n ? 1 : 0) : n);
    return this;
  }

  double(field: number, n: number): this {
    this.s.key(field * 8 + WIRE_FIXED64);
    this.s.double(n);
    return this;
  }

  bytes(field: number, b: Uint8Array): this {
    this.s.key(field * 8 + WIRE_BYTES);
    this.s.bytes(b);
    return this;
  }

  string(field: number, str: string): this {
    this.s.key(field * 8 + WIRE_BYTES);
    this.s.string(str);
    return this;
  }

  message(field: number, m: ProtoWriter): this {
    return this.bytes(field, m.finish());
  }

  /** Varints packed into one length-delimited field (proto3 style; proto2 readers accept both). */
  packed(field: number, values: number[]): this {
    this.s.key(field * 8 + WIRE_BYTES);
    const at = this.s.begin();
    for (const v of values) this.s.varint(v);
    this.s.end(at);
    return this;
  }

  finish(): Buffer {
    return this.s.copy();
  }
}
