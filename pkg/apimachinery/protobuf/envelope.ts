// The envelope of `application/vnd.kubernetes.protobuf`: the magic `k8s\0`, then a runtime.Unknown
// {typeMeta=1 (TypeMeta {apiVersion=1, kind=2}), raw=2, contentEncoding=3, contentType=4} whose
// raw holds the object's own message.
import { Sink } from './sink.js';
import { ProtoReader, ProtobufError, WIRE_BYTES } from './wire.js';

export const PROTOBUF_MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

export interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

export const hasMagic = (b: Uint8Array): boolean =>
  b.length >= 4 && b[0] === 0x6b && b[1] === 0x38 && b[2] === 0x73 && b[3] === 0;

export function readEnvelope(body: Uint8Array): Envelope {
  if (!hasMagic(body)) throw new ProtobufError('the body does not start with the Kubernetes protobuf magic number');
  const r = new ProtoReader(body, 4);
  const env: Envelope = { apiVersion: '', kind: '', raw: new Uint8Array(0), contentEncoding: '', contentType: '' };
  while (!r.done) {
    const { field, wire } = r.key();
    if (wire !== WIRE_BYTES) {
      r.skip(wire);
      continue;
    }
    const b = r.bytes();
    switch (field) {
      case 1: {
        const t = new ProtoReader(b);
        while (!t.done) {
          const k = t.key();
          if (k.wire !== WIRE_BYTES) t.skip(k.wire);
          else if (k.field === 1) env.apiVersion = t.string();
          else if (k.field === 2) env.kind = t.string();
          else t.skip(k.wire);
        }
        break;
      }
      case 2: env.raw = b; break;
      case 3: env.contentEncoding = Buffer.from(b).toString('utf8'); break;
      case 4: env.contentType = Buffer.from(b).toString('utf8'); break;
      default: break;
    }
  }
  return env;
}

/**
 * The bytes of an envelope before its raw object of `rawLength` bytes: the magic, typeMeta and the
 * key and length of raw. Lists and watch frames put the object's parts after it without copying them.
 */
export function envelopeHead(apiVersion: string, kind: string, rawLength: number): Buffer {
  const s = new Sink(32 + 3 * (apiVersion.length + kind.length));
  s.raw(PROTOBUF_MAGIC);
  s.key(1 * 8 + WIRE_BYTES);
  const at = s.begin();
  s.key(1 * 8 + WIRE_BYTES);
  s.string(apiVersion);
  s.key(2 * 8 + WIRE_BYTES);
  s.string(kind);
  s.end(at);
  s.key(2 * 8 + WIRE_BYTES);
  s.varint(rawLength);
  return s.copy();
}

/** What follows raw: contentEncoding and contentType, empty (upstream writes both). */
export const ENVELOPE_TAIL = Buffer.from([3 * 8 + WIRE_BYTES, 0, 4 * 8 + WIRE_BYTES, 0]);

export function writeEnvelope(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  return Buffer.concat([envelopeHead(apiVersion, kind, raw.length), raw, ENVELOPE_TAIL]);
}
