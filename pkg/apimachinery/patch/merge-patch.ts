// RFC 7386 JSON merge patch (application/merge-patch+json): objects merge key by key, null deletes,
// everything else (arrays included) replaces.
//
//   applyMergePatch<T>(doc: T, patch: unknown): T    // doc is not mutated; a non-object patch is 400
import { badRequest } from '../errors.js';
import { cloneJson } from '../json-clone.js';
import { getOwn, setOwn } from '../own-keys.js';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export const mergeObjects = (target: unknown, patch: Obj): Obj => {
  const out: Obj = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else if (isObject(v)) setOwn(out, k, mergeObjects(getOwn(out, k), v));
    else setOwn(out, k, typeof v === 'object' ? cloneJson(v) : v); // lists are copied, scalars need not be
  }
  return out;
};

export const applyMergePatch = <T>(doc: T, patch: unknown): T => {
  if (!isObject(patch)) throw badRequest('Invalid JSON Patch');
  return mergeObjects(doc, patch) as T;
};
