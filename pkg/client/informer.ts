// A shared index informer, as client-go's: one reflector fills one indexed cache, and every registered handler hears
// add/update/delete (with the old and new objects; deletes noticed only at a re-list come as
// DeletedFinalStateUnknown). Handlers may resync: every period they hear onUpdate(obj, obj) for every cached object.
// A handler added after the first sync first hears onAdd for what is already cached.
import type { Logger } from 'pino';
import type { KubeObject } from '../../api/types.js';
import type { Selector } from '../apimachinery/labels.js';
import { realClock, type Clock, type TimerHandle } from './clock.js';
import { Reflector, type ListerWatcher, type ReflectorStore } from './reflector.js';
import { DeletedFinalStateUnknown, Indexer, NAMESPACE_INDEX, indexByNamespace, metaNamespaceKeyFunc, type Indexers } from './store.js';

export interface EventHandler<T extends KubeObject = KubeObject> {
  onAdd?(obj: T, isInInitialList: boolean): void;
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T | DeletedFinalStateUnknown<T>): void;
}

export interface HandlerRegistration {
  remove(): void;
  hasSynced(): boolean;
}

export interface InformerOptions<T extends KubeObject = KubeObject> {
  /** Default resync period of handlers, ms (0: none). */
  resyncPeriodMs?: number;
  indexers?: Indexers<T>;
  clock?: Clock;
  useWatchList?: boolean;
  minWatchTimeoutSeconds?: number;
  pageSize?: number;
  /** Applied to each object before it is cached. */
  transform?: (obj: T) => T;
  /**
   * Cache objects without metadata.managedFields (client-go's TransformStripManagedFields): memory, and watch
   * events need not parse them.
   */
  dropManagedFields?: boolean;
  logger?: Logger;
  onError?: (err: unknown) => void;
  name?: string;
}

interface Listener<T extends KubeObject> {
  handler: EventHandler<T>;
  resyncMs: number;
  timer?: TimerHandle;
  synced: boolean;
}

export class SharedIndexInformer<T extends KubeObject = KubeObject> implements ReflectorStore<T> {
  readonly indexer: Indexer<T>;
  private readonly listeners = new Set<Listener<T>>();
  private readonly clock: Clock;
  private synced = false;
  private running = false;
  private reflector?: Reflector<T>;
  private syncWaiters: (() => void)[] = [];

  constructor(private readonly lw: ListerWatcher<T>, private readonly o: InformerOptions<T> = {}) {
    this.clock = o.clock ?? realClock;
    this.indexer = new Indexer<T>(metaNamespaceKeyFunc, { [NAMESPACE_INDEX]: indexByNamespace as (o: T) => string[], ...o.indexers });
  }

  addIndexers(indexers: Indexers<T>): void { this.indexer.addIndexers(indexers); }

  /** Registers a handler; resyncPeriodMs overrides the informer's default for it. */
  addEventHandler(handler: EventHandler<T>, resyncPeriodMs?: number): HandlerRegistration {
    const l: Listener<T> = { handler, resyncMs: resyncPeriodMs ?? this.o.resyncPeriodMs ?? 0, synced: false };
    this.listeners.add(l);
    if (this.synced) {
      for (const obj of this.indexer.list()) this.call(() => handler.onAdd?.(obj, true));
      l.synced = true;
    }
    if (this.running) this.armResync(l);
    return {
      remove: () => { l.timer?.cancel(); this.listeners.delete(l); },
      hasSynced: () => l.synced,
    };
  }

  hasSynced(): boolean { return this.synced; }

  lastSyncResourceVersion(): string { return this.reflector?.lastSyncResourceVersion() ?? ''; }

  /** Resolves true once synced, false if the signal aborts first. */
  waitForSync(signal?: AbortSignal): Promise<boolean> {
    if (this.synced) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onAbort = (): void => resolve(false);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.syncWaiters.push(() => { signal?.removeEventListener('abort', onAbort); resolve(true); });
    });
  }

  /** Runs until the signal aborts. */
  async run(signal: AbortSignal): Promise<void> {
    if (this.running) throw new Error('informer already running');
    this.running = true;
    const lw: ListerWatcher<T> = this.o.dropManagedFields ? { list: (o) => this.lw.list(o), watch: (o) => this.lw.watch({ ...o, dropManagedFields: true }) } : this.lw;
    this.reflector = new Reflector<T>(lw, this, {
      name: this.o.name, clock: this.clock, useWatchList: this.o.useWatchList, pageSize: this.o.pageSize,
      minWatchTimeoutSeconds: this.o.minWatchTimeoutSeconds, logger: this.o.logger, onError: this.o.onError,
    });
    for (const l of this.listeners) this.armResync(l);
    try {
      await this.reflector.run(signal);
    } finally {
      for (const l of this.listeners) l.timer?.cancel();
      this.running = false;
    }
  }

  /** Read access to the cache. */
  lister(): Lister<T> { return new Lister(this.indexer); }

  // ReflectorStore: the reflector's changes become cache writes and notifications.

  replace(items: T[], _resourceVersion: string): void {
    const fresh = new Map<string, T>();
    for (const raw of items) { const obj = this.transform(raw); fresh.set(metaNamespaceKeyFunc(obj), obj); }
    const gone: DeletedFinalStateUnknown<T>[] = [];
    for (const key of this.indexer.listKeys()) if (!fresh.has(key)) gone.push(new DeletedFinalStateUnknown(key, this.indexer.getByKey(key)!));
    const old = new Map(this.indexer.listKeys().map((k) => [k, this.indexer.getByKey(k)!] as const));
    this.indexer.replace([...fresh.values()]);
    const initial = !this.synced;
    for (const d of gone) this.notify((h) => h.onDelete?.(d));
    for (const [key, obj] of fresh) {
      const before = old.get(key);
      if (before) this.notify((h) => h.onUpdate?.(before, obj));
      else this.notify((h) => h.onAdd?.(obj, initial));
    }
    if (!this.synced) {
      this.synced = true;
      for (const l of this.listeners) l.synced = true;
      const waiters = this.syncWaiters;
      this.syncWaiters = [];
      for (const w of waiters) w();
    }
  }

  add(raw: T): void {
    const obj = this.transform(raw);
    const old = this.indexer.get(obj);
    this.indexer.add(obj);
    if (old) this.notify((h) => h.onUpdate?.(old, obj));
    else this.notify((h) => h.onAdd?.(obj, false));
  }

  update(raw: T): void { this.add(raw); }

  delete(raw: T): void {
    const obj = this.transform(raw);
    this.indexer.delete(obj);
    this.notify((h) => h.onDelete?.(obj));
  }

  private transform(obj: T): T {
    if (this.o.dropManagedFields && obj.metadata?.managedFields) delete obj.metadata.managedFields;
    return this.o.transform ? this.o.transform(obj) : obj;
  }

  private notify(fn: (h: EventHandler<T>) => void): void {
    for (const l of this.listeners) this.call(() => fn(l.handler));
  }

  private call(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.o.onError?.(err);
      this.o.logger?.error({ err, resource: this.o.name }, 'event handler threw');
    }
  }

  private armResync(l: Listener<T>): void {
    if (l.resyncMs <= 0) return;
    l.timer?.cancel();
    l.timer = this.clock.setTimer(() => {
      if (!this.listeners.has(l) || !this.running) return;
      if (this.synced) for (const obj of this.indexer.list()) this.call(() => l.handler.onUpdate?.(obj, obj));
      this.armResync(l);
    }, Math.max(1000, l.resyncMs));
  }
}

/** Read-only views of an informer's cache, as the generated listers. */
export class Lister<T extends KubeObject = KubeObject> {
  constructor(private readonly indexer: Indexer<T>) {}

  list(selector?: Selector): T[] {
    const all = this.indexer.list();
    return selector && !selector.empty ? all.filter((o) => selector.matches(o.metadata?.labels)) : all;
  }

  /** By key: "namespace/name" or "name". */
  get(key: string): T | undefined { return this.indexer.getByKey(key); }

  namespace(ns: string): { list(selector?: Selector): T[]; get(name: string): T | undefined } {
    return {
      list: (selector) => {
        const objs = this.indexer.byIndex(NAMESPACE_INDEX, ns);
        return selector && !selector.empty ? objs.filter((o) => selector.matches(o.metadata?.labels)) : objs;
      },
      get: (name) => this.indexer.getByKey(`${ns}/${name}`),
    };
  }
}
