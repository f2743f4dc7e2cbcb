// /openapi/v3 (the index of documents with their hashes) and /openapi/v3/<path> (one document), following
// kube-openapi's handler3: JSON only here (a client asking for protobuf first but also accepting JSON gets JSON),
// a matching ?hash= makes the answer immutable, a stale one redirects to the current hash.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseAccept } from '../discovery/negotiate.js';
import { cachedBySource, type GroupVersionSource } from '../discovery/source.js';
import { buildOpenApiV3Documents, type OpenApiOptions } from './documents.js';
import { sendDocument, serializeDocument, type SerializedDocument } from './http.js';

export const OPENAPI_V3_PREFIX = '/openapi/v3';

const YEAR_MS = 365 * 24 * 3600 * 1000;

export interface OpenApiV3Index {
  paths: Record<string, { serverRelativeURL: string }>;
}

/** The index document: each path with the URL (hash included) a client should fetch it from. */
export const buildOpenApiV3Index = (docs: ReadonlyMap<string, SerializedDocument>): OpenApiV3Index => {
  const paths: OpenApiV3Index['paths'] = {};
  for (const [key, doc] of docs) {
    paths[key] = { serverRelativeURL: `${OPENAPI_V3_PREFIX}/${key}?hash=${doc.hash}` };
  }
  return { paths };
};

const acceptsJson = (accept: string | undefined): boolean =>
  parseAccept(accept).some((c) => c.type === 'application/json' || c.type === 'application/*' || c.type === '*/*');

export interface OpenApiV3RouteOptions extends OpenApiOptions {
  /** Documents served as they are, next to ours (an extension apiserver's, by the aggregator); a new Map when they change. */
  extra?: () => ReadonlyMap<string, SerializedDocument>;
}

export const registerOpenApiV3 = (app: FastifyInstance, source: GroupVersionSource, options: OpenApiV3RouteOptions = {}) => {
  const local = cachedBySource(source, (gvs) => {
    const docs = new Map<string, SerializedDocument>();
    for (const [key, doc] of buildOpenApiV3Documents(gvs, options)) docs.set(key, serializeDocument(doc));
    return { docs, index: serializeDocument(buildOpenApiV3Index(docs)) };
  });
  let merged: { local: ReturnType<typeof local>; extra: ReadonlyMap<string, SerializedDocument>; docs: Map<string, SerializedDocument>; index: SerializedDocument } | undefined;
  const current = (): { docs: ReadonlyMap<string, SerializedDocument>; index: SerializedDocument } => {
    const l = local();
    const extra = options.extra?.();
    if (!extra?.size) return l;
    if (merged?.local !== l || merged.extra !== extra) {
      const docs = new Map([...l.docs, ...extra]);
      merged = { local: l, extra, docs, index: serializeDocument(buildOpenApiV3Index(docs)) };
    }
    return merged;
  };

  app.get(OPENAPI_V3_PREFIX, async (req, reply) =>
    sendDocument(req, reply, current().index, 'application/json'));

  app.get(`${OPENAPI_V3_PREFIX}/*`, async (req: FastifyRequest<{ Params: { '*': string }; Querystring: { hash?: string } }>,
    reply: FastifyReply) => {
    reply.header('Vary', 'Accept');
    const key = req.params['*'].replace(/\/+$/, '');
    const doc = current().docs.get(key);
    if (!doc) return reply.code(404).type('text/plain').send('404 page not found\n');
    if (!acceptsJson(req.headers.accept)) return reply.code(406).send();
    const { hash } = req.query;
    if (hash) {
      if (hash !== doc.hash) return reply.redirect(`${OPENAPI_V3_PREFIX}/${key}?hash=${doc.hash}`, 301);
      reply.header('Cache-Control', 'public, immutable')
        .header('Expires', new Date(Date.now() + YEAR_MS).toUTCString());
    }
    return sendDocument(req, reply, doc, 'application/json');
  });
};
