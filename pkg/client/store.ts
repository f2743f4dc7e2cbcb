// The informer's cache: objects by key ("namespace/name", or "name" when cluster-scoped) with indexes — functions
// from an object to the values it is found under (its namespace, its owners' uids, its node...). As client-go's
// cache.Indexer; JavaScript's single thread makes every operation atomic.
import type { KubeObject } from '../../api/types.js';

export type KeyFunc<T> = (obj: T) => string;
export type IndexFunc<T> = (obj: T) => string[];
export type Indexers<T> = Record<string, IndexFunc<T>>;

/** What a delete handler gets when the object vanished while the watch was down: its last known state, maybe stale. */
export class DeletedFinalStateUnknown<T = KubeObject> {
  constructor(readonly key: string, readonly obj: T) {}
}

/** The object in a delete notification, whether it came from a watch event or a re-list gap. */
export const finalState = <T>(obj: T | DeletedFinalStateUnknown<T>): T => (obj instanceof DeletedFinalStateUnknown ? obj.obj : obj);

export const metaNamespaceKeyFunc = (obj: KubeObject | DeletedFinalStateUnknown): string => {
  if (obj instanceof DeletedFinalStateUnknown) return obj.key;
  const m = obj.metadata;
  if (!m?.name) throw new Error('object has no metadata.name');
  return m.namespace ? `${m.namespace}/${m.name}` : m.name;
};

export const splitMetaNamespaceKey = (key: string): { namespace?: string; name: string } => {
  const i = key.indexOf('/');
  return i < 0 ? { name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
};

export const NAMESPACE_INDEX = 'namespace';
export const OWNER_UID_INDEX = 'ownerUid';
export const NODE_NAME_INDEX = 'nodeName';
export const CONTROLLER_INDEX = 'controller';

export const indexByNamespace: IndexFunc<KubeObject> = (o) => (o.metadata?.namespace ? [o.metadata.namespace] : []);
export const indexByOwnerUid: IndexFunc<KubeObject> = (o) => (o.metadata?.ownerReferences ?? []).map((r) => r.uid);
/** The controller's uid, or `orphan/<namespace>` for what no one controls (what a controller may adopt). */
export const indexByController: IndexFunc<KubeObject> = (o) => {
  const c = o.metadata?.ownerReferences?.find((r) => r.controller === true);
  return [c ? c.uid : `orphan/${o.metadata?.namespace ?? ''}`];
};
export const indexByNodeName: IndexFunc<KubeObject> = (o) => (typeof o.spec?.nodeName === 'string' && o.spec.nodeName ? [o.spec.nodeName] : []);

export class Indexer<T extends KubeObject = KubeObject> {
  private readonly items = new Map<string, T>();
  private readonly indexers = new Map<string, IndexFunc<T>>();
  /** index name -> indexed value -> keys */
  private readonly indices = new Map<string, Map<string, Set<string>>>();

  constructor(readonly keyFunc: KeyFunc<T> = metaNamespaceKeyFunc, indexers: Indexers<T> = {}) {
    this.addIndexers(indexers);
  }

  /** Adds indexes (existing objects are indexed at once); a name already taken is an error. */
  addIndexers(indexers: Indexers<T>): void {
    for (const [name, fn] of Object.entries(indexers)) {
      if (this.indexers.has(name)) throw new Error(`indexer conflict: ${name}`);
      this.indexers.set(name, fn);
      const index = new Map<string, Set<string>>();
      this.indices.set(name, index);
      for (const [key, obj] of this.items) for (const v of fn(obj)) addTo(index, v, key);
    }
  }

  hasIndex(name: string): boolean { return this.indexers.has(name); }

  private updateIndices(old: T | undefined, obj: T | undefined, key: string): void {
    for (const [name, fn] of this.indexers) {
      const index = this.indices.get(name)!;
      const before = old ? fn(old) : [];
      const after = obj ? fn(obj) : [];
      for (const v of before) if (!after.includes(v)) removeFrom(index, v, key);
      // a value the old object had already lists the key (most updates change no indexed value)
      for (const v of after) if (!before.includes(v)) addTo(index, v, key);
    }
  }

  add(obj: T): void { this.put(this.keyFunc(obj), obj); }
  update(obj: T): void { this.put(this.keyFunc(obj), obj); }

  put(key: string, obj: T): void {
    const old = this.items.get(key);
    this.items.set(key, obj);
    this.updateIndices(old, obj, key);
  }

  delete(obj: T): void { this.deleteKey(this.keyFunc(obj)); }

  deleteKey(key: string): void {
    const old = this.items.get(key);
    if (!old) return;
    this.items.delete(key);
    this.updateIndices(old, undefined, key);
  }

  get(obj: T): T | undefined { return this.items.get(this.keyFunc(obj)); }
  getByKey(key: string): T | undefined { return this.items.get(key); }
  has(key: string): boolean { return this.items.has(key); }
  list(): T[] { return [...this.items.values()]; }
  listKeys(): string[] { return [...this.items.keys()]; }
  get size(): number { return this.items.size; }

  /** Replaces the whole content (a re-list). */
  replace(items: T[]): void {
    this.items.clear();
    for (const index of this.indices.values()) index.clear();
    for (const obj of items) this.add(obj);
  }

  /** The objects sharing any indexed value with `obj` under `indexName`. */
  index(indexName: string, obj: T): T[] {
    const fn = this.indexFunc(indexName);
    const keys = new Set<string>();
    for (const v of fn(obj)) for (const k of this.indices.get(indexName)!.get(v) ?? []) keys.add(k);
    return [...keys].map((k) => this.items.get(k)!);
  }

  /** The objects indexed under `value`. */
  byIndex(indexName: string, value: string): T[] {
    return this.indexKeys(indexName, value).map((k) => this.items.get(k)!);
  }

  indexKeys(indexName: string, value: string): string[] {
    this.indexFunc(indexName);
    return [...(this.indices.get(indexName)!.get(value) ?? [])];
  }

  /** Every value some object is indexed under. */
  listIndexFuncValues(indexName: string): string[] {
    this.indexFunc(indexName);
    return [...this.indices.get(indexName)!.keys()];
  }

  private indexFunc(name: string): IndexFunc<T> {
    const fn = this.indexers.get(name);
    if (!fn) throw new Error(`index with name ${name} does not exist`);
    return fn;
  }
}

const addTo = (index: Map<string, Set<string>>, value: string, key: string): void => {
  let set = index.get(value);
  if (!set) index.set(value, (set = new Set()));
  set.add(key);
};

const removeFrom = (index: Map<string, Set<string>>, value: string, key: string): void => {
  const set = index.get(value);
  if (!set) return;
  set.delete(key);
  if (set.size === 0) index.delete(value);
};
