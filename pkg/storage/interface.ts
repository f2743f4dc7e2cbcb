// The Store: the apiserver's etcd. A dozen verbs over keys like
// "/registry/<group>/<resource>/<namespace>/<name>", one global revision, compare-and-swap writes,
// watch from any kept revision. Values are Kubernetes objects (plain JSON); the store stamps
// metadata.resourceVersion with the revision of the write, as upstream's etcd3 versioner does.
import type { KubeObject } from '../../api/types.js';

export interface KeyValue {
  key: string;
  /** The object, metadata.resourceVersion set to `modRevision`. Never mutate it: it is shared. */
  object: KubeObject;
  /** Its JSON encoding, serialized once at write time and shared by every reader and watcher. */
  bytes: Buffer;
  modRevision: number;
  createRevision: number;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  type: WatchEventType;
  key: string;
  revision: number;
  /** The object after the change; for DELETED the last state, with resourceVersion = the delete's revision. */
  kv: KeyValue;
  /** The state before a MODIFIED or DELETED (lets filters see objects leaving a selector). */
  prev?: KeyValue;
}

export interface ListResult {
  items: KeyValue[];
  /** The store revision the list is consistent at. */
  revision: number;
}

export interface WatchOptions {
  /** Deliver events with revision > fromRevision (0 = from now on, no replay). */
  fromRevision: number;
  signal: AbortSignal;
}

/** One watcher's stream. Events arrive in revision order; `onClose` fires once, with an error if cut off. */
export interface Watcher {
  onEvent: (ev: StoreEvent) => void;
  onClose: (err?: Error) => void;
  /**
   * Progress notify (etcd's): the store revision the watcher is now complete up to, even when no event matched
   * its prefix; sent once the watch is live (after its replay) and after each durable batch. Lets a watch cache
   * know it is fresh for writes elsewhere.
   */
  onProgress?: (revision: number) => void;
}

export interface Store {
  get(key: string): Promise<KeyValue | undefined>;
  /** Every key under prefix (prefix ends with "/"), sorted by key. */
  list(prefix: string): Promise<ListResult>;
  /** Fails with StorageError 'KeyExists'. Resolves once durable. */
  create(key: string, object: KubeObject): Promise<KeyValue>;
  /**
   * Compare-and-swap: tryUpdate gets the current state and returns the next; if another write lands
   * in between, tryUpdate runs again on the fresh state. Fails with 'KeyNotFound' if absent
   * (unless ignoreNotFound, when tryUpdate gets undefined and the result is a create).
   * Returning the same object (===) from tryUpdate is a no-op that writes nothing.
   */
  guaranteedUpdate(
    key: string,
    tryUpdate: (current: KeyValue | undefined) => KubeObject | Promise<KubeObject>,
    opts?: { ignoreNotFound?: boolean; expectedRevision?: number },
  ): Promise<KeyValue>;
  /** Fails with 'KeyNotFound', or 'Conflict' if expectedRevision is given and stale. */
  delete(key: string, opts?: { expectedRevision?: number; precondition?: (current: KeyValue) => void }): Promise<KeyValue>;
  /** Events under prefix. Fails synchronously with 'Compacted' if fromRevision is older than what is kept. */
  watch(prefix: string, opts: WatchOptions, watcher: Watcher): void;
  /** The revision of the last durable write. */
  revision(): number;
  /** The oldest revision a watch can still resume after. */
  compactedRevision(): number;
  /** Drop event records at or below `revision`. */
  compact(revision: number): Promise<void>;
  close(): Promise<void>;
  /** Whether a remote store answers (the `etcd` health check); a store in this process has none. */
  healthy?(): Promise<boolean>;
}
