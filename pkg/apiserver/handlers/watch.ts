// Watch over HTTP: a chunked stream of JSON lines {"type","object"}, or of length-prefixed protobuf
// WatchEvents (protobuf-response.ts). The plain frame of each store event is built once and written
// to every watcher; a watcher whose connection cannot take more is closed rather than buffered
// without bound (the client re-lists).
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KubeObject } from '../../../api/types.js';
import { badRequest, isStatusError, StatusError } from '../../apimachinery/errors.js';
import { escapeFieldValue, parseFieldSelector } from '../../apimachinery/fields.js';
import { setLongTimeout, type LongTimeout } from '../../apimachinery/long-timeout.js';
import type { StoreEvent } from '../../storage/interface.js';
import type { RequestContext, WatchOptions } from '../../registry/context.js';
import type { Registry } from '../../registry/generic/registry.js';
import { negotiateOutput, type OutputFormat } from '../negotiation.js';
import { setWarnings } from '../respond.js';
import { PROTOBUF_WATCH_MEDIA_TYPE, protobufEventFrame, protobufObject, protobufPartialObjectMetadata, protobufWatchFrame, speaksProtobuf } from '../protobuf-response.js';
import { includeObjectOf, partialObjectMetadata, toTable } from '../transform.js';
import { bookmarkJson } from './watch-bookmark.js';

/** Bytes a watcher may have queued unsent before it is cut off. */
const MAX_BUFFERED = 8 * 1024 * 1024;
/** Bookmarks are sent about this often when asked for (upstream: about once a minute). */
const BOOKMARK_INTERVAL_MS = 60_000;
/** How long a watch-list from a resourceVersion the cache has not seen yet waits for it. */
const FUTURE_RV_WAIT_MS = 3_000;
/** The last bookmark is sent this long before the watch's deadline. */
const PRE_TIMEOUT_BOOKMARK_S = 2;

/**
 * A frame per event shared by its watchers: a write is dispatched to them one after the other, so the last event's
 * frame is the one kept. Kept no longer: a frame kept for as long as its event (the store's and the caches' history,
 * up to 20,000 revisions) held a second copy of every object there, in a slice of an 8 KB pool slab.
 */
const sharedFrames = (frame: (ev: StoreEvent) => Buffer): ((ev: StoreEvent) => Buffer) => {
  let last: { ev: StoreEvent; frame: Buffer } | undefined;
  return (ev) => {
    if (last?.ev !== ev) last = { ev, frame: frame(ev) };
    return last.frame;
  };
};

/** The plain JSON frame of an event, shared by all watchers of it. */
const jsonFrame = sharedFrames((ev) => Buffer.concat([Buffer.from(`{"type":"${ev.type}","object":`), ev.kv.bytes, Buffer.from('}\n')]));
const protobufFrame = sharedFrames(protobufEventFrame);

/**
 * The field selector of a watch of one name (the /watch/ path's): that name's, or the client's own when it asks for
 * exactly that name; any other is refused, as upstream's ListResource refuses it.
 */
function namedWatchSelector(fieldSelector: string | undefined, name: string): string {
  const selector = parseFieldSelector(fieldSelector ?? '');
  if (selector.empty) return `metadata.name=${escapeFieldValue(name)}`;
  if (selector.requiresExactMatch('metadata.name') !== name) throw badRequest("fieldSelector metadata.name doesn't match requested name");
  return fieldSelector!;
}

export async function serveWatch(reg: Registry, ctx: RequestContext, request: FastifyRequest, reply: FastifyReply, opts: WatchOptions, name: string, timeoutSeconds: number | undefined): Promise<void> {
  const format = negotiateOutput(request.headers.accept, false, speaksProtobuf(reg.rt));
  const protobuf = format.encoding === 'protobuf';
  if (format.encoding === 'yaml') throw badRequest('watch is not supported in YAML; ask for application/json');
  const includeObject = includeObjectOf((request.query as Record<string, string>).includeObject);
  // None (or 0) is upstream's default: a random length between the minimum request timeout and twice that; a
  // negative one ends the watch at once (upstream's timer fires at once).
  let timeoutS = timeoutSeconds ?? 0;
  if (timeoutS === 0) timeoutS = request.server.minRequestTimeoutSeconds * (1 + Math.random());
  if (name) opts = { ...opts, fieldSelector: namedWatchSelector(opts.fieldSelector, name) };

  const res = reply.raw;
  let headersSent = false;
  let closed = false;
  let tableHeaderSent = false;
  const timers: LongTimeout[] = [];
  let unsubscribe: (() => void) | undefined;

  const finish = (): void => {
    if (closed) return;
    closed = true;
    timers.forEach((t) => t.cancel());
    unsubscribe?.();
    if (!res.writableEnded && !res.destroyed) res.end();
  };
  const start = (): void => {
    if (headersSent) return;
    headersSent = true;
    // the chain's headers (Audit-Id, flow control's) and the request's warnings (a deprecated version's) go out too
    setWarnings(reply, ctx.warnings);
    const headers = Object.fromEntries(Object.entries(reply.getHeaders()).filter(([, v]) => v !== undefined)) as OutgoingHttpHeaders;
    reply.hijack();
    // HTTP/1.1 chunks on its own when no length is set; HTTP/2 frames by itself.
    res.writeHead(200, { ...headers, 'content-type': protobuf ? PROTOBUF_WATCH_MEDIA_TYPE : 'application/json', 'cache-control': 'no-cache, private' });
    // HTTP/1.1 holds headers back until the first write: send them now, as a client waits for them before any event.
    res.flushHeaders();
  };
  let corked = false;
  const write = (buf: Buffer | string): void => {
    if (closed) return;
    start();
    // events of one commit arrive in one tick: one socket write (one TLS record run) for all of them; what the
    // socket could not take is judged once flushed (corked, a large commit alone would look like a slow client)
    if (!corked && typeof res.cork === 'function') {
      corked = true;
      res.cork();
      process.nextTick(() => {
        corked = false;
        res.uncork();
        if (res.writableLength > MAX_BUFFERED) finish(); // too slow: cut off, the client re-lists
      });
    }
    res.write(buf);
    if (!corked && res.writableLength > MAX_BUFFERED) finish();
  };
  const encodeEvent = (type: string, obj: KubeObject): Buffer | string => {
    if (protobuf) {
      return protobufWatchFrame(type, format.as === 'PartialObjectMetadata' ? protobufPartialObjectMetadata(obj, format.asVersion) : protobufObject(obj));
    }
    let body: KubeObject = obj;
    if (format.as === 'Table') {
      body = toTable(reg.rt, [obj], { resourceVersion: obj.metadata?.resourceVersion }, format as OutputFormat, { includeObject, noHeaders: tableHeaderSent, now: new Date() });
      tableHeaderSent = true;
    } else if (format.as === 'PartialObjectMetadata') {
      body = partialObjectMetadata(obj, format.asVersion);
    }
    return `{"type":"${type}","object":${JSON.stringify(body)}}\n`;
  };
  const bookmark = (revision: number, annotations?: Record<string, string>): void => {
    // a custom resource's decoder is its own (structural pruning and defaulting)
    const text = bookmarkJson(reg.rt, reg.deps.decoder.decode !== undefined, revision, annotations);
    // A transformed watch transforms bookmarks too, as upstream's embedded encoder does every event: a
    // metadata-only watcher decodes nothing but PartialObjectMetadata, and a Table watcher gets the zero object's row.
    if (protobuf || format.as) write(encodeEvent('BOOKMARK', JSON.parse(text) as KubeObject));
    else write(`{"type":"BOOKMARK","object":${text}}\n`);
  };

  // A Status is never transformed (Table, PartialObjectMetadata).
  const errorEvent = (status: KubeObject): Buffer | string =>
    (protobuf ? protobufWatchFrame('ERROR', protobufObject(status)) : `{"type":"ERROR","object":${JSON.stringify(status)}}\n`);

  // A resourceVersion the cache has not reached yet: wait for it a little, as upstream's cacher does (3 s),
  // then report it as too large in the stream.
  res.on('close', finish);
  request.raw.on('close', finish);
  const rv = Number(opts.resourceVersion);
  // only a watch-list waits for a revision the cache has not seen (upstream's waitUntilWatchCacheFreshAndForceAllEvents);
  // a plain watch from one is silent until the store passes it, and then sends what follows
  if (opts.sendInitialEvents && opts.resourceVersion && /^\d+$/.test(opts.resourceVersion) && rv > reg.deps.cacher.revision()) {
    try {
      await reg.deps.cacher.waitUntilFresh(rv, AbortSignal.timeout(FUTURE_RV_WAIT_MS));
      if (closed) return; // the client went away meanwhile
    } catch {
      const current = reg.deps.cacher.revision();
      const status = new StatusError(504, 'Timeout', `Too large resource version: ${rv}, current: ${current}`, { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 });
      write(errorEvent(status.toStatus()));
      finish();
      return;
    }
  }
  // a watch from no revision (or 0) starts at the cache's newest, as upstream's cache watcher is given it
  const watchedFrom = reg.deps.cacher.revision();
  try {
    unsubscribe = reg.watch(ctx, opts, {
      onEvent: (ev) => {
        if (format.as) write(encodeEvent(ev.type, ev.kv.object));
        else write(protobuf ? protobufFrame(ev) : jsonFrame(ev));
      },
      onClose: () => finish(),
      // The initial state (sent in a step after watch() returns) is complete: mark its end, as a watch-list
      // client (client-go's reflector with WatchListClient) waits for this bookmark.
      onInitialEventsEnd: (revision) => {
        if (opts.sendInitialEvents && opts.allowWatchBookmarks) bookmark(revision, { 'k8s.io/initial-events-end': 'true' });
      },
    });
  } catch (err) {
    // A revision too old to resume from is reported in the stream, as upstream's watch cache does.
    if (!(isStatusError(err) && err.code === 410)) throw err;
    write(errorEvent(err.toStatus()));
    finish();
    return;
  }
  start();
  if (opts.allowWatchBookmarks) {
    // Upstream's cache watcher sends a bookmark about every minute and one right before the watch times out,
    // 2 s before its deadline, so that the client resumes from the newest revision; only one past the revision the
    // watch started from (a watch from a revision the store has not reached would otherwise be sent an older one,
    // and a reflector would go back to it).
    const from = rv > 0 ? rv : watchedFrom;
    const periodic = (): void => {
      const revision = reg.deps.cacher.revision();
      if (revision > from) bookmark(revision);
    };
    const interval = setInterval(periodic, BOOKMARK_INTERVAL_MS);
    timers.push({ cancel: () => clearInterval(interval) });
    if (timeoutS > PRE_TIMEOUT_BOOKMARK_S) timers.push(setLongTimeout(periodic, (timeoutS - PRE_TIMEOUT_BOOKMARK_S) * 1000));
  }
  // a timeout of months is kept, not cut to setTimeout's longest (which fires at once)
  timers.push(setLongTimeout(finish, timeoutS * 1000));
}
