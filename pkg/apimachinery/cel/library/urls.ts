// Kubernetes' URL library (upstream: apiserver/pkg/cel/library/urls.go): url() accepts what Go's
// url.ParseRequestURI accepts (an absolute URI or an absolute path); getScheme, getHost, getHostname, getPort,
// getEscapedPath, getQuery.
import { celFunc, celMethod, listType, mapType, type CelFunc } from '@bufbuild/cel';
import type { ReflectMessage } from '@bufbuild/protobuf/reflect';
import { BOOL, STRING, URL_TYPE } from './types.js';

interface Parsed {
  scheme: string;
  host: string;
  hostname: string;
  port: string;
  path: string;
  query: string;
}

function parseRequestURI(s: string): Parsed {
  const fail = (): never => { throw new Error(`URL parse error during conversion from string: parse ${JSON.stringify(s)}: invalid URI for request`); };
  if (s.startsWith('/')) {
    const u = new URL(s, 'http://placeholder');
    return { scheme: '', host: '', hostname: '', port: '', path: u.pathname, query: u.search.slice(1) };
  }
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(s);
  if (!m || /\s/.test(s)) fail();
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return fail();
  }
  // Go keeps the authority as written (no default-port stripping, no lower-casing beyond the scheme).
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(s)?.[1] ?? '';
  const host = authority.replace(/^.*@/, '');
  const bracket = /^\[([^\]]*)\](?::(\d*))?$/.exec(host);
  const hostname = bracket ? bracket[1]! : host.replace(/:\d*$/, '');
  const port = bracket ? bracket[2] ?? '' : /:(\d*)$/.exec(host)?.[1] ?? '';
  return { scheme: m![1]!.toLowerCase(), host, hostname, port, path: u.pathname === '/' && !/^[^:]+:\/\/[^/]*\//.test(s) ? '' : u.pathname, query: u.search.slice(1) };
}

const parsed = (v: ReflectMessage): Parsed => parseRequestURI(URL_TYPE.text(v));

function query(q: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [k, v] of new URLSearchParams(q)) out.set(k, [...(out.get(k) ?? []), v]);
  return out;
}

export const urlFuncs: CelFunc[] = [
  celFunc('url', [STRING], URL_TYPE.type, (s) => {
    parseRequestURI(s);
    return URL_TYPE.of(s);
  }),
  celFunc('isURL', [STRING], BOOL, (s) => {
    try {
      parseRequestURI(s);
      return true;
    } catch {
      return false;
    }
  }),
  celMethod('getScheme', URL_TYPE.type, [], STRING, function () { return parsed(this).scheme; }),
  celMethod('getHost', URL_TYPE.type, [], STRING, function () { return parsed(this).host; }),
  celMethod('getHostname', URL_TYPE.type, [], STRING, function () { return parsed(this).hostname; }),
  celMethod('getPort', URL_TYPE.type, [], STRING, function () { return parsed(this).port; }),
  celMethod('getEscapedPath', URL_TYPE.type, [], STRING, function () { return parsed(this).path; }),
  celMethod('getQuery', URL_TYPE.type, [], mapType(STRING, listType(STRING)), function () { return query(parsed(this).query); }),
];
