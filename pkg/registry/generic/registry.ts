// The one generic registry over the Store (upstream: registry/generic/registry/store.go): reads
// from the watch cache, writes through compare-and-swap, and asks the resource's Strategy wherever
// a resource differs. Storage errors become API errors only through toApiError.
import { apiVersionOf, type KubeObject, type ResourceType } from '../../../api/types.js';
import { badRequest, gone, invalid, notFound, StatusError, tooManyRequests, type GroupResource, type StatusCause } from '../../apimachinery/errors.js';
import type { Admission, Operation } from '../../admission/interface.js';
import type { Cacher } from '../../storage/cacher/cacher.js';
import { isStorageError, type StorageError } from '../../storage/errors.js';
import type { KeyValue, Store, StoreEvent } from '../../storage/interface.js';
import type { DeleteOptions, ListOptions, RequestContext, WatchOptions } from '../context.js';
import { listPrefix, objectKey } from '../keys.js';
import { selectionPredicate } from '../predicate.js';
import type { ViewCodec } from './converting-store.js';
import { toApiError } from '../storage-errors.js';
import type { Strategy } from '../strategy.js';
import { initializedOnly } from '../initializers/visibility.js';
import { decodeContinue, encodeContinue, ExpiredContinue } from './continue.js';
import type { Decoder } from './decode.js';
import type { FieldManager } from './field-manager.js';

/** An object to send back: bytes when it came from storage (serialized once), else just the object. */
export interface Result {
  object: KubeObject;
  bytes?: Buffer;
}

export interface ListResult {
  items: KeyValue[];
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface WatchSink {
  onEvent(ev: StoreEvent): void;
  onClose(err?: Error): void;
  /** With sendInitialEvents: every initial ADDED has been delivered, the state being that at `revision`. */
  onInitialEventsEnd?(revision: number): void;
}

export interface RegistryDeps {
  store: Store;
  cacher: Cacher;
  decoder: Decoder;
  strategy: Strategy;
  admission: Admission;
  fieldManager: FieldManager;
  /** Another resource's registry (eviction reads PodDisruptionBudgets). */
  peer(group: string, plural: string): Registry | undefined;
  /** The alpha Initializers feature is on: lists and watches hide uninitialized objects unless asked. */
  initializers?: boolean;
  /** How this version's objects convert to and from the storage version (absent: it is the storage version). */
  codec?: ViewCodec;
}

export class Registry {
  readonly gr: GroupResource;

  constructor(
    readonly rt: ResourceType,
    readonly deps: RegistryDeps,
  ) {
    this.gr = { group: rt.group, resource: rt.plural };
  }

  get strategy(): Strategy {
    return this.deps.strategy;
  }

  key(namespace: string | undefined, name: string): string {
    return objectKey(this.rt, namespace, name);
  }

  /** Status is written only through /status. */
  get hasStatus(): boolean {
    return this.rt.subresources?.some((s) => s.name === 'status') ?? false;
  }

  get apiVersion(): string {
    return apiVersionOf(this.rt.group, this.rt.version);
  }

  /** A read that must see every write acknowledged before it (upstream's consistent read from cache). */
  private async fresh(): Promise<void> {
    const want = this.deps.store.revision();
    // The common case: the cache has already seen every write (no timer, no promise chain).
    if (this.deps.cacher.revision() >= want) return;
    await this.deps.cacher.waitUntilFresh(want, AbortSignal.timeout(10_000));
  }

  /**
   * After a write was refused for a state the cache has not shown yet (a Conflict or KeyNotFound from the store,
   * whose queued writes run ahead of the cache): wait until the cache has it, so that looking again sees it.
   */
  async catchUp(err: StorageError): Promise<void> {
    if (err.revision !== undefined) await this.deps.cacher.waitUntilFresh(err.revision, AbortSignal.timeout(10_000));
  }

  /**
   * The object as it is now. No resourceVersion: once the cache caught up with the store (a consistent read); "0":
   * whatever the cache holds; N: once the cache has seen N (upstream's cacher Get, which serves no older state).
   */
  async get(ctx: RequestContext, name: string, resourceVersion = ''): Promise<KeyValue> {
    if (resourceVersion === '') await this.fresh();
    else if (resourceVersion !== '0') await this.waitFor(parseResourceVersion(resourceVersion));
    const kv = this.deps.cacher.get(this.key(ctx.namespace, name));
    if (!kv) throw notFound(this.gr, name);
    return kv;
  }

  /** Whether any object of this resource exists (cache state, without waiting). */
  hasAny(): boolean {
    return this.deps.cacher.list({ prefix: listPrefix(this.rt, undefined), limit: 1 }).items.length > 0;
  }

  /** How many objects of this resource are stored (cache state, without waiting). */
  count(): number {
    return this.deps.cacher.count(listPrefix(this.rt, undefined));
  }

  /** Current state without waiting; for lookups inside the apiserver (admission, subresources). */
  peek(namespace: string | undefined, name: string): KeyValue | undefined {
    return this.deps.cacher.get(this.key(namespace, name));
  }

  /**
   * A list as upstream 1.32 serves it. No resourceVersion: consistent (the cache caught up with the store).
   * "0": whatever the cache holds, all of it (the watch cache ignores limit). N: not older than N, except
   * Exact (or the legacy N with a limit), which is the state at N. Pages are read at the first page's
   * revision, so a paged list is one consistent snapshot.
   */
  async list(ctx: RequestContext, opts: ListOptions): Promise<ListResult> {
    validateListOptions(opts, false);
    const predicate = initializedOnly(selectionPredicate(this.rt, opts.labelSelector, opts.fieldSelector), this.deps.initializers === true && !opts.includeUninitialized);
    const { cacher, store } = this.deps;
    const prefix = listPrefix(this.rt, ctx.namespace);
    let limit = opts.limit && opts.limit > 0 ? opts.limit : undefined;
    let startKey: string | undefined;
    let at: number | undefined;
    const rv = opts.resourceVersion ?? '';
    if (opts.continue) {
      const token = decodeContinue(opts.continue, prefix);
      if (rv !== '' && rv !== '0') throw badRequest('specifying resource version is not allowed when using continue');
      startKey = token.startKey;
      if (token.resourceVersion > 0) {
        at = token.resourceVersion;
        if (at < store.compactedRevision() || at < cacher.oldestRevision()) {
          throw new ExpiredContinue(encodeContinue(-1, token.startKey, prefix));
        }
      }
      await this.fresh();
    } else if (rv === '') {
      await this.fresh();
    } else if (rv === '0') {
      limit = undefined;
    } else {
      const n = parseResourceVersion(rv);
      await this.waitFor(n);
      if (opts.resourceVersionMatch === 'Exact' || (!opts.resourceVersionMatch && limit !== undefined)) {
        at = n;
        if (n < store.compactedRevision() || n < cacher.oldestRevision()) throw gone('The resourceVersion for the provided list is too old.');
      }
    }
    const res = cacher.list({ prefix, predicate, limit, startKey, revision: at });
    const out: ListResult = { items: res.items, resourceVersion: String(res.revision) };
    if (res.nextKey !== undefined) {
      // upstream's PrepareContinueToken: the next page starts right after the last key
      out.continue = encodeContinue(res.revision, `${res.nextKey}\0`, prefix);
      if (!opts.labelSelector && !opts.fieldSelector) out.remainingItemCount = res.remaining;
    }
    return out;
  }

  /** Waits until the cache has seen revision n; a revision the store has not reached is too large (upstream: after 3 s). */
  private async waitFor(n: number): Promise<void> {
    if (n > this.deps.store.revision()) {
      throw new StatusError(504, 'Timeout', `Too large resource version: ${n}, current: ${this.deps.store.revision()}`, { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 });
    }
    await this.deps.cacher.waitUntilFresh(n, AbortSignal.timeout(10_000));
  }

  /**
   * Unset or "0": the current state first as ADDED events (unless sendInitialEvents=false), then changes.
   * N: every change after N (410 Expired, reported in the stream, when N is older than the watch cache's list or history).
   * sendInitialEvents=true: the state (not older than N) as ADDED, the end bookmark, then changes.
   */
  watch(ctx: RequestContext, opts: WatchOptions, sink: WatchSink): () => void {
    validateListOptions(opts, true);
    const predicate = initializedOnly(selectionPredicate(this.rt, opts.labelSelector, opts.fieldSelector), this.deps.initializers === true && !opts.includeUninitialized);
    const rv = opts.resourceVersion ?? '';
    const fromNow = rv === '' || rv === '0';
    const sendInitialEvents = opts.sendInitialEvents ?? fromNow;
    const fromRevision = fromNow ? this.deps.cacher.revision() : parseResourceVersion(rv);
    try {
      return this.deps.cacher.watch(
        { prefix: listPrefix(this.rt, ctx.namespace), fromRevision, predicate, sendInitialEvents },
        sink,
      );
    } catch (err) {
      if (isStorageError(err, 'Compacted')) throw gone(err.message);
      // The cache is rebuilding after losing its store watch: come back in a second, as upstream answers.
      if (isStorageError(err, 'Unavailable') && !this.deps.cacher.isReady()) throw tooManyRequests(err.message, 1);
      throw toApiError(err, this.gr, '');
    }
  }

  /**
   * Mutating admission runs before the strategy's checks, validating admission after them. A promise only when a
   * plugin has to wait (see Admission): the writes on every request's path await it only then.
   */
  admission(phase: 'mutate' | 'validate', op: Operation, ctx: RequestContext, obj: KubeObject | undefined, old: KubeObject | undefined, name: string, subresource?: string, deleteOptions?: DeleteOptions): Promise<void> | void {
    const options = op === 'DELETE' ? deleteOptions : op === 'CONNECT' ? undefined : ctx.options;
    const attrs = { operation: op, resource: this.rt, subresource, namespace: ctx.namespace, name, object: obj, oldObject: old, user: ctx.user, dryRun: ctx.dryRun, warnings: ctx.warnings, auditAnnotations: ctx.auditAnnotations, deadline: ctx.deadline, options };
    return phase === 'mutate' ? this.deps.admission.mutate(attrs) : this.deps.admission.validate(attrs);
  }

  invalid(name: string, causes: StatusCause[]): Error {
    return invalid(this.rt.group, this.rt.kind, name, causes);
  }
}

/** Upstream's ValidateListOptions: a 422 on ListOptions.meta.k8s.io. */
export function validateListOptions(opts: WatchOptions, watch: boolean): void {
  const causes: StatusCause[] = [];
  const forbidden = (field: string, message: string): number => causes.push({ reason: 'FieldValueForbidden', field, message: `Forbidden: ${message}` });
  const match = opts.resourceVersionMatch ?? '';
  if (watch) {
    if (opts.sendInitialEvents !== undefined && match !== 'NotOlderThan') {
      forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
    }
    if (match) {
      if (opts.sendInitialEvents === undefined) forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided');
      if (match !== 'NotOlderThan') causes.push({ reason: 'FieldValueNotSupported', field: 'resourceVersionMatch', message: `Unsupported value: "${match}": supported values: "NotOlderThan"` });
      if (opts.continue) forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided');
    }
  } else if (match) {
    if (!opts.resourceVersion) forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided');
    if (opts.continue) forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided');
    if (match !== 'Exact' && match !== 'NotOlderThan') causes.push({ reason: 'FieldValueNotSupported', field: 'resourceVersionMatch', message: `Unsupported value: "${match}": supported values: "Exact", "NotOlderThan", ""` });
    if (match === 'Exact' && opts.resourceVersion === '0') forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
  }
  if (!watch && opts.sendInitialEvents !== undefined) forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list');
  if (causes.length > 0) throw invalid('meta.k8s.io', 'ListOptions', '', causes);
}

export function parseResourceVersion(rv: string): number {
  const n = Number(rv);
  if (!/^\d+$/.test(rv) || !Number.isSafeInteger(n)) throw badRequest(`invalid resource version: ${JSON.stringify(rv)}`);
  return n;
}
