// The envelope of `application/vnd.kubernetes.protobuf`: the magic `k8s\0`, then a runtime.Unknown
// {typeMeta=1 (TypeMeta {apiVersion=1, kind=2}), raw=2, contentEncoding=3, contentType=4} whose
// raw holds the object's own message.
import { ProtoReader, ProtoWriter, ProtobufError, WIRE_BYTES } from './wire.js';

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

export function writeEnvelope(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  const unknown = new ProtoWriter()
    .message(1, new ProtoWriter().string(1, apiVersion).string(2, kind))
    .bytes(2, raw)
    .string(3, '')
    .string(4, '');
  return Buffer.concat([PROTOBUF_MAGIC, unknown.finish()]);
}
