// Building the shared KeyValue of a write: stamp the revision into a shallow copy and serialize once.
import type { KubeObject } from '../../api/types.js';
import type { KeyValue } from './interface.js';

/** The stored form of `object` at `revision`: the input is not mutated, its metadata is copied shallowly. */
export function stampKeyValue(key: string, object: KubeObject, revision: number, createRevision: number): KeyValue {
  const stamped: KubeObject = { ...object, metadata: { ...object.metadata, resourceVersion: String(revision) } };
  return { key, object: stamped, bytes: Buffer.from(JSON.stringify(stamped)), modRevision: revision, createRevision };
}
