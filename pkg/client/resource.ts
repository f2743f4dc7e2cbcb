// The dynamic client: every verb for any group/version/resource, namespaced or not, with subresources, all patch
// types and server-side apply. Typed helpers (client.ts) are this with a fixed resource and a type parameter.
import type { KubeObject } from '../../api/types.js';
import type { Status } from '../apimachinery/errors.js';
import { metadataStrings } from '../apimachinery/json-text.js';
import { decodeWatch, type Watch, type WatchEvent } from './watch.js';
import type { HttpMethod, QueryValue, RestClient } from './rest.js';

/** Which resource a client speaks to (client-go's GroupVersionResource plus scope). */
export interface ResourceRef {
  group: string;
  version: string;
  /** Lower-case plural: "pods". */
  resource: string;
  namespaced: boolean;
  /** The Kind, filled into created objects that lack one. */
  kind?: string;
}

export interface KubeList<T extends KubeObject = KubeObject> {
  apiVersion?: string;
  kind?: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: T[];
}

export type Format = 'json' | 'yaml';

export interface CallOptions {
  signal?: AbortSignal;
  /** Wire format of the request and response bodies (default JSON); objects are still returned parsed. */
  format?: Format;
  timeoutMs?: number;
}

export interface GetOptions extends CallOptions { resourceVersion?: string }

export interface ListOptions extends CallOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'NotOlderThan' | 'Exact';
  timeoutSeconds?: number;
}

export interface WatchOptions extends ListOptions {
  allowWatchBookmarks?: boolean;
  sendInitialEvents?: boolean;
  /** The events' objects may come without metadata.managedFields (a cache that drops them need not parse them). */
  dropManagedFields?: boolean;
}

/** What createMeta and patchMeta read back of the written object. */
export interface WrittenMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
}

const WRITTEN_META_KEYS = ['name', 'namespace', 'uid', 'resourceVersion'] as const;

export interface WriteOptions extends CallOptions {
  dryRun?: boolean;
  fieldManager?: string;
  fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
}

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

export interface PatchOptions extends WriteOptions {
  /** Server-side apply only: take fields that other managers own. */
  force?: boolean;
  subresource?: string;
}

export interface ApplyOptions extends WriteOptions {
  fieldManager: string;
  force?: boolean;
  subresource?: string;
}

export interface DeleteOptions extends CallOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}

const contentTypeOf = (format: Format | undefined): string => (format === 'yaml' ? 'application/yaml' : 'application/json');

export const apiPrefix = (group: string, version: string): string => (group ? `/apis/${group}/${version}` : `/api/${version}`);

/** What client-go's metadata client asks for: objects and watch events, or lists, cut down to their metadata. */
export const PARTIAL_METADATA = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
export const PARTIAL_METADATA_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';

/** meta.k8s.io/v1 PartialObjectMetadata: an object of any kind with only its type and metadata. */
export type PartialObjectMetadata = Pick<KubeObject, 'apiVersion' | 'kind' | 'metadata'>;

/** The objects of one resource, in one namespace (or all namespaces / cluster-scoped when `namespace` is unset). */
export class ResourceClient<T extends KubeObject = KubeObject> {
  constructor(readonly rest: RestClient, readonly ref: ResourceRef, readonly ns?: string, private readonly metadataReads = false) {}

  /** The same resource in another namespace. */
  namespace(ns: string | undefined): ResourceClient<T> {
    return new ResourceClient<T>(this.rest, this.ref, ns, this.metadataReads);
  }

  /**
   * The same resource read as PartialObjectMetadata (client-go's metadata client): get, list and watch return only
   * apiVersion, kind and metadata, so a cache of them holds no spec or status.
   */
  metadataOnly(): ResourceClient<PartialObjectMetadata> {
    return new ResourceClient<PartialObjectMetadata>(this.rest, this.ref, this.ns, true);
  }

  get apiVersion(): string { return this.ref.group ? `${this.ref.group}/${this.ref.version}` : this.ref.version; }

  /** The path of the collection or of one object (and its subresource). */
  path(name?: string, subresource?: string, namespace = this.ns): string {
    let p = apiPrefix(this.ref.group, this.ref.version);
    if (this.ref.namespaced && namespace) p += `/namespaces/${encodeURIComponent(namespace)}`;
    p += `/${this.ref.resource}`;
    if (name !== undefined) {
      if (!name) throw new Error(`${this.ref.resource}: a name is required`);
      p += `/${encodeURIComponent(name)}`;
      if (subresource) p += `/${subresource}`;
    }
    return p;
  }

  private namespaceFor(obj: KubeObject): string | undefined {
    if (!this.ref.namespaced) return undefined;
    const ns = obj.metadata?.namespace ?? this.ns;
    if (!ns) throw new Error(`${this.ref.resource}: a namespace is required (on the object or the client)`);
    if (this.ns && obj.metadata?.namespace && obj.metadata.namespace !== this.ns) {
      throw new Error(`${this.ref.resource}: the object's namespace "${obj.metadata.namespace}" does not match the client's "${this.ns}"`);
    }
    return ns;
  }

  private call<R>(method: HttpMethod, path: string, o: CallOptions, query?: Record<string, QueryValue>, body?: unknown, contentType?: string, accept?: string): Promise<R> {
    const ct = contentTypeOf(o.format);
    return this.rest.request<R>({
      method, path, query, body, signal: o.signal, timeoutMs: o.timeoutMs,
      contentType: body === undefined ? undefined : contentType ?? ct,
      accept: accept ?? ct,
    });
  }

  private withKind(obj: T): T {
    if (obj.apiVersion && obj.kind) return obj;
    return { ...obj, apiVersion: obj.apiVersion ?? this.apiVersion, ...(this.ref.kind && !obj.kind ? { kind: this.ref.kind } : {}) };
  }

  get(name: string, o: GetOptions = {}): Promise<T> {
    return this.call('GET', this.path(name), o, { resourceVersion: o.resourceVersion }, undefined, undefined, this.metadataReads ? PARTIAL_METADATA : undefined);
  }

  async list(o: ListOptions = {}): Promise<KubeList<T>> {
    return typedItems(await this.call<KubeList<T>>('GET', this.path(), o, listQuery(o), undefined, undefined, this.metadataReads ? PARTIAL_METADATA_LIST : undefined));
  }

  /** Every page of a list (limit/continue), as one list at the first page's resourceVersion. */
  async listAll(o: ListOptions = {}): Promise<KubeList<T>> {
    const first = await this.list({ limit: 500, ...o });
    const items = [...first.items];
    let next = first.metadata.continue;
    while (next) {
      const page = await this.list({ ...o, limit: o.limit ?? 500, continue: next, resourceVersion: undefined, resourceVersionMatch: undefined });
      items.push(...page.items);
      next = page.metadata.continue;
    }
    return { ...first, metadata: { resourceVersion: first.metadata.resourceVersion }, items };
  }

  create(obj: T, o: WriteOptions = {}): Promise<T> {
    return this.call('POST', this.path(undefined, undefined, this.namespaceFor(obj)), o, writeQuery(o), this.withKind(obj));
  }

  update(obj: T, o: WriteOptions = {}): Promise<T> {
    return this.call('PUT', this.path(nameOf(obj), undefined, this.namespaceFor(obj)), o, writeQuery(o), this.withKind(obj));
  }

  /** PUT to the status subresource (only .status changes). */
  updateStatus(obj: T, o: WriteOptions = {}): Promise<T> {
    return this.call('PUT', this.path(nameOf(obj), 'status', this.namespaceFor(obj)), o, writeQuery(o), this.withKind(obj));
  }

  /** A patch of any type; a JSON patch is an array of operations, the others objects (or YAML/JSON text). */
  patch(name: string, type: PatchType, patch: unknown, o: PatchOptions = {}): Promise<T> {
    const { path, query, body } = this.patchRequest(name, type, patch, o);
    return this.call('PATCH', path, o, query, body, PATCH_CONTENT_TYPES[type]);
  }

  /**
   * patch() for a writer that needs only the patched object's identity and resourceVersion (a kubelet's status
   * writes): read from the JSON response without decoding the rest.
   */
  patchMeta(name: string, type: Exclude<PatchType, 'apply'>, patch: unknown, o: PatchOptions = {}): Promise<WrittenMeta> {
    const { path, query, body } = this.patchRequest(name, type, patch, o);
    return this.writeMeta('PATCH', path, o, query, body, PATCH_CONTENT_TYPES[type]);
  }

  /** create() for a writer that needs only the new object's identity (a ReplicaSet's pods: their generated names). */
  createMeta(obj: T, o: WriteOptions = {}): Promise<WrittenMeta> {
    return this.writeMeta('POST', this.path(undefined, undefined, this.namespaceFor(obj)), o, writeQuery(o), this.withKind(obj), 'application/json');
  }

  /** A JSON write whose answer is read for the written object's identity only. */
  private async writeMeta(method: HttpMethod, path: string, o: CallOptions, query: Record<string, QueryValue>, body: unknown, contentType: string): Promise<WrittenMeta> {
    const text = await this.rest.requestText({ method, path, query, body, signal: o.signal, timeoutMs: o.timeoutMs, contentType, accept: 'application/json' });
    return metadataStrings(text, WRITTEN_META_KEYS);
  }

  private patchRequest(name: string, type: PatchType, patch: unknown, o: PatchOptions): { path: string; query: Record<string, QueryValue>; body: string } {
    if (type === 'apply' && !o.fieldManager) throw new Error('server-side apply needs a fieldManager');
    return {
      path: this.path(name, o.subresource),
      query: { ...writeQuery(o), force: type === 'apply' && o.force ? true : undefined },
      body: typeof patch === 'string' ? patch : JSON.stringify(patch),
    };
  }

  /** Server-side apply of a (partial) object: the fields it sets become `fieldManager`'s. */
  apply(obj: T, o: ApplyOptions): Promise<T> {
    const full = this.withKind(obj);
    return this.namespace(this.ref.namespaced ? this.namespaceFor(obj) : undefined).patch(nameOf(obj), 'apply', full, o);
  }

  /** Server-side apply to the status subresource. */
  applyStatus(obj: T, o: ApplyOptions): Promise<T> {
    return this.apply(obj, { ...o, subresource: 'status' });
  }

  /** Deletes one object; returns the object (graceful deletion, finalizers) or a Success Status. */
  delete(name: string, o: DeleteOptions = {}): Promise<T | Status> {
    return this.call('DELETE', this.path(name), o, { dryRun: o.dryRun ? 'All' : undefined }, deleteBody(o));
  }

  deleteCollection(o: DeleteOptions & ListOptions = {}): Promise<KubeList<T> | Status> {
    return this.call('DELETE', this.path(), o, { ...listQuery(o), dryRun: o.dryRun ? 'All' : undefined }, deleteBody(o));
  }

  /** GET a subresource (scale, status, ...). */
  getSubresource<R = unknown>(name: string, subresource: string, o: CallOptions = {}): Promise<R> {
    return this.call('GET', this.path(name, subresource), o);
  }

  /** POST to a subresource (binding, eviction, token). */
  createSubresource<R = unknown>(name: string, subresource: string, body: unknown, o: WriteOptions = {}): Promise<R> {
    return this.call('POST', this.path(name, subresource), o, writeQuery(o), body);
  }

  /** PUT to a subresource (scale, status). */
  updateSubresource<R = unknown>(name: string, subresource: string, body: unknown, o: WriteOptions = {}): Promise<R> {
    return this.call('PUT', this.path(name, subresource), o, writeQuery(o), body);
  }

  /** The autoscaling/v1 Scale of a scalable resource. */
  getScale(name: string, o: CallOptions = {}): Promise<Scale> {
    return this.getSubresource<Scale>(name, 'scale', o);
  }

  /** Sets spec.replicas through the scale subresource (a merge patch: no read-modify-write race). */
  scale(name: string, replicas: number, o: WriteOptions = {}): Promise<Scale> {
    return this.patch(name, 'merge', { spec: { replicas } }, { ...o, subresource: 'scale' }) as unknown as Promise<Scale>;
  }

  /** Opens a watch; iterate it for events, stop() it to end. Errors from the server arrive as ERROR events. */
  async watch(o: WatchOptions = {}): Promise<Watch<T>> {
    const res = await this.rest.stream({
      method: 'GET', path: this.path(), signal: o.signal, accept: this.metadataReads ? PARTIAL_METADATA : 'application/json',
      query: { ...listQuery(o), watch: true, allowWatchBookmarks: o.allowWatchBookmarks || undefined, sendInitialEvents: o.sendInitialEvents },
    });
    let stopped = false;
    const events = decodeWatch<T>(res.body, o.dropManagedFields);
    return {
      stop: () => { stopped = true; res.close(); },
      async *[Symbol.asyncIterator](): AsyncGenerator<WatchEvent<T>> {
        try {
          for await (const ev of events) yield ev;
        } catch (e) {
          if (!stopped) throw e;
        } finally {
          res.close();
        }
      },
    };
  }
}

export interface Scale extends KubeObject {
  spec?: { replicas?: number };
  status?: { replicas: number; selector?: string };
}

export const nameOf = (obj: KubeObject): string => {
  const n = obj.metadata?.name;
  if (!n) throw new Error('the object has no metadata.name');
  return n;
};

/**
 * A list's items with the kind and apiVersion the list implies: the apiserver leaves them out of a built-in kind's
 * items; informers and controllers read them (owner references), as client-go's unstructured lists fill them in.
 */
const typedItems = <T extends KubeObject>(list: KubeList<T>): KubeList<T> => {
  const kind = typeof list.kind === 'string' && list.kind.endsWith('List') ? list.kind.slice(0, -4) : undefined;
  for (const item of list.items ?? []) {
    if (item.kind === undefined && item.apiVersion === undefined && kind) {
      item.apiVersion = list.apiVersion;
      item.kind = kind;
    }
  }
  return list;
};

const listQuery = (o: ListOptions): Record<string, QueryValue> => ({
  labelSelector: o.labelSelector, fieldSelector: o.fieldSelector, limit: o.limit, continue: o.continue,
  resourceVersion: o.resourceVersion, resourceVersionMatch: o.resourceVersionMatch, timeoutSeconds: o.timeoutSeconds,
});

const writeQuery = (o: WriteOptions): Record<string, QueryValue> => ({
  dryRun: o.dryRun ? 'All' : undefined, fieldManager: o.fieldManager, fieldValidation: o.fieldValidation,
});

const deleteBody = (o: DeleteOptions): Record<string, unknown> | undefined => {
  const b: Record<string, unknown> = {};
  if (o.gracePeriodSeconds !== undefined) b.gracePeriodSeconds = o.gracePeriodSeconds;
  if (o.propagationPolicy) b.propagationPolicy = o.propagationPolicy;
  if (o.preconditions) b.preconditions = o.preconditions;
  return Object.keys(b).length ? { kind: 'DeleteOptions', apiVersion: 'v1', ...b } : undefined;
};
