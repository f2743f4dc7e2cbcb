// `application/vnd.kubernetes.protobuf` responses, as upstream's protobuf serializer writes them:
// one object in the `k8s\0` envelope (runtime.Unknown), a list as its XxxList message (ListMeta=1,
// items=2) in the envelope, and watch events as metav1.WatchEvent {type=1, object=2
// (RawExtension {raw=1}: the enveloped object)} without an envelope of their own, each preceded by
// its length in 4 big-endian bytes (upstream's raw stream serializer and LengthDelimitedFramer).
//
// An object's message is encoded once and kept beside it (stored objects are shared and never
// mutated), so a get and every watcher of an event reuse the same bytes; a stored object's message, framed as
// a list item, is kept beside its KeyValue for as long as the watch cache holds it, so a list copies nothing.
import type { FastifyRequest } from 'fastify';
import type { KubeObject, ResourceType } from '../../api/types.js';
import { findResource } from '../../api/index.js';
import { protoFields } from '../../api/proto/index.js';
import { internalError } from '../apimachinery/errors.js';
import {
  builtinProtoSchemas, definitionOfKind, encodeMessage, ENVELOPE_TAIL, envelopeHead, PROTOBUF_MEDIA_TYPE, ProtobufError, writeMessage,
} from '../apimachinery/protobuf/index.js';
import { Sink, varintSize } from '../apimachinery/protobuf/sink.js';
import type { KeyValue, StoreEvent } from '../storage/interface.js';
import { negotiateOutput } from './negotiation.js';
import type { ListMeta } from './transform.js';

export const PROTOBUF_WATCH_MEDIA_TYPE = `${PROTOBUF_MEDIA_TYPE};stream=watch`;

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const OBJECT_META = `${META}ObjectMeta`;
const LIST_META = `${META}ListMeta`;

const apiVersionOf = (rt: ResourceType): string => (rt.group ? `${rt.group}/${rt.version}` : rt.version);

/**
 * Whether the endpoint of `rt` answers in protobuf: built-in kinds with a field table; custom
 * resources never, nor their subresources (whose `rt` keeps the custom resource's definition).
 */
export const speaksProtobuf = (rt: ResourceType): boolean => protoFields[rt.definition] !== undefined;

const messages = new WeakMap<object, Buffer>();
const metadataMessages = new WeakMap<object, Buffer>();

function encode(obj: Record<string, unknown>, definition: string): Buffer {
  try {
    return encodeMessage(obj, definition, builtinProtoSchemas);
  } catch (err) {
    // Our own stored objects failed to encode: a bug, not the client's fault.
    if (err instanceof ProtobufError) throw internalError(`protobuf encoding of ${definition}: ${err.message}`);
    throw err;
  }
}

function definitionOf(obj: KubeObject): string {
  const definition = definitionOfKind(obj.apiVersion ?? '', obj.kind ?? '');
  if (!definition) throw internalError(`no protobuf encoding for ${obj.apiVersion}, Kind=${obj.kind}`);
  return definition;
}

/** The message of a built-in object (no envelope), cached beside the object. */
function messageOf(obj: KubeObject): Buffer {
  let m = messages.get(obj);
  if (!m) {
    m = encode(obj, definitionOf(obj));
    messages.set(obj, m);
  }
  return m;
}

/** PartialObjectMetadata {metadata=1} of an object, cached beside it. */
function metadataMessageOf(obj: KubeObject): Buffer {
  let m = metadataMessages.get(obj);
  if (!m) {
    const meta = encode((obj.metadata ?? {}) as Record<string, unknown>, OBJECT_META);
    m = concatFields([[1, [meta]]]);
    metadataMessages.set(obj, m);
  }
  return m;
}

/** Length-delimited fields written once into one buffer: [field number, values] in order. */
function concatFields(fields: Array<[number, Buffer[]]>, head?: Buffer, tail?: Buffer): Buffer {
  let size = (head?.length ?? 0) + (tail?.length ?? 0);
  for (const [n, values] of fields) for (const v of values) size += varintSize(n * 8 + 2) + varintSize(v.length) + v.length;
  const s = new Sink(size);
  if (head) s.raw(head);
  for (const [n, values] of fields) {
    for (const v of values) {
      s.key(n * 8 + 2);
      s.bytes(v);
    }
  }
  if (tail) s.raw(tail);
  return s.buf.subarray(0, s.pos);
}

const sizeOfFields = (fields: Array<[number, Buffer[]]>): number =>
  fields.reduce((sum, [n, values]) => sum + values.reduce((t, v) => t + varintSize(n * 8 + 2) + varintSize(v.length) + v.length, 0), 0);

/** An enveloped message made of length-delimited fields, copied once into the response. */
function enveloped(apiVersion: string, kind: string, fields: Array<[number, Buffer[]]>): Buffer {
  return concatFields(fields, envelopeHead(apiVersion, kind, sizeOfFields(fields)), ENVELOPE_TAIL);
}

const wrap = (apiVersion: string, kind: string, message: Buffer): Buffer =>
  Buffer.concat([envelopeHead(apiVersion, kind, message.length), message, ENVELOPE_TAIL]);

/** One built-in object (or a Status) in the envelope. */
export const protobufObject = (obj: KubeObject): Buffer => wrap(obj.apiVersion ?? '', obj.kind ?? '', messageOf(obj));

export const protobufPartialObjectMetadata = (obj: KubeObject, version = 'v1'): Buffer =>
  wrap(`meta.k8s.io/${version}`, 'PartialObjectMetadata', metadataMessageOf(obj));

const ITEMS_KEY = 2 * 8 + 2;
const storedItems = new WeakMap<KeyValue, Buffer>();

const itemScratch = new Sink();

/**
 * A stored object's message framed as a list's items field (key, length, message), kept as long as its
 * KeyValue (the watch cache's entry) lives, so that a list is its stored items' bytes. Encoded once, straight
 * into its frame, from a parse of its own that dies young (the KeyValue's shared parse would be held until the
 * whole list is built): a message copied into a frame left both in one 8 KB pool slab, held by the frame.
 */
function storedItemOf(kv: KeyValue): Buffer {
  let item = storedItems.get(kv);
  if (!item) {
    const obj = JSON.parse(kv.bytes.toString('utf8')) as KubeObject;
    itemScratch.reset();
    itemScratch.key(ITEMS_KEY);
    const at = itemScratch.begin();
    try {
      writeMessage(itemScratch, obj, definitionOf(obj), builtinProtoSchemas);
    } catch (err) {
      if (err instanceof ProtobufError) throw internalError(`protobuf encoding of ${obj.apiVersion}, Kind=${obj.kind}: ${err.message}`);
      throw err;
    }
    itemScratch.end(at);
    item = itemScratch.copy();
    storedItems.set(kv, item);
  }
  return item;
}

/** XxxList {metadata=1, items=2} of stored objects, as the buffers it is made of (the items' are shared). */
export function protobufStoredListParts(rt: ResourceType, items: KeyValue[], meta: ListMeta): Buffer[] {
  const listMeta = concatFields([[1, [encode(meta as Record<string, unknown>, LIST_META)]]]);
  const parts = items.map(storedItemOf);
  const size = parts.reduce((n, b) => n + b.length, listMeta.length);
  return [envelopeHead(apiVersionOf(rt), `${rt.kind}List`, size), listMeta, ...parts, ENVELOPE_TAIL];
}

/** meta.k8s.io PartialObjectMetadataList: v1 {metadata=1, items=2}; v1beta1 {items=1, metadata=2} (upstream kept its pre-1.15 numbers). */
export function protobufPartialObjectMetadataList(items: KubeObject[], meta: ListMeta, version = 'v1'): Buffer {
  const listMeta: Buffer[] = [encode(meta as Record<string, unknown>, LIST_META)];
  const metas = items.map(metadataMessageOf);
  const fields: Array<[number, Buffer[]]> = version === 'v1beta1' ? [[1, metas], [2, listMeta]] : [[1, listMeta], [2, metas]];
  return enveloped(`meta.k8s.io/${version}`, 'PartialObjectMetadataList', fields);
}

/** A watch frame: the 4-byte length, then WatchEvent {type=1, object=2 {raw=1: the enveloped object}}. */
export function protobufWatchFrame(type: string, object: Buffer): Buffer {
  const fields: Array<[number, Buffer[]]> = [[1, [Buffer.from(type, 'utf8')]], [2, [concatFields([[1, [object]]])]]];
  const length = Buffer.alloc(4);
  length.writeUInt32BE(sizeOfFields(fields));
  return concatFields(fields, length);
}

/**
 * A Status for a failed request in protobuf, when the client asked for it of an endpoint that has it
 * (upstream's ErrorNegotiated); undefined means JSON.
 */
export function protobufStatus(request: FastifyRequest, status: KubeObject): Buffer | undefined {
  const info = request.info as typeof request.info | undefined;
  const rt = info?.isResourceRequest ? findResource(info.apiGroup, info.apiVersion, info.resource) : undefined;
  if (!rt || !request.headers.accept?.includes(PROTOBUF_MEDIA_TYPE)) return undefined;
  try {
    if (negotiateOutput(request.headers.accept, false, speaksProtobuf(rt)).encoding !== 'protobuf') return undefined;
    return protobufObject(status);
  } catch {
    return undefined; // nothing acceptable: the error goes out as JSON, as upstream's does
  }
}

/** The protobuf frame of a store event. */
export const protobufEventFrame = (ev: StoreEvent): Buffer => protobufWatchFrame(ev.type, protobufObject(ev.kv.object));
