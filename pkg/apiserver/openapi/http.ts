// HTTP details shared by the OpenAPI routes: upstream's hash/ETag form and conditional GETs.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface SerializedDocument {
  body: Buffer;
  /** Upstream's hash: upper-case hex SHA-512 of the served bytes (also the ETag, quoted). */
  hash: string;
  lastModified: string;
}

export const serializeDocument = (doc: unknown, now = new Date()): SerializedDocument => {
  const body = Buffer.from(JSON.stringify(doc));
  return { body, hash: createHash('sha512').update(body).digest('hex').toUpperCase(), lastModified: now.toUTCString() };
};

/** If-None-Match as net/http's ServeContent reads it: a list of (possibly weak) tags, or "*". */
export const notModified = (req: FastifyRequest, etag: string): boolean => {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  return header.split(',').map((t) => t.trim().replace(/^W\//, '')).some((t) => t === '*' || t === etag);
};

/** Sends the document with its ETag (and Last-Modified), or 304 when the client already has it. */
export const sendDocument = (req: FastifyRequest, reply: FastifyReply, doc: SerializedDocument, contentType: string) => {
  const etag = `"${doc.hash}"`;
  reply.header('ETag', etag).header('Last-Modified', doc.lastModified);
  if (notModified(req, etag)) return reply.code(304).send();
  // A Buffer keeps fastify from rewriting the Content-Type.
  return reply.header('Content-Type', contentType).send(doc.body);
};
