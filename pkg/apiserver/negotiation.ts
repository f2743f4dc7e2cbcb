// Content negotiation: which representation the client accepts (JSON, YAML, Table,
// PartialObjectMetadata) and how to read the body it sent.
import { parse as parseYaml } from 'yaml';
import { badRequest, notAcceptable, unsupportedMediaType } from '../apimachinery/errors.js';
import { decodeProtobufObject, PROTOBUF_MEDIA_TYPE, ProtobufError } from '../apimachinery/protobuf/index.js';
import type { PatchType } from '../registry/context.js';

export type Transform = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

export interface OutputFormat {
  encoding: 'json' | 'yaml';
  /** The object is converted to this meta.k8s.io kind first. */
  as?: Transform;
  asVersion?: 'v1' | 'v1beta1';
}

interface MediaRange {
  type: string;
  params: Record<string, string>;
}

function parseAccept(header: string | undefined): MediaRange[] {
  if (!header) return [{ type: '*/*', params: {} }];
  return header.split(',').map((part) => {
    const [type, ...rest] = part.trim().split(';');
    const params: Record<string, string> = {};
    for (const p of rest) {
      const [k, v] = p.split('=');
      if (k && v !== undefined) params[k.trim()] = v.trim();
    }
    return { type: (type ?? '').trim().toLowerCase(), params };
  }).filter((r) => r.type);
}

/**
 * The first acceptable representation in the client's order. `listing` tells whether the response
 * is a list (PartialObjectMetadataList) or one object.
 */
export function negotiateOutput(accept: string | undefined, listing: boolean): OutputFormat {
  for (const r of parseAccept(accept)) {
    const json = r.type === 'application/json' || r.type === '*/*' || r.type === 'application/*' || r.type === 'application/json;stream=watch';
    const yaml = r.type === 'application/yaml';
    if (!json && !yaml) continue;
    const as = r.params.as;
    if (!as) return { encoding: yaml ? 'yaml' : 'json' };
    if (r.params.g !== 'meta.k8s.io' || (r.params.v !== 'v1' && r.params.v !== 'v1beta1')) continue;
    const version = r.params.v;
    if (as === 'Table') return { encoding: yaml ? 'yaml' : 'json', as: 'Table', asVersion: version };
    if (as === 'PartialObjectMetadata' && !listing) return { encoding: yaml ? 'yaml' : 'json', as, asVersion: version };
    if (as === 'PartialObjectMetadataList' && listing) return { encoding: yaml ? 'yaml' : 'json', as, asVersion: version };
  }
  throw notAcceptable('only the following media types are accepted: application/json, application/yaml');
}

export const contentTypeOf = (f: OutputFormat): string => (f.encoding === 'yaml' ? 'application/yaml' : 'application/json');

const PATCH_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

export function patchTypeOf(contentType: string | undefined): PatchType {
  const t = mediaType(contentType);
  const p = PATCH_TYPES[t];
  if (!p) {
    throw unsupportedMediaType(t);
  }
  return p;
}

const mediaType = (contentType: string | undefined): string => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

/** Parses a request body as JSON or YAML according to its Content-Type; `what` names it in errors. */
export function decodeBody(body: Buffer | undefined, contentType: string | undefined): unknown {
  const type = mediaType(contentType);
  if (type === PROTOBUF_MEDIA_TYPE) return decodeProtobufBody(body);
  const text = body ? body.toString('utf8') : '';
  if (text.trim() === '') throw badRequest('the body of the request was empty');
  const yaml = type === 'application/yaml' || type === 'application/apply-patch+yaml';
  if (!yaml && type !== 'application/json' && !PATCH_TYPES[type] && type !== '') throw unsupportedMediaType(type);
  try {
    return yaml ? parseYaml(text, { strict: true, uniqueKeys: true }) : JSON.parse(text);
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw badRequest(`couldn't get version/kind; json parse error: ${why}`);
  }
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
