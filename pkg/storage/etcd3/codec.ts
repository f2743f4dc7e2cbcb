// How mini-kube's objects sit in etcd: under --etcd-prefix (upstream's "/registry" by default) as JSON without
// metadata.resourceVersion, which is the etcd revision of the write and stamped back on read, as upstream's
// etcd3 versioner does. So `etcdctl get --prefix /registry/` shows the objects, and a restore keeps them valid.
import type { KubeObject } from '../../../api/types.js';
import type { KeyValue } from '../interface.js';
import { keyValueOf, stampKeyValue, storedCopy } from '../keyvalue.js';

/** The prefix every Store key starts with; --etcd-prefix replaces it in etcd. */
const STORE_ROOT = '/registry';

export interface KeySpace {
  /** The etcd key of a Store key. */
  toEtcd(key: string): Buffer;
  /** The Store key of an etcd key, or undefined when it is not ours. */
  fromEtcd(key: Buffer): string | undefined;
  /** The etcd range [key, rangeEnd) of every key under a Store prefix. */
  range(prefix: string): { key: Buffer; range_end: Buffer };
}

export function keySpace(etcdPrefix: string): KeySpace {
  const root = etcdPrefix.replace(/\/+$/, '');
  const toEtcd = (key: string): Buffer => {
    if (!key.startsWith(`${STORE_ROOT}/`)) throw new Error(`store key ${key} is not under ${STORE_ROOT}/`);
    return Buffer.from(root + key.slice(STORE_ROOT.length));
  };
  return {
    toEtcd,
    fromEtcd(key) {
      const text = key.toString();
      return text.startsWith(`${root}/`) ? STORE_ROOT + text.slice(root.length) : undefined;
    },
    range(prefix) {
      const key = toEtcd(prefix);
      return { key, range_end: prefixEnd(key) };
    },
  };
}

/** The smallest key greater than every key starting with `key` (etcd's "prefix + 1"). */
function prefixEnd(key: Buffer): Buffer {
  const end = Buffer.from(key);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] < 0xff) {
      end[i]++;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]);
}

/** The value written to etcd: the object without its resourceVersion (the revision says it). */
export function encodeValue(object: KubeObject): Buffer {
  if (object.metadata?.resourceVersion === undefined) return Buffer.from(JSON.stringify(object));
  const { resourceVersion: _, ...metadata } = object.metadata;
  return Buffer.from(JSON.stringify({ ...object, metadata }));
}

/** An etcd value as the Store's KeyValue, its resourceVersion the given revision. */
export function decodeValue(key: string, value: Buffer, modRevision: number, createRevision: number): KeyValue {
  let object: KubeObject;
  try {
    object = JSON.parse(value.toString()) as KubeObject;
  } catch {
    throw new Error(`etcd value of ${key} is not JSON: it was not written by mini-kube`);
  }
  // a copy: the value is a slice of the whole gRPC response
  if (object.metadata?.resourceVersion === String(modRevision)) return keyValueOf(key, storedCopy(value), modRevision, createRevision, object);
  return stampKeyValue(key, object, modRevision, createRevision);
}
