// /openapi/v2. kubectl 1.29+ works from /openapi/v3 alone, but 1.27 and 1.28 build their client-side validator
// from client-go's OpenAPISchema() before every create/apply/replace (unless --validate=false) and fail the
// command when that request fails; it asks for protobuf only (proto-openapi.spec.v2). kubectl 1.29-1.33 still
// read it for `explain --output plaintext-openapiv2` and as apply's fallback for strategic-merge metadata.
// So: JSON for curl and other tools, protobuf for client-go, negotiated as kube-openapi's handler does.
import type { FastifyInstance } from 'fastify';
import { parseAccept } from '../discovery/negotiate.js';
import { cachedBySource, type GroupVersionSource } from '../discovery/source.js';
import type { OpenApiOptions } from './documents.js';
import { sendDocument, serializeDocument, type SerializedDocument } from './http.js';
import { buildSwagger } from './v2.js';
import { mergeSwagger, type RemoteSwagger } from './v2-merge.js';
import { encodeSwaggerProtobuf } from './v2-protobuf.js';

const PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const PROTOBUF_DEPRECATED = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

/** The first acceptable clause decides, by type and subtype alone (parameters are ignored, as upstream). */
export const negotiateV2 = (accept: string | undefined): 'json' | 'protobuf' | undefined => {
  for (const { type } of parseAccept(accept)) {
    if (type === 'application/json' || type === 'application/*' || type === '*/*') return 'json';
    if (type === PROTOBUF || type === PROTOBUF_DEPRECATED) return 'protobuf';
  }
  return undefined;
};

export interface OpenApiV2Options extends OpenApiOptions {
  /** The documents of extension apiservers, merged into ours (a new array when one changes). */
  extra?: () => readonly RemoteSwagger[];
}

export const registerOpenApiV2 = (app: FastifyInstance, source: GroupVersionSource, options: OpenApiV2Options = {}) => {
  const local = cachedBySource(source, (gvs) => buildSwagger(gvs, options));
  let built: { local: ReturnType<typeof local>; extra: readonly RemoteSwagger[] | undefined; json: SerializedDocument; protobuf: SerializedDocument } | undefined;
  const current = (): { json: SerializedDocument; protobuf: SerializedDocument } => {
    const l = local();
    const extra = options.extra?.();
    if (built?.local !== l || built.extra !== extra) {
      const swagger = extra?.length ? mergeSwagger(l, extra) : l;
      const json = serializeDocument(swagger);
      // Both forms share the JSON's hash as ETag, as kube-openapi's cache does.
      built = { local: l, extra, json, protobuf: { ...json, body: encodeSwaggerProtobuf(swagger) } };
    }
    return built;
  };

  app.get('/openapi/v2', async (req, reply) => {
    reply.header('Vary', 'Accept');
    const format = negotiateV2(req.headers.accept);
    if (!format) return reply.code(406).send();
    const docs = current();
    return format === 'json'
      ? sendDocument(req, reply, docs.json, 'application/json')
      : sendDocument(req, reply, docs.protobuf, PROTOBUF);
  });
};
