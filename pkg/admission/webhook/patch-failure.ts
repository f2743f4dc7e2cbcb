// A webhook's JSON patch as the library upstream's mutating dispatcher applies it with (gopkg.in/evanphx/json-patch.v4),
// whose error text the dispatcher answers as an internal error, e.g. "replace operation does not apply: doc is missing
// path: /spec/x/y: missing value". The operations are applied by pkg/apimachinery/patch; this finds the first that
// fails and words its failure.
import { applyJsonPatch } from '../../apimachinery/patch/json-patch.js';

const MISSING = 'missing value';
const INVALID_INDEX = 'invalid index referenced';

type Json = unknown;
type Container = Record<string, Json> | Json[];

const isContainer = (v: Json): v is Container => typeof v === 'object' && v !== null;
const decodeToken = (t: string): string => t.replace(/~1/g, '/').replace(/~0/g, '~');

/** Go's strconv.Atoi of a reference token, or the error's text. */
function atoi(key: string): number | string {
  return /^[+-]?\d+$/.test(key) ? Number(key) : `strconv.Atoi: parsing ${JSON.stringify(key)}: invalid syntax`;
}

/** The library's findObject: the container holding the path's last token and that token, or undefined. */
function findParent(doc: Json, path: string): { con: Container; key: string } | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let cur: Json = doc;
  for (const part of split.slice(1, -1).map(decodeToken)) {
    const next = childOf(cur as Container, part);
    if (typeof next === 'string' || !isContainer(next.value)) return undefined;
    cur = next.value;
  }
  return { con: cur as Container, key: decodeToken(split.at(-1)!) };
}

/** A container's member: an object's (undefined when absent) or an array's (an error's text when out of range). */
function childOf(con: Container, key: string): { value: Json } | string {
  if (!Array.isArray(con)) return { value: Object.hasOwn(con, key) ? con[key] : undefined };
  const idx = atoi(key);
  if (typeof idx === 'string') return idx;
  // negative indices count from the end, as the library allows (SupportNegativeIndices)
  const i = idx < 0 ? idx + con.length : idx;
  if (idx >= con.length || i < 0) return `Unable to access invalid index: ${idx}: ${INVALID_INDEX}`;
  return { value: con[i] };
}

/** Why adding at `key` of `con` fails, or undefined when it does not. */
function addError(con: Container, key: string): string | undefined {
  if (!Array.isArray(con) || key === '-') return undefined;
  const idx = atoi(key);
  if (typeof idx === 'string') return `value was not a proper array index: '${key}': ${idx}`;
  if (idx > con.length || idx < -(con.length + 1)) return `Unable to access invalid index: ${idx}: ${INVALID_INDEX}`;
  return undefined;
}

/** Why removing `key` of `con` fails, or undefined when it does not. */
function removeError(con: Container, key: string): string | undefined {
  if (!Array.isArray(con)) return Object.hasOwn(con, key) ? undefined : `Unable to remove nonexistent key: ${key}: ${MISSING}`;
  const got = childOf(con, key);
  return typeof got === 'string' ? got : undefined;
}

/** The library's error for one operation applied to `doc`. */
function operationError(doc: Json, op: Record<string, unknown>): string {
  const kind = typeof op.op === 'string' ? op.op : 'unknown';
  if (!['add', 'remove', 'replace', 'move', 'copy', 'test'].includes(kind)) return `Unexpected kind: ${kind}`;
  if (typeof op.path !== 'string') return `${kind} operation failed to decode path: ${MISSING}`;
  const path = op.path;
  const from = typeof op.from === 'string' ? op.from : undefined;
  const at = findParent(doc, path);
  switch (kind) {
    case 'add': {
      if (!at) return `add operation does not apply: doc is missing path: "${path}": ${MISSING}`;
      const why = addError(at.con, at.key);
      return why ? `error in add for path: '${path}': ${why}` : 'add operation failed';
    }
    case 'remove': {
      if (!at) return `remove operation does not apply: doc is missing path: "${path}": ${MISSING}`;
      const why = removeError(at.con, at.key);
      return why ? `error in remove for path: '${path}': ${why}` : 'remove operation failed';
    }
    case 'replace':
      if (!at) return `replace operation does not apply: doc is missing path: ${path}: ${MISSING}`;
      return `replace operation does not apply: doc is missing key: ${path}: ${MISSING}`;
    case 'test': {
      if (!at) return `test operation does not apply: is missing path: ${path}: ${MISSING}`;
      const got = childOf(at.con, at.key);
      return typeof got === 'string' ? `error in test for path: '${path}': ${got}` : `testing value ${path} failed: test failed`;
    }
    default: {
      // move and copy: the source first, then the destination
      if (from === undefined) return `${kind} operation failed to decode from: ${MISSING}`;
      const src = findParent(doc, from);
      if (!src) return `${kind} operation does not apply: doc is missing from path: ${from}: ${MISSING}`;
      const got = childOf(src.con, src.key);
      if (typeof got === 'string') return kind === 'move' ? `error in move for path: '${src.key}': ${got}` : `error in copy for from: '${from}': ${got}`;
      if (kind === 'move') {
        const why = removeError(src.con, src.key);
        if (why) return `error in move for path: '${src.key}': ${why}`;
      }
      if (!at) return `${kind} operation does not apply: doc is missing destination path: ${path}: ${MISSING}`;
      const why = addError(at.con, at.key);
      if (why) return kind === 'move' ? `error in move for path: '${path}': ${why}` : `error while adding value during copy: ${why}`;
      return `${kind} operation failed`;
    }
  }
}

/**
 * `ops` applied to `doc` as the library applies them (pkg/apimachinery/patch keeps its leniencies), or the error of the
 * first operation that does not apply.
 */
export function applyWebhookJsonPatch(doc: unknown, ops: unknown[]): { patched: unknown } | { error: string } {
  try {
    return { patched: applyJsonPatch(doc, ops) };
  } catch {
    // replayed one operation at a time to find the one that fails
  }
  let cur = doc;
  for (const raw of ops) {
    try {
      cur = applyJsonPatch(cur, [raw]);
    } catch {
      return { error: operationError(cur, (isContainer(raw) && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>) };
    }
  }
  return { patched: cur };
}
