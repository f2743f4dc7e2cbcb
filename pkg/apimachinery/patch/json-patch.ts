// RFC 6902 JSON patch (application/json-patch+json) with upstream's status codes and wording:
// an undecodable patch is 400, too many operations 413, a patch that does not apply 422
// ("the server rejected our request due to an error in our request", as NewGenericServerResponse words it, with
// empty details as upstream's).
//
//   applyJsonPatch<T>(doc: T, patch: unknown): T    // patch = the decoded body; doc is not mutated
import fjp from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { badRequest, StatusError, tooLarge } from '../errors.js';
import { cloneJson } from '../json-clone.js';

const MAX_OPERATIONS = 10000;
const OPS = ['add', 'remove', 'replace', 'move', 'copy', 'test'];

/**
 * Upstream's NewGenericServerResponse(422, ..., isUnexpectedResponse false): empty details, and the library's own
 * words go nowhere (kubectl prints "The request is invalid: the server rejected our request due to an error in our
 * request"), however the operation failed.
 */
const unprocessable = (): StatusError => new StatusError(422, 'Invalid', 'the server rejected our request due to an error in our request', {});

const checkShape = (patch: unknown): Operation[] => {
  if (!Array.isArray(patch)) {
    const t = patch === null ? 'null' : typeof patch === 'object' ? 'object' : typeof patch;
    throw badRequest(`json: cannot unmarshal ${t} into Go value of type jsonpatch.Patch`);
  }
  if (patch.length > MAX_OPERATIONS) {
    throw tooLarge(`Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_OPERATIONS}, got ${patch.length}`);
  }
  return patch.map((raw: unknown) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw badRequest('json: cannot unmarshal into Go value of type jsonpatch.Operation');
    const op = raw as Record<string, unknown>;
    if (typeof op.op !== 'string' || !OPS.includes(op.op)) throw unprocessable();
    if (typeof op.path !== 'string') throw unprocessable();
    // evanphx treats an absent value as null
    if (['add', 'replace', 'test'].includes(op.op) && !('value' in op)) return { ...op, value: null } as unknown as Operation;
    return op as unknown as Operation;
  });
};

/** A JSON pointer's token as the key it names. */
export const unescapeToken = (t: string): string => t.replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * evanphx/json-patch v4 (upstream's) replaces a key an object lacks by setting it, as an add: only a missing parent,
 * or an array index out of range, fails. fast-json-patch follows RFC 6902 there, so such a replace goes as an add.
 */
function asEvanphxReplace(doc: unknown, op: Operation): Operation {
  if (op.op !== 'replace' || op.path === '') return op;
  const tokens = op.path.split('/').slice(1).map(unescapeToken);
  let parent: unknown = doc;
  for (const t of tokens.slice(0, -1)) {
    if (typeof parent !== 'object' || parent === null || !Object.hasOwn(parent, t)) return op;
    parent = (parent as Record<string, unknown>)[t];
  }
  const key = tokens.at(-1)!;
  const missingKey = typeof parent === 'object' && parent !== null && !Array.isArray(parent) && !Object.hasOwn(parent, key);
  return missingKey ? { ...op, op: 'add' } : op;
}

export const applyJsonPatch = <T>(doc: T, patch: unknown): T => {
  const ops = checkShape(patch);
  const copy = cloneJson(doc);
  let result: T = copy;
  ops.forEach((op, i) => {
    // a value moved under itself: evanphx removes it first, then finds no parent to add it to
    if (op.op === 'move' && op.path.startsWith(`${op.from}/`)) throw unprocessable();
    try {
      result = fjp.applyOperation(result, asEvanphxReplace(result, op), true, true, true, i).newDocument;
    } catch {
      // whatever the library trips on is the patch's fault, never the server's
      throw unprocessable();
    }
  });
  return result;
};
