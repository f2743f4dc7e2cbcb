// `application/vnd.kubernetes.protobuf` for the built-in kinds: a whole body (envelope + object)
// to the JSON object the JSON path would have read, and back.
import { allDefinitions } from '../../../api/index.js';
import { protoFields } from '../../../api/proto/index.js';
import { decodeMessage } from './decode.js';
import { encodeMessage } from './encode.js';
import { readEnvelope, writeEnvelope } from './envelope.js';
import type { ProtoSchemas } from './shape.js';
import { ProtobufError } from './wire.js';

export { decodeMessage } from './decode.js';
export { encodeMessage, writeMessage } from './encode.js';
export { ENVELOPE_TAIL, envelopeHead, hasMagic, readEnvelope, writeEnvelope, PROTOBUF_MAGIC, type Envelope } from './envelope.js';
export type { ProtoSchemas } from './shape.js';
export { ProtobufError } from './wire.js';

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

export const builtinProtoSchemas: ProtoSchemas = {
  definition: (name) => allDefinitions[name],
  message: (name) => protoFields[name],
};

let kinds: Map<string, string> | undefined;

/** The definition of a built-in apiVersion + kind, from x-kubernetes-group-version-kind. */
export function definitionOfKind(apiVersion: string, kind: string): string | undefined {
  if (!kinds) {
    kinds = new Map();
    for (const [name, schema] of Object.entries(allDefinitions)) {
      for (const gvk of schema['x-kubernetes-group-version-kind'] ?? []) {
        const key = `${gvk.group ? `${gvk.group}/` : ''}${gvk.version}/${gvk.kind}`;
        if (!kinds.has(key) && protoFields[name]) kinds.set(key, name);
      }
    }
  }
  return kinds.get(`${apiVersion}/${kind}`);
}

/** How deep objects in RawExtensions may nest in protobuf form. */
const MAX_NESTING = 8;

/** Decodes a protobuf body of a built-in kind; throws ProtobufError on anything it cannot read. */
export function decodeProtobufObject(body: Uint8Array, schemas: ProtoSchemas = builtinProtoSchemas, nesting = 0): Record<string, unknown> {
  if (nesting > MAX_NESTING) throw new ProtobufError('objects embedded in RawExtensions nest too deeply');
  const env = readEnvelope(body);
  if (env.contentEncoding) throw new ProtobufError(`unsupported content encoding ${JSON.stringify(env.contentEncoding)}`);
  if (env.contentType && env.contentType !== PROTOBUF_MEDIA_TYPE) throw new ProtobufError(`unsupported content type ${JSON.stringify(env.contentType)}`);
  if (!env.kind) throw new ProtobufError('Object \'Kind\' is missing in the protobuf envelope');
  const name = definitionOfKind(env.apiVersion, env.kind);
  if (!name) throw new ProtobufError(`no kind "${env.kind}" is registered for version "${env.apiVersion}"`);
  const object = decodeMessage(env.raw, name, schemas, { nested: (raw) => decodeProtobufObject(raw, schemas, nesting + 1) });
  return { apiVersion: env.apiVersion, kind: env.kind, ...object };
}

/** Encodes a built-in object (with apiVersion and kind) as a protobuf body. */
export function encodeProtobufObject(obj: Record<string, unknown>, schemas: ProtoSchemas = builtinProtoSchemas): Buffer {
  const apiVersion = String(obj.apiVersion ?? '');
  const kind = String(obj.kind ?? '');
  const name = definitionOfKind(apiVersion, kind);
  if (!name) throw new ProtobufError(`no kind "${kind}" is registered for version "${apiVersion}"`);
  return writeEnvelope(apiVersion, kind, encodeMessage(obj, name, schemas));
}
