// RFC 6902 JSON patch (application/json-patch+json) with upstream's status codes and wording:
// an undecodable patch is 400, too many operations 413, a patch that does not apply 422
// ("the server rejected our request due to an error in our request", as NewGenericServerResponse words it;
// the evanphx/json-patch message is kept as the cause so that it is not lost).
//
//   applyJsonPatch<T>(doc: T, patch: unknown): T    // patch = the decoded body; doc is not mutated
import fjp from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { badRequest, StatusError, tooLarge } from '../errors.js';
import { cloneJson } from '../json-clone.js';

const MAX_OPERATIONS = 10000;
const OPS = ['add', 'remove', 'replace', 'move', 'copy', 'test'];

const unprocessable = (detail: string): StatusError =>
  new StatusError(422, 'Invalid', 'the server rejected our request due to an error in our request', { causes: [{ message: detail }] });

const lastSegment = (path: string): string => (path.split('/').pop() ?? '').replace(/~1/g, '/').replace(/~0/g, '~');

/** evanphx/json-patch v4's message for each failure fast-json-patch reports. */
const describe = (name: string, op: Operation): string => {
  const path = op.path;
  const from = 'from' in op ? op.from : '';
  switch (name) {
    case 'TEST_OPERATION_FAILED':
      return `testing value ${path} failed: test failed`;
    case 'OPERATION_PATH_CANNOT_ADD':
      return `add operation does not apply: doc is missing path: "${path}": missing value`;
    case 'OPERATION_FROM_UNRESOLVABLE':
      return `${op.op} operation does not apply: doc is missing from path: ${from}: missing value`;
    case 'OPERATION_VALUE_OUT_OF_BOUNDS':
    case 'OPERATION_PATH_ILLEGAL_ARRAY_INDEX':
      return `error in ${op.op} for path: '${path}': Unable to access invalid index: ${lastSegment(path)}: invalid index referenced`;
    case 'OPERATION_FROM_REQUIRED':
      return `${op.op} operation does not apply: missing from field: missing value`;
    case 'OPERATION_PATH_INVALID':
    case 'OPERATION_PATH_UNRESOLVABLE':
      if (op.op === 'remove') return `error in remove for path: '${path}': Unable to remove nonexistent key: ${lastSegment(path)}: missing value`;
      if (op.op === 'replace') return `replace operation does not apply: doc is missing key: ${path}: missing value`;
      if (op.op === 'test') return `test operation does not apply: is missing path: ${path}: missing value`;
      return `${op.op} operation does not apply: doc is missing path: ${path}: missing value`;
    default:
      return name;
  }
};

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
    if (typeof op.op !== 'string' || !OPS.includes(op.op)) throw unprocessable(`Unexpected kind: ${String(op.op ?? '')}: unknown object type`);
    if (typeof op.path !== 'string') throw unprocessable(`${op.op} operation does not apply: doc is missing path: : missing value`);
    // evanphx treats an absent value as null
    if (['add', 'replace', 'test'].includes(op.op) && !('value' in op)) return { ...op, value: null } as unknown as Operation;
    return op as unknown as Operation;
  });
};

export const applyJsonPatch = <T>(doc: T, patch: unknown): T => {
  const ops = checkShape(patch);
  const copy = cloneJson(doc);
  let result: T = copy;
  ops.forEach((op, i) => {
    // a value moved under itself: evanphx removes it first, then finds no parent to add it to
    if (op.op === 'move' && op.path.startsWith(`${op.from}/`)) {
      throw unprocessable(`move operation does not apply: doc is missing destination path: ${op.path}: missing value`);
    }
    try {
      result = fjp.applyOperation(result, op, true, true, true, i).newDocument;
    } catch (e) {
      if (e instanceof fjp.JsonPatchError) throw unprocessable(describe(e.name, op));
      // anything else the library trips on is still the patch's fault, never the server's
      throw unprocessable(`${op.op} operation does not apply: ${(e as Error).message}`);
    }
  });
  return result;
};
