// Content negotiation: which representation the client accepts (JSON, YAML, protobuf, Table,
// PartialObjectMetadata) and how to read the body it sent.
import { parseYamlBody } from '../apimachinery/yaml.js';
import { badRequest, notAcceptable, StatusError, unsupportedMediaType, unsupportedPatchType } from '../apimachinery/errors.js';
import { floatLiterals, scanJson } from '../apimachinery/json-duplicates.js';
import { rememberFloatLiterals } from '../apimachinery/float-literals.js';
import { goSyntaxError } from '../apimachinery/go-json-syntax.js';
import { exceedsDepth, MAX_DEPTH } from '../apimachinery/nesting.js';
import { decodeProtobufObject, PROTOBUF_MEDIA_TYPE, ProtobufError } from '../apimachinery/protobuf/index.js';
import type { PatchType, RequestContext } from '../registry/context.js';
import { jsonPatchOpErrors } from '../registry/generic/strict-errors.js';

export type Transform = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

export interface OutputFormat {
  encoding: 'json' | 'yaml' | 'protobuf';
  /** The object is converted to this meta.k8s.io kind first. */
  as?: Transform;
  asVersion?: 'v1' | 'v1beta1';
}

type Encoding = OutputFormat['encoding'];

interface Clause {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
}

const MEDIA_TYPES: Record<Encoding, string> = { json: 'application/json', yaml: 'application/yaml', protobuf: PROTOBUF_MEDIA_TYPE };
/** Encodings with a watch stream form (upstream: a StreamSerializer). */
const STREAMS = new Set<Encoding>(['json', 'protobuf']);

/** The Accept header's clauses, best first: by q, then exact types before wildcards (goautoneg's order), else as sent. */
function parseAccept(header: string): Clause[] {
  const clauses: Clause[] = [];
  for (const part of header.split(',')) {
    const [range, ...rest] = part.trim().split(';');
    const [type, subtype] = (range ?? '').trim().toLowerCase().split('/');
    if (!type || (subtype === undefined && type !== '*')) continue;
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of rest) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const k = p.slice(0, eq).trim();
      const v = p.slice(eq + 1).trim();
      if (k === 'q') q = Number(v);
      else params[k] = v;
    }
    clauses.push({ type, subtype: subtype ?? '*', params, q: Number.isNaN(q) ? 0 : q });
  }
  const rank = (c: Clause): number => (c.type === '*' ? 2 : c.subtype === '*' ? 1 : 0);
  return clauses.sort((a, b) => b.q - a.q || rank(a) - rank(b));
}

/** What a clause's parameters ask of `encoding`; undefined when they cannot be served in it (upstream's acceptMediaTypeOptions). */
function acceptOptions(params: Record<string, string>, encoding: Encoding, listing: boolean): OutputFormat | undefined {
  if (params.stream !== undefined && (params.stream !== 'watch' || !STREAMS.has(encoding))) return undefined;
  const as = params.as;
  if (!as) return { encoding };
  if (params.g !== 'meta.k8s.io' || (params.v !== 'v1' && params.v !== 'v1beta1')) return undefined;
  // Table has no protobuf form (+protobuf=false upstream); PartialObjectMetadata(List) has.
  if (as === 'Table') return encoding === 'protobuf' ? undefined : { encoding, as, asVersion: params.v };
  if ((as === 'PartialObjectMetadata' && !listing) || (as === 'PartialObjectMetadataList' && listing)) return { encoding, as, asVersion: params.v };
  return undefined;
}

/**
 * The representation to answer in, negotiated as upstream does: the best Accept clause that one of
 * the endpoint's encodings (JSON, YAML, and protobuf when `protobuf` says the kind has one) can
 * serve. `listing` tells whether the response is a list (PartialObjectMetadataList) or one object.
 */
export function negotiateOutput(accept: string | undefined, listing: boolean, protobuf = false): OutputFormat {
  if (!accept) return { encoding: 'json' };
  const encodings: Encoding[] = protobuf ? ['json', 'yaml', 'protobuf'] : ['json', 'yaml'];
  for (const c of parseAccept(accept)) {
    if (c.q <= 0) continue; // q=0: "not acceptable"
    for (const encoding of encodings) {
      const [type, subtype] = MEDIA_TYPES[encoding].split('/');
      if (!(c.type === '*' || (c.type === type && (c.subtype === '*' || c.subtype === subtype)))) continue;
      const format = acceptOptions(c.params, encoding, listing);
      if (format) return format;
    }
  }
  throw notAcceptable(`only the following media types are accepted: ${encodings.map((e) => MEDIA_TYPES[e]).join(', ')}`);
}

export const contentTypeOf = (f: OutputFormat): string => MEDIA_TYPES[f.encoding];

const PATCH_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};
const NON_STRATEGIC = Object.keys(PATCH_TYPES).filter((t) => PATCH_TYPES[t] !== 'strategic').join(', ');

/**
 * A PATCH's type. One the resource does not take (`strategic` false: a custom resource's, on /status and /scale too,
 * as upstream's crdHandler hands PatchResource only json, merge and apply) is refused before the body is read.
 */
export function patchTypeOf(contentType: string | undefined, strategic = true): PatchType {
  const t = mediaType(contentType);
  const p = PATCH_TYPES[t];
  if (!p) throw unsupportedPatchType();
  if (p === 'strategic' && !strategic) throw new StatusError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${NON_STRATEGIC}`);
  return p;
}

const mediaType = (contentType: string | undefined): string => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

const VERSION_KIND_ERROR = "couldn't get version/kind; json parse error: ";
const TOO_DEEP = `${VERSION_KIND_ERROR}exceeded max depth of ${MAX_DEPTH}`;
/** The struct upstream's decoder reads a body's apiVersion and kind into first, as Go's %v prints its type. */
const FIND_KIND_TYPE = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/**
 * Parses a request body as JSON or YAML according to its Content-Type. With the request's `ctx` (a body to decode
 * as an object: create, update, patch), records how it was written and, with fieldValidation Strict or Warn, the
 * fields it repeats, which the parsers drop silently (the last value wins), for the registry to report with the
 * object's unknown fields (strict-errors.ts).
 */
/** Anything but whitespace (trim's set): a test, where trim would copy the whole body. */
const NOT_SPACE = /\S/;

/** A request's body; `patch`: a PATCH's, which may be of the patch types (and only a PATCH's may). */
export function decodeBody(body: Buffer | undefined, contentType: string | undefined, ctx?: RequestContext, patch = false): unknown {
  const type = mediaType(contentType);
  if (type === PROTOBUF_MEDIA_TYPE) return decodeProtobufBody(body);
  const text = body ? body.toString('utf8') : '';
  if (!NOT_SPACE.test(text)) throw badRequest('the body of the request was empty');
  const yaml = type === 'application/yaml' || type === 'application/apply-patch+yaml';
  if (!yaml && type !== 'application/json' && !(patch && PATCH_TYPES[type]) && type !== '') throw unsupportedMediaType();
  if (type === 'application/apply-patch+yaml' && !patch) throw unsupportedMediaType();
  const strict = ctx !== undefined && ctx.fieldValidation !== 'Ignore';
  if (ctx) ctx.bodyFormat = type === 'application/apply-patch+yaml' ? 'apply' : yaml ? 'yaml' : PATCH_TYPES[type] ? 'patch' : 'json';
  if (yaml) {
    if (exceedsDepth(text, true)) throw badRequest(TOO_DEEP);
    const { value, duplicates } = parsed(() => parseYamlBody(text, strict));
    if (duplicates.length > 0) ctx!.bodyErrors = { yaml: duplicates };
    return value;
  }
  const scan = scanJson(text, strict);
  if (scan?.tooDeep) throw badRequest(TOO_DEEP);
  const value = parsed(() => JSON.parse(text) as unknown, text);
  // for the decoder of a built-in kind, which refuses 2.0 for an integer field as Go's does (float-literals.ts)
  if (scan?.floats) rememberFloatLiterals(value, floatLiterals(text));
  if (!strict) return value;
  if (type === 'application/json-patch+json') {
    const ops = jsonPatchOpErrors(value, text, scan?.duplicates);
    if (ops.length > 0) ctx.bodyErrors = { patchOps: ops };
  } else if (scan?.duplicates) {
    ctx.bodyErrors = { duplicates: { ...scan.duplicates, text } };
  }
  return value;
}

/** `parse()`, or upstream's decode error: a JSON `text`'s in encoding/json's words, a YAML one's in the parser's. */
function parsed<T>(parse: () => T, json?: string): T {
  try {
    return parse();
  } catch (err) {
    const why = (json !== undefined ? goSyntaxError(json) : undefined) ?? (err instanceof Error ? err.message.split('\n')[0] : String(err));
    throw badRequest(`${VERSION_KIND_ERROR}${why}`);
  }
}

/**
 * A create's or an update's body, which must be an object of `kind`. What its decoder cannot read a kind from is
 * refused as upstream's transformDecodeError words it: "the object provided is unrecognized (must be of type
 * <kind>): <error> (<the body's start>)".
 */
export function decodeObjectBody(body: Buffer | undefined, contentType: string | undefined, ctx: RequestContext, kind: string): unknown {
  let value: unknown;
  try {
    value = decodeBody(body, contentType, ctx);
  } catch (err) {
    if (err instanceof StatusError && err.message.startsWith(VERSION_KIND_ERROR)) throw unrecognized(kind, err.message, body!);
    throw err;
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    const goType = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
    throw unrecognized(kind, `${VERSION_KIND_ERROR}json: cannot unmarshal ${goType} into Go value of type ${FIND_KIND_TYPE}`, body!);
  }
  return value;
}

const unrecognized = (kind: string, why: string, body: Buffer): StatusError =>
  badRequest(`the object provided is unrecognized (must be of type ${kind}): ${why} (${summarizeData(body, 30)})`);

/** upstream's summarizeData: a JSON object's first bytes as text, anything else's in hex. */
function summarizeData(data: Buffer, max: number): string {
  if (data.length === 0) return '<empty>';
  const head = data.subarray(0, max);
  const more = data.length > max ? ' ...' : '';
  return `${data[0] === 0x7b ? head.toString('utf8') : head.toString('hex')}${more}`;
}

/** A `application/vnd.kubernetes.protobuf` body of a built-in kind, read into its JSON object. */
function decodeProtobufBody(body: Buffer | undefined): unknown {
  if (!body || body.length === 0) throw badRequest('the body of the request was empty');
  try {
    return decodeProtobufObject(body);
  } catch (err) {
    if (err instanceof ProtobufError) throw badRequest(`couldn't decode the protobuf body: ${err.message}`);
    throw err;
  }
}
