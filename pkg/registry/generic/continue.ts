// The continue token of a paged list: base64url JSON, as upstream encodes it, holding the revision of
// the first page (every page is served at it) and the key after which the next page starts. A token
// with revision -1 continues at the latest state (what an expired token's 410 hands back).
import { badRequest, StatusError } from '../../apimachinery/errors.js';
import { goSyntaxError } from '../../apimachinery/go-json-syntax.js';

export interface ContinueToken {
  /** The snapshot every page is read at; -1 = the latest state. */
  resourceVersion: number;
  startKey: string;
}

export const encodeContinue = (t: ContinueToken): string =>
  Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: t.resourceVersion, start: t.startKey })).toString('base64url');

/** Go's base64.RawURLEncoding: only the URL alphabet, no padding, no lone last character. */
function rawUrlBase64(s: string): Buffer {
  const bad = /[^A-Za-z0-9_-]/.exec(s)?.index ?? (s.length % 4 === 1 ? s.length - 1 : -1);
  if (bad >= 0) throw badRequest(`invalid continue token: continue key is not valid: illegal base64 data at input byte ${bad}`);
  return Buffer.from(s, 'base64url');
}

export function decodeContinue(s: string): ContinueToken {
  let raw: { v?: string; rv?: number; start?: string };
  const bytes = rawUrlBase64(s);
  try {
    raw = JSON.parse(bytes.toString('utf8')) as typeof raw;
  } catch {
    // the token is ours, so only a client's own bytes get here: Go's scanner reads them byte by byte
    const why = goSyntaxError(bytes.toString('latin1')) ?? 'unexpected end of JSON input';
    throw badRequest(`invalid continue token: continue key is not valid: ${why}`);
  }
  if (raw === null || typeof raw !== 'object') throw badRequest('invalid continue token: continue key is not valid');
  if (raw.v !== 'meta.k8s.io/v1') throw badRequest(`invalid continue token: continue key is not valid: server does not recognize this encoded version ${raw.v ?? ''}`);
  if (typeof raw.rv !== 'number' || raw.rv === 0 || !Number.isSafeInteger(raw.rv) || raw.rv < -1) {
    throw badRequest('invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  if (typeof raw.start !== 'string' || raw.start === '') throw badRequest('invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)');
  return { resourceVersion: raw.rv, startKey: raw.start };
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
