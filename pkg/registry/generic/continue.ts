// The continue token of a paged list: base64 JSON, as upstream encodes it, holding the revision of
// the first page and the key after which the next page starts.
import { badRequest } from '../../apimachinery/errors.js';

export interface ContinueToken {
  resourceVersion: number;
  startKey: string;
}

export const encodeContinue = (t: ContinueToken): string =>
  Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: t.resourceVersion, start: t.startKey })).toString('base64url');

export function decodeContinue(s: string): ContinueToken {
  try {
    const raw = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as { v?: string; rv?: number; start?: string };
    if (raw.v !== 'meta.k8s.io/v1' || typeof raw.rv !== 'number' || typeof raw.start !== 'string') throw new Error('bad token');
    return { resourceVersion: raw.rv, startKey: raw.start };
  } catch {
    throw badRequest('continue key is not valid: the token is malformed');
  }
}
