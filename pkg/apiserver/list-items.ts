// The items of a built-in kind's list go without kind and apiVersion, as upstream's do (the list's own type
// meta names them; kubernetes/kubernetes#3030): clients that decode a list into typed items (the Python client,
// @kubernetes/client-node) see them unset, against a real cluster as here. Custom resources' items keep theirs,
// as upstream's unstructured lists do. Stored JSON begins with the two fields (decodeObject puts them first), so
// an item's bytes are its stored bytes past them, not a new serialization.
import type { KubeObject, ResourceType } from '../../api/types.js';
import { apiVersionOf } from '../../api/types.js';
import type { KeyValue } from '../storage/interface.js';

const OPEN = Buffer.from('{');

const prefixes = new WeakMap<ResourceType, Buffer[]>();

/** The stored JSON prefixes of an object of `rt`: both orders of the two fields (kind first; data written by earlier versions has apiVersion first), with the comma that follows. */
const prefixesOf = (rt: ResourceType): Buffer[] => {
  let p = prefixes.get(rt);
  if (!p) {
    const apiVersion = `"apiVersion":${JSON.stringify(apiVersionOf(rt.group, rt.version))}`;
    const kind = `"kind":${JSON.stringify(rt.kind)}`;
    prefixes.set(rt, (p = [Buffer.from(`{${kind},${apiVersion},`), Buffer.from(`{${apiVersion},${kind},`)]));
  }
  return p;
};

export function withoutTypeMeta(obj: KubeObject): KubeObject {
  const { apiVersion: _apiVersion, kind: _kind, ...rest } = obj;
  return rest as KubeObject;
}

/** Whether `b` begins with `p`: a loop, as Buffer#compare's argument checks cost more than these few bytes. */
const startsWith = (b: Buffer, p: Buffer): boolean => {
  if (b.length <= p.length) return false;
  for (let i = 0; i < p.length; i++) if (b[i] !== p[i]) return false;
  return true;
};

/** A function giving the JSON of a stored item without its kind and apiVersion, as one or two buffers. */
export function untypedItemBytes(rt: ResourceType): (kv: KeyValue) => Buffer[] {
  const known = prefixesOf(rt);
  return (kv) => {
    const b = kv.bytes;
    for (const p of known) if (startsWith(b, p)) return [OPEN, b.subarray(p.length)];
    return [Buffer.from(JSON.stringify(withoutTypeMeta(kv.object)))];
  };
}
