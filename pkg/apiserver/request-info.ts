// Request info: what a URL and method mean in Kubernetes terms (upstream:
// apiserver/pkg/endpoints/request/requestinfo.go). Authorization, audit, admission and the handlers
// all read this, so it is worked out once, before anything else.

import { badRequest } from '../apimachinery/errors.js';

export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  /** get, list, watch, create, update, patch, delete, deletecollection; or the lower-case HTTP method for non-resource paths. */
  verb: string;
  apiPrefix: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  parts: string[];
  /** The path names a namespace (`/namespaces/<ns>/<resource>`), an empty one too: what a cluster-scoped resource has no route for. */
  namespaceInPath: boolean;
  /** Asked by the old /watch/ path, where upstream routes only GETs of what can be watched (its verb is watch whatever the method). */
  watchPath: boolean;
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

const VERB_BY_METHOD: Record<string, string> = {
  GET: 'get', HEAD: 'get', POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete',
};

/** The verb of a method on an object's path (a named one: never list, watch or deletecollection). */
export const objectVerb = (method: string): string => VERB_BY_METHOD[method] ?? method.toLowerCase();

/** `query` is the parsed query string; `watch=true` or a /watch/ path makes a watch. */
export function requestInfo(method: string, url: string, query: Record<string, unknown>): RequestInfo {
  const path = unescapePath(url.split('?')[0]!);
  // upstream's splitPath: outer slashes trimmed, an empty segment inside kept (its router then finds no route, or an
  // empty namespace or name: `/api/v1/namespaces//pods` lists pods in all namespaces, as upstream's does)
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  const segments = trimmed === '' ? [] : trimmed.split('/');
  const info: RequestInfo = {
    isResourceRequest: false, path, verb: method.toLowerCase(), apiPrefix: '', apiGroup: '', apiVersion: '',
    namespace: '', resource: '', subresource: '', name: '', parts: [], namespaceInPath: false, watchPath: false,
  };
  if (segments[0] !== 'api' && segments[0] !== 'apis') return info;
  info.apiPrefix = segments[0];
  let rest = segments.slice(1);
  if (info.apiPrefix === 'apis') {
    if (rest.length < 2) return info; // /apis, /apis/<group>: discovery
    info.apiGroup = rest[0]!;
    rest = rest.slice(1);
  } else if (rest.length < 1) {
    return info; // /api
  }
  info.apiVersion = rest[0]!;
  rest = rest.slice(1);
  if (rest.length === 0) return info; // /api/v1, /apis/g/v: discovery

  info.isResourceRequest = true;
  info.verb = objectVerb(method);
  if (rest[0] === 'watch') {
    info.watchPath = true;
    info.verb = 'watch';
    rest = rest.slice(1);
  }
  // /namespaces/<ns>/<resource>... except the namespaces resource itself (/namespaces/<name>[/status|/finalize]).
  if (rest[0] === 'namespaces' && rest.length > 1) {
    info.namespace = rest[1]!;
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2]!)) {
      rest = rest.slice(2);
      info.namespaceInPath = true;
    }
  }
  info.parts = rest;
  info.resource = rest[0] ?? '';
  info.name = rest[1] ?? '';
  info.subresource = rest[2] ?? '';

  // As upstream's: only a GET of no name is a list or a watch; a named one is a get, ?watch=true or not.
  if (!info.name) {
    if (info.verb === 'get') info.verb = isTrue(query.watch) ? 'watch' : 'list';
    else if (info.verb === 'delete') info.verb = 'deletecollection';
  }
  return info;
}

/** The path as Go's net/http gives it to upstream's request info (req.URL.Path): percent-escapes decoded (a client may send `system%3Anodes`). */
function unescapePath(raw: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    throw badRequest(`invalid URL escape in "${raw}"`);
  }
}

/** A query parameter's values, as url.Values holds them: none, one, or each of a repeated key. */
export const queryValues = (v: unknown): string[] => (v === undefined ? [] : ([] as unknown[]).concat(v).map(String));

/**
 * A query boolean as upstream's parameter codec converts it (Convert_Slice_string_To_bool): its first value counts,
 * and only "0" or "false" in any case is false, so `?watch`, `?watch=yes` and the Python client's "True" are true.
 */
export const isTrue = (v: unknown): boolean => {
  const [first] = queryValues(v);
  return first !== undefined && first !== '0' && first.toLowerCase() !== 'false';
};

const INT64_MAX = 2n ** 63n - 1n;

/**
 * An integer query parameter as upstream's parameter codec converts it (Convert_Slice_string_To_int64): its first
 * value, trimmed; blank is unset; what strconv.ParseInt refuses is a 400 BadRequest worded as its error.
 */
export function int64Param(v: unknown): number | undefined {
  const first: unknown = Array.isArray(v) ? v[0] : v;
  if (first === undefined) return undefined;
  const s = String(first).trim();
  if (s === '') return undefined;
  if (!/^[+-]?\d+$/.test(s)) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(s)}: invalid syntax`);
  const n = BigInt(s);
  if (n > INT64_MAX || n < -INT64_MAX - 1n) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(s)}: value out of range`);
  return Number(n);
}
