// The one generic registry over the Store (upstream: registry/generic/registry/store.go): reads
// from the watch cache, writes through compare-and-swap, and asks the resource's Strategy wherever
// a resource differs. Storage errors become API errors only through toApiError.
import { apiVersionOf, type KubeObject, type ResourceType } from '../../../api/types.js';
import { badRequest, gone, invalid, notFound, StatusError, type GroupResource, type StatusCause } from '../../apimachinery/errors.js';
import type { Admission, Operation } from '../../admission/interface.js';
import type { Cacher } from '../../storage/cacher/cacher.js';
import type { KeyValue, Store, StoreEvent } from '../../storage/interface.js';
import type { ListOptions, RequestContext, WatchOptions } from '../context.js';
import { listPrefix, objectKey } from '../keys.js';
import { selectionPredicate } from '../predicate.js';
import { toApiError } from '../storage-errors.js';
import type { Strategy } from '../strategy.js';
import { decodeContinue, encodeContinue } from './continue.js';
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
  /** The cacher's revision, for bookmarks. */
  onClose(err?: Error): void;
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

  get apiVersion(): string {
    return apiVersionOf(this.rt.group, this.rt.version);
  }

  /** A read that must see every write acknowledged before it (upstream's consistent read from cache). */
  private async fresh(): Promise<void> {
    await this.deps.cacher.waitUntilFresh(this.deps.store.revision(), AbortSignal.timeout(10_000));
  }

  async get(ctx: RequestContext, name: string): Promise<KeyValue> {
    await this.fresh();
    const kv = this.deps.cacher.get(this.key(ctx.namespace, name));
    if (!kv) throw notFound(this.gr, name);
    return kv;
  }

  /** Current state without waiting; for lookups inside the apiserver (admission, subresources). */
  peek(namespace: string | undefined, name: string): KeyValue | undefined {
    return this.deps.cacher.get(this.key(namespace, name));
  }

  async list(ctx: RequestContext, opts: ListOptions): Promise<ListResult> {
    const predicate = selectionPredicate(this.rt, opts.labelSelector, opts.fieldSelector);
    const { cacher, store } = this.deps;
    let continueKey: string | undefined;
    if (opts.continue) {
      const token = decodeContinue(opts.continue);
      if (token.resourceVersion <= store.compactedRevision()) {
        throw gone('The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.');
      }
      continueKey = token.startKey;
    } else {
      await this.waitForListRevision(opts);
    }
    const prefix = listPrefix(this.rt, ctx.namespace);
    if (continueKey !== undefined && !continueKey.startsWith(prefix)) throw badRequest('continue key is not valid for this list');
    const res = cacher.list({ prefix, predicate, limit: opts.limit && opts.limit > 0 ? opts.limit : undefined, continueKey });
    const out: ListResult = { items: res.items, resourceVersion: String(res.revision) };
    if (res.nextKey !== undefined) {
      out.continue = encodeContinue({ resourceVersion: res.revision, startKey: res.nextKey });
      if (!opts.labelSelector && !opts.fieldSelector) out.remainingItemCount = res.remaining;
    }
    return out;
  }

  private async waitForListRevision(opts: ListOptions): Promise<void> {
    const rv = opts.resourceVersion;
    if (rv === undefined || rv === '') return this.fresh();
    if (rv === '0') return;
    const n = parseResourceVersion(rv);
    if (opts.resourceVersionMatch === 'Exact' && n !== this.deps.cacher.revision() && n < this.deps.store.revision()) {
      throw gone(`too old resource version: ${n} (${this.deps.cacher.revision()})`);
    }
    if (n > this.deps.store.revision()) {
      throw new StatusError(504, 'Timeout', `Too large resource version: ${n}, current: ${this.deps.store.revision()}`, { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 });
    }
    await this.deps.cacher.waitUntilFresh(n, AbortSignal.timeout(10_000));
  }

  watch(ctx: RequestContext, opts: WatchOptions, sink: WatchSink): () => void {
    const predicate = selectionPredicate(this.rt, opts.labelSelector, opts.fieldSelector);
    const rv = opts.resourceVersion;
    // "" and "0" start from now with the current state as ADDED events (upstream's legacy
    // behaviour); an explicit revision resumes after it; sendInitialEvents asks for the state first.
    const fromNow = rv === undefined || rv === '' || rv === '0';
    const sendInitialEvents = opts.sendInitialEvents ?? fromNow;
    const fromRevision = fromNow ? this.deps.cacher.revision() : parseResourceVersion(rv);
    try {
      return this.deps.cacher.watch(
        { prefix: listPrefix(this.rt, ctx.namespace), fromRevision, predicate, sendInitialEvents },
        sink,
      );
    } catch (err) {
      throw toApiError(err, this.gr, '');
    }
  }

  /** Mutating admission runs before the strategy's checks, validating admission after them. */
  async admission(phase: 'mutate' | 'validate', op: Operation, ctx: RequestContext, obj: KubeObject | undefined, old: KubeObject | undefined, name: string, subresource?: string): Promise<void> {
    const attrs = { operation: op, resource: this.rt, subresource, namespace: ctx.namespace, name, object: obj, oldObject: old, user: ctx.user, dryRun: ctx.dryRun };
    await (phase === 'mutate' ? this.deps.admission.mutate(attrs) : this.deps.admission.validate(attrs));
  }

  invalid(name: string, causes: StatusCause[]): Error {
    return invalid(this.rt.group, this.rt.kind, name, causes);
  }
}

export function parseResourceVersion(rv: string): number {
  const n = Number(rv);
  if (!/^\d+$/.test(rv) || !Number.isSafeInteger(n)) throw badRequest(`invalid resource version: ${JSON.stringify(rv)}`);
  return n;
}
