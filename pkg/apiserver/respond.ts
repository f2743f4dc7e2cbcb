// Writing responses: one object, a list, or a Status, in the negotiated representation. Objects
// from storage carry their JSON bytes, serialized once at write time; plain JSON reuses them. A body over 128 KiB
// goes gzipped (level 1) to a client that accepts gzip, as upstream's APIResponseCompression does (client-go, and so
// kubectl, asks for it).
import type { OutgoingHttpHeaders } from 'node:http';
import { createGzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { stringifyYaml as toYaml } from '../apimachinery/yaml.js';
import type { KubeObject, ResourceType } from '../../api/types.js';
import type { KeyValue } from '../storage/interface.js';
import type { Result } from '../registry/generic/registry.js';
import { contentTypeOf, negotiateOutput, type OutputFormat } from './negotiation.js';
import { protobufObject, protobufStoredListParts, protobufPartialObjectMetadata, protobufPartialObjectMetadataList, speaksProtobuf } from './protobuf-response.js';
import { includeObjectOf, partialObjectMetadata, partialObjectMetadataList, toTable, type ListMeta } from './transform.js';
import { untypedItemBytes, withoutTypeMeta } from './list-items.js';

export interface Responder {
  rt: ResourceType;
  /** The resource whose table convertor prints this response, when rt is a subresource's own kind (Scale). */
  tableOf?: ResourceType;
  request: FastifyRequest;
  reply: FastifyReply;
  warnings: string[];
  now: Date;
}

const query = (r: FastifyRequest): Record<string, string | undefined> => r.query as Record<string, string | undefined>;

/** Upstream's warning recorder limits: all warnings' text within 4096 runes, else each cut to 256 runes. */
const WARNINGS_MAX_RUNES = 4096;
const WARNING_TRUNCATED_RUNES = 256;

/**
 * Upstream's Warning header: `299 - "text"`, one value per warning, as its request's warning recorder writes them:
 * each text once (a retried update warns again); once the texts pass 4096 runes, every warning (those written
 * already too) is cut to 256 runes, and none is added after the total has reached 4096.
 */
export function setWarnings(reply: FastifyReply, warnings: string[]): void {
  if (!warnings.length) return;
  const cut = (runes: string[]): string[] => runes.slice(0, WARNING_TRUNCATED_RUNES);
  const seen: string[][] = [];
  let written: string[][] = [];
  let total = 0;
  let truncating = false;
  for (const text of new Set(warnings)) {
    if (!text || (truncating && total >= WARNINGS_MAX_RUNES)) continue;
    const runes = [...text];
    seen.push(runes);
    const item = truncating ? cut(runes) : runes;
    if (truncating || total + item.length <= WARNINGS_MAX_RUNES) {
      written.push(item);
      total += item.length;
      continue;
    }
    truncating = true;
    written = seen.map(cut);
    total = written.reduce((n, r) => n + r.length, 0);
  }
  reply.header('warning', written.map((runes) => `299 - ${JSON.stringify(runes.join(''))}`));
}

function encode(r: Responder, format: OutputFormat, body: KubeObject | Buffer, status: number): FastifyReply {
  r.reply.code(status).type(contentTypeOf(format));
  // Buffers, not strings: fastify would add "; charset=utf-8" to a string's type, which upstream never sends.
  // Protobuf bodies come encoded by the caller.
  const bytes = Buffer.isBuffer(body) ? (format.encoding === 'yaml' ? Buffer.from(toYaml(JSON.parse(body.toString('utf8')))) : body)
    : Buffer.from(format.encoding === 'yaml' ? toYaml(body) : JSON.stringify(body));
  return gzipWanted(r.request, bytes.length) ? sendGzipped(r.reply, [bytes]) : r.reply.send(bytes);
}

const GZIP_ABOVE_BYTES = 128 * 1024;

/** Whether the body goes gzipped: over 128 KiB, to a client whose Accept-Encoding names gzip, unless the gate is off. */
function gzipWanted(request: FastifyRequest, size: number): boolean {
  if (size <= GZIP_ABOVE_BYTES || !request.server.responseCompression) return false;
  const accepted = request.headers['accept-encoding'];
  return typeof accepted === 'string' && accepted.split(',').some((token) => token.split(';')[0]!.trim() === 'gzip');
}

/** Upstream's gzip: level 1 (speed over size), Vary for caches; zlib works off the event loop. */
function sendGzipped(reply: FastifyReply, parts: Buffer[]): FastifyReply {
  reply.header('content-encoding', 'gzip').header('vary', 'Accept-Encoding').removeHeader('content-length');
  const gzip = createGzip({ level: 1 });
  writeParts(gzip, parts);
  return reply.send(gzip);
}

/** Past its deadline the client has had its 504: a late result is logged, not sent (upstream's post-timeout activity). */
const answeredAlready = (r: Responder): boolean => {
  if (!r.request.deadline?.expired || !r.reply.sent) return false;
  r.request.log.info({ url: r.request.url, method: r.request.method }, 'post-timeout activity');
  return true;
};

export function sendObject(r: Responder, result: Result, status = 200): FastifyReply {
  if (answeredAlready(r)) return r.reply;
  let format = negotiateOutput(r.request.headers.accept, false, speaksProtobuf(r.rt));
  setWarnings(r.reply, r.warnings);
  // a Status (a delete's success) is sent as itself, whatever view was asked for (upstream's transformObject)
  if (format.as && result.object.kind === 'Status') format = { ...format, as: undefined };
  if (format.as === 'Table') {
    const meta = { resourceVersion: result.object.metadata?.resourceVersion };
    const table = toTable(r.tableOf ?? r.rt, [result.object], meta, format, { includeObject: includeObjectOf(query(r.request).includeObject), now: r.now }, r.tableOf && r.rt);
    return encode(r, format, table, status);
  }
  if (format.encoding === 'protobuf') {
    const body = format.as === 'PartialObjectMetadata' ? protobufPartialObjectMetadata(result.object, format.asVersion) : protobufObject(result.object);
    return encode(r, format, body, status);
  }
  if (format.as === 'PartialObjectMetadata') return encode(r, format, partialObjectMetadata(result.object, format.asVersion), status);
  return encode(r, format, result.bytes ?? result.object, status);
}

export function sendList(r: Responder, items: KeyValue[], meta: ListMeta): FastifyReply {
  if (answeredAlready(r)) return r.reply;
  const format = negotiateOutput(r.request.headers.accept, true, speaksProtobuf(r.rt));
  setWarnings(r.reply, r.warnings);
  if (format.as === 'Table') {
    return encode(r, format, toTable(r.rt, items.map((kv) => kv.object), meta, format, { includeObject: includeObjectOf(query(r.request).includeObject), now: r.now }), 200);
  }
  if (format.encoding === 'protobuf') {
    if (format.as === 'PartialObjectMetadataList') {
      return encode(r, format, protobufPartialObjectMetadataList(items.map((kv) => kv.object), meta, format.asVersion), 200);
    }
    return sendParts(r, contentTypeOf(format), protobufStoredListParts(r.rt, items, meta));
  }
  if (format.as === 'PartialObjectMetadataList') {
    return encode(r, format, partialObjectMetadataList(items.map((kv) => kv.object), meta, format.asVersion), 200);
  }
  const listKind = `${r.rt.kind}List`;
  const apiVersion = r.rt.group ? `${r.rt.group}/${r.rt.version}` : r.rt.version;
  const builtin = speaksProtobuf(r.rt);
  if (format.encoding === 'yaml') {
    return encode(r, format, { apiVersion, items: items.map((kv) => (builtin ? withoutTypeMeta(kv.object) : kv.object)), kind: listKind, metadata: meta }, 200);
  }
  // The items are already JSON: splice their bytes into the list instead of re-serializing them.
  const head = Buffer.from(`{"kind":${JSON.stringify(listKind)},"apiVersion":${JSON.stringify(apiVersion)},"metadata":${JSON.stringify(meta)},"items":[`);
  return sendParts(r, 'application/json', listParts(head, items, builtin ? untypedItemBytes(r.rt) : undefined));
}

/**
 * A body made of buffers. Large ones go to the socket as it drains, copied a chunk at a time into buffers that are
 * reused (see writeParts), never into one body; the length is known, so HTTP/1.1 needs no chunked framing either.
 */
function sendParts(r: Responder, type: string, parts: Buffer[]): FastifyReply {
  const reply = r.reply.code(200).type(type);
  const size = parts.reduce((n, b) => n + b.length, 0);
  if (gzipWanted(r.request, size)) return sendGzipped(reply, parts);
  if (size <= STREAM_ABOVE_BYTES) return reply.send(Buffer.concat(parts, size));
  // Written here rather than piped by fastify: only the response's write callbacks say when a chunk can be reused.
  reply.header('content-length', size).hijack();
  reply.raw.writeHead(200, reply.getHeaders() as OutgoingHttpHeaders);
  writeParts(reply.raw, parts);
  return reply;
}

const COMMA = Buffer.from(',');
// with the newline Go's json.Encoder ends a body with (json-format.ts adds it to the others)
const CLOSE = Buffer.from(']}\n');
const STREAM_ABOVE_BYTES = 1 << 20;
/** The list's JSON as the buffers it is made of. */
function listParts(head: Buffer, items: KeyValue[], itemBytes?: (kv: KeyValue) => Buffer[]): Buffer[] {
  const parts: Buffer[] = [head];
  for (let i = 0; i < items.length; i++) {
    if (itemBytes) for (const b of itemBytes(items[i]!)) parts.push(b);
    else parts.push(items[i]!.bytes);
    parts.push(i + 1 < items.length ? COMMA : CLOSE);
  }
  if (items.length === 0) parts.push(CLOSE);
  return parts;
}

/** How much of a body one write carries: each write costs the stream and the socket a call of their own. */
const CHUNK_BYTES = 64 * 1024;
/** Chunks kept for the next large bodies (2 MiB): more are in flight only while a slow client holds several. */
const SPARES_KEPT = 32;
const spareChunks: Buffer[] = [];

/**
 * How much of a large body may be written and not yet sent. 1 MiB rather than a stream's 16 KiB: the list of 10,000
 * pods (53 MB) went out in a median of 138-151 ms instead of 179-191 ms (A/B, 60 lists each, alternating).
 */
const AHEAD_BYTES = 1024 * 1024;

/** What writeParts writes to: a response (HTTP/1.1 or HTTP/2) or a gzip stream. */
interface PartsSink {
  readonly destroyed: boolean;
  write(chunk: Buffer, done: (err?: Error | null) => void): boolean;
  end(): unknown;
}

/**
 * Writes `parts` to `out`, up to AHEAD_BYTES ahead of what it has sent, then ends it. Small parts are copied into
 * chunks of 64 KiB, each taken back as a spare once its write has completed (the socket, or zlib, is done with it).
 * Fresh chunks would be as much new memory as the body (50 MB for 10,000 pods), and V8 counts that towards its next
 * full collection: one ran nearly every list, marking the whole watch cache, and took half the list's CPU.
 */
function writeParts(out: PartsSink, parts: Buffer[]): void {
  let next = 0;
  let unsent = 0;
  let waiting = false;
  const sent = (bytes: number, chunk?: Buffer): void => {
    unsent -= bytes;
    if (chunk && spareChunks.length < SPARES_KEPT) spareChunks.push(chunk);
    if (waiting && unsent <= AHEAD_BYTES / 2) {
      waiting = false;
      pump();
    }
  };
  const pump = (): void => {
    while (next < parts.length) {
      if (out.destroyed) return;
      if (unsent >= AHEAD_BYTES) {
        waiting = true;
        return;
      }
      const part = parts[next]!;
      if (part.length >= CHUNK_BYTES) {
        next++;
        unsent += part.length;
        out.write(part, () => sent(part.length));
        continue;
      }
      const chunk = spareChunks.pop() ?? Buffer.allocUnsafeSlow(CHUNK_BYTES);
      let size = 0;
      for (let p = parts[next]; p !== undefined && size + p.length <= CHUNK_BYTES; p = parts[++next]) {
        chunk.set(p, size);
        size += p.length;
      }
      unsent += size;
      out.write(chunk.subarray(0, size), () => sent(size, chunk));
    }
    out.end();
  };
  pump();
}

/** A Status of success (upstream's answer to a delete that removed an object of most kinds). */
export function successStatus(rt: ResourceType, obj: KubeObject): KubeObject {
  return {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success',
    details: { name: obj.metadata?.name, group: rt.group || undefined, kind: rt.plural, uid: obj.metadata?.uid },
  };
}
