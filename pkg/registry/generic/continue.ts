// The continue token of a paged list, as upstream's storage.EncodeContinue writes it: base64url JSON holding the
// revision of the first page (every page is served at it) and the key the next page starts at (the last item's key
// and a NUL), relative to the list's key prefix, so a token is not tied to the list it came from. A token with
// revision -1 (any negative one) continues at the latest state (what an expired token's 410 hands back).
import { badRequest, StatusError } from '../../apimachinery/errors.js';
import { goSyntaxError } from '../../apimachinery/go-json-syntax.js';
import { jsonValueKind } from '../schema/go-types.js';

export interface ContinueToken {
  /** The snapshot every page is read at; negative: the latest state. */
  resourceVersion: number;
  /** The absolute key the page starts at (inclusive). */
  startKey: string;
}

/** Go's json.Marshal of a string: HTML-safe, <, > and & escaped, and the line and paragraph separators. */
const goJsonString = (s: string): string =>
  JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** EncodeContinue: the token of a list under `keyPrefix` starting at `key`. */
export const encodeContinue = (resourceVersion: number, key: string, keyPrefix: string): string =>
  Buffer.from(`{"v":"meta.k8s.io/v1","rv":${resourceVersion},"start":${goJsonString(key.slice(keyPrefix.length))}}`).toString('base64url');

const invalid = (why?: string): StatusError => badRequest(`invalid continue token: continue key is not valid${why === undefined ? '' : `: ${why}`}`);

/** Go's base64.RawURLEncoding: only the URL alphabet, no padding, no lone last character. */
function rawUrlBase64(s: string): Buffer {
  const bad = /[^A-Za-z0-9_-]/.exec(s)?.index ?? (s.length % 4 === 1 ? s.length - 1 : -1);
  if (bad >= 0) throw invalid(`illegal base64 data at input byte ${bad}`);
  return Buffer.from(s, 'base64url');
}

/** Go's path.Clean of a rooted path. */
function cleanRooted(p: string): string {
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return `/${out.join('/')}`;
}

const FIELDS = { v: 'string', rv: 'int64', start: 'string' } as const;

/**
 * json.Unmarshal of the token into continueToken{v, rv, start}: field names matched in any case, unknown ones
 * ignored, a null leaving the zero value, the first type error reported once the whole text is read.
 */
function unmarshalToken(raw: unknown): { v: string; rv: number; start: string } {
  const out = { v: '', rv: 0, start: '' };
  if (raw === null) return out;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw invalid(`json: cannot unmarshal ${jsonValueKind(raw, '')} into Go value of type storage.continueToken`);
  let typeError: string | undefined;
  for (const [key, value] of Object.entries(raw)) {
    const field = key in FIELDS ? key as keyof typeof FIELDS : (Object.keys(FIELDS) as (keyof typeof FIELDS)[]).find((f) => f === key.toLowerCase());
    if (!field || value === null) continue;
    const type = FIELDS[field];
    const fits = type === 'string' ? typeof value === 'string' : typeof value === 'number' && Number.isInteger(value) && Math.abs(value) < 2 ** 63;
    if (fits) (out as Record<string, unknown>)[field] = value;
    else typeError ??= `json: cannot unmarshal ${jsonValueKind(value, type)} into Go struct field continueToken.${field} of type ${type}`;
  }
  if (typeError) throw invalid(typeError);
  return out;
}

/**
 * DecodeContinue: the token's revision and the absolute key it starts at under `keyPrefix` (the list's, with its
 * slash). A token this server issued before tokens were relative holds the absolute key of the last item listed,
 * and still continues its own list.
 */
export function decodeContinue(s: string, keyPrefix: string): ContinueToken {
  const bytes = rawUrlBase64(s);
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch {
    // the token is ours, so only a client's own bytes get here: Go's scanner reads them byte by byte
    throw invalid(goSyntaxError(bytes.toString('latin1')) ?? 'unexpected end of JSON input');
  }
  const c = unmarshalToken(raw);
  if (c.v !== 'meta.k8s.io/v1') throw invalid(`server does not recognize this encoded version ${c.v}`);
  if (c.rv === 0) throw invalid('incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (c.start === '') throw invalid('encoded start key empty (version meta.k8s.io/v1)');
  if (c.start.startsWith(keyPrefix)) return { resourceVersion: c.rv, startKey: `${c.start}\0` };
  // a start key cannot climb above the list's prefix (path.Clean must leave it as it is)
  const key = c.start.startsWith('/') ? c.start : `/${c.start}`;
  if (cleanRooted(key) !== key) throw invalid(c.start);
  return { resourceVersion: c.rv, startKey: keyPrefix + key.slice(1) };
}

/** Upstream's wording when the snapshot of a continue token has been compacted away. */
const INCONSISTENT_CONTINUE = 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** 410 Expired whose Status carries a token that continues the same list at the latest state (upstream etcd3's answer). */
export class ExpiredContinue extends StatusError {
  constructor(readonly continueToken: string) {
    super(410, 'Expired', INCONSISTENT_CONTINUE);
  }

  override toStatus(): ReturnType<StatusError['toStatus']> {
    return { ...super.toStatus(), metadata: { continue: this.continueToken } };
  }
}
