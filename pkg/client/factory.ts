// One informer per resource per process: controllers ask the factory, which hands out the same informer (one list,
// one watch) to all of them. start() runs those not yet running; waitForCacheSync() waits for all started.
import type { KubeObject } from '../../api/types.js';
import type { Client } from './client.js';
import { Resources } from './client.js';
import { SharedIndexInformer, type InformerOptions } from './informer.js';
import type { ListOptions, PartialObjectMetadata, ResourceClient, ResourceRef } from './resource.js';
import type { Indexers } from './store.js';

export interface FactoryOptions extends Omit<InformerOptions, 'indexers' | 'name'> {
  /** Watch only this namespace (default: all). */
  namespace?: string;
  /** Narrows every list and watch (label or field selectors). */
  tweakListOptions?: (o: ListOptions) => ListOptions;
}

const refKey = (r: ResourceRef): string => `${r.group}/${r.version}/${r.resource}`;

export class SharedInformerFactory {
  private readonly informers = new Map<string, SharedIndexInformer<any>>();
  private readonly runs = new Map<string, Promise<void>>();

  constructor(readonly client: Client, private readonly o: FactoryOptions = {}) {}

  /** The one informer of a resource (created on first ask); its indexers are added to it. */
  informerFor<T extends KubeObject = KubeObject>(ref: ResourceRef, opts: { indexers?: Indexers<T>; resyncPeriodMs?: number } = {}): SharedIndexInformer<T> {
    return this.shared(refKey(ref), this.client.resource<T>(ref, this.o.namespace), ref.resource, opts);
  }

  /** The typed informer of a resource if some controller has asked for it already (none is created). */
  existing<T extends KubeObject = KubeObject>(ref: ResourceRef): SharedIndexInformer<T> | undefined {
    return this.informers.get(refKey(ref)) as SharedIndexInformer<T> | undefined;
  }

  /**
   * The one metadata-only informer of a resource (controller-runtime's metav1.PartialObjectMetadata watches): it
   * caches PartialObjectMetadata without managedFields, for controllers that read only labels, owners or finalizers.
   */
  metadataInformerFor(ref: ResourceRef, opts: { indexers?: Indexers<PartialObjectMetadata>; resyncPeriodMs?: number } = {}): SharedIndexInformer<PartialObjectMetadata> {
    const rc = this.client.resource(ref, this.o.namespace).metadataOnly();
    return this.shared(`metadata:${refKey(ref)}`, rc, `${ref.resource} (metadata)`, { ...opts, dropManagedFields: true });
  }

  private shared<T extends KubeObject>(key: string, rc: ResourceClient<T>, name: string, opts: { indexers?: Indexers<T>; resyncPeriodMs?: number; dropManagedFields?: boolean }): SharedIndexInformer<T> {
    let inf = this.informers.get(key) as SharedIndexInformer<T> | undefined;
    if (!inf) {
      const tweak = this.o.tweakListOptions ?? ((x: ListOptions) => x);
      inf = new SharedIndexInformer<T>({
        list: (lo) => rc.list(tweak(lo)),
        watch: (wo) => rc.watch({ ...wo, ...tweak(wo) }),
      }, { ...(this.o as InformerOptions<T>), resyncPeriodMs: opts.resyncPeriodMs ?? this.o.resyncPeriodMs, name, dropManagedFields: opts.dropManagedFields ?? this.o.dropManagedFields });
      this.informers.set(key, inf);
    }
    if (opts.indexers) {
      inf.addIndexers(Object.fromEntries(Object.entries(opts.indexers).filter(([n]) => !inf!.indexer.hasIndex(n))));
    }
    return inf;
  }

  pods<T extends KubeObject = KubeObject>(): SharedIndexInformer<T> { return this.informerFor<T>(Resources.pods); }
  nodes<T extends KubeObject = KubeObject>(): SharedIndexInformer<T> { return this.informerFor<T>(Resources.nodes); }
  deployments<T extends KubeObject = KubeObject>(): SharedIndexInformer<T> { return this.informerFor<T>(Resources.deployments); }
  replicaSets<T extends KubeObject = KubeObject>(): SharedIndexInformer<T> { return this.informerFor<T>(Resources.replicaSets); }

  /** Starts every informer not yet running; each runs until the signal aborts. */
  start(signal: AbortSignal): void {
    for (const [key, inf] of this.informers) {
      if (this.runs.has(key)) continue;
      this.runs.set(key, inf.run(signal));
    }
  }

  /** Resolves once every started informer has synced (true), or false if the signal aborts first. */
  async waitForCacheSync(signal?: AbortSignal): Promise<boolean> {
    const results = await Promise.all([...this.runs.keys()].map((k) => this.informers.get(k)!.waitForSync(signal)));
    return results.every(Boolean);
  }

  /** Waits for every started informer to stop (after the start signal aborts). */
  async shutdown(): Promise<void> {
    await Promise.allSettled(this.runs.values());
  }
}
