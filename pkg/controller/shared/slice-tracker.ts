// Upstream's EndpointSliceTracker (k8s.io/endpointslice/util), shared by the EndpointSlice and mirroring controllers:
// the generation of every slice a controller created or updated, per service, and the slices it deleted. A sync whose
// informer cache is behind those writes (a slice of an older generation, one deleted still listed, one written not
// listed yet) waits for it, as a StaleInformerCache error retried with backoff, instead of writing over a stale copy
// that the apiserver would refuse as a conflict. The informer's events about the controller's own writes requeue
// nothing; someone else's change (a newer generation, a deletion not expected) resyncs the service.
import { LABEL_MANAGED_BY, LABEL_SERVICE_NAME } from '../../../api/discovery/v1/index.js';
import type { KubeObject } from '../../../api/types.js';
import type { EventHandler } from '../../client/index.js';
import { objOf } from './controller-utils.js';

const DELETION_EXPECTED = -1;

/** Upstream's endpointslice.StaleInformerCache: the sync is retried, without an event. */
export class StaleInformerCache extends Error {
  constructor() {
    super('EndpointSlice informer cache is out of date');
    this.name = 'StaleInformerCache';
  }
}

/** The key ("namespace/name") of the service a slice is labelled with. */
const serviceOf = (slice: KubeObject): string => `${slice.metadata?.namespace ?? ''}/${slice.metadata?.labels?.[LABEL_SERVICE_NAME] ?? ''}`;
const uidOf = (slice: KubeObject): string => slice.metadata?.uid ?? '';
const generationOf = (slice: KubeObject): number => slice.metadata?.generation ?? 0;

export class SliceTracker {
  /** By service key, the expected generation (or DELETION_EXPECTED) of each slice by uid. */
  private readonly services = new Map<string, Map<string, number>>();

  /** Whether the slice's generation (or deletion) is tracked. */
  has(slice: KubeObject): boolean {
    return this.services.get(serviceOf(slice))?.has(uidOf(slice)) ?? false;
  }

  /** Whether the slice is not one this controller wrote: untracked, or of a newer generation than written. */
  shouldSync(slice: KubeObject): boolean {
    const expected = this.services.get(serviceOf(slice))?.get(uidOf(slice));
    return expected === undefined || generationOf(slice) > expected;
  }

  /**
   * Whether the cached `slices` of the service `key` are behind this controller's writes: one older than written, or
   * deleted; or one written missing.
   */
  stale(key: string, slices: KubeObject[]): boolean {
    const tracked = this.services.get(key);
    if (!tracked) return false;
    const listed = new Set<string>();
    for (const slice of slices) {
      listed.add(uidOf(slice));
      const expected = tracked.get(uidOf(slice));
      if (expected !== undefined && (expected === DELETION_EXPECTED || expected > generationOf(slice))) return true;
    }
    for (const [uid, expected] of tracked) if (expected !== DELETION_EXPECTED && !listed.has(uid)) return true;
    return false;
  }

  /** A slice as the apiserver returned it from a create or update. */
  written(slice: KubeObject): void { this.slicesOf(slice).set(uidOf(slice), generationOf(slice)); }

  expectDeletion(slice: KubeObject): void { this.slicesOf(slice).set(uidOf(slice), DELETION_EXPECTED); }

  /** Forgets a slice the informer saw deleted; false if it was one of this controller's not expected to go. */
  handleDeletion(slice: KubeObject): boolean {
    const tracked = this.services.get(serviceOf(slice));
    const expected = tracked?.get(uidOf(slice));
    tracked?.delete(uidOf(slice));
    return expected === undefined || expected === DELETION_EXPECTED;
  }

  deleteService(key: string): void { this.services.delete(key); }

  private slicesOf(slice: KubeObject): Map<string, number> {
    const key = serviceOf(slice);
    let tracked = this.services.get(key);
    if (!tracked) this.services.set(key, (tracked = new Map()));
    return tracked;
  }
}

/**
 * The informer handlers of a controller managing slices as `manager` (upstream's onEndpointSlice{Add,Update,Delete}):
 * a service is queued for a slice of its own that it did not write as it is, one whose service-name label changed
 * (both services), one that came under or left `manager`, and one of its own deleted unexpectedly.
 */
export function sliceEventHandler(tracker: SliceTracker, manager: string, queue: (serviceKey: string) => void): EventHandler {
  const managed = (s: KubeObject): boolean => s.metadata?.labels?.[LABEL_MANAGED_BY] === manager;
  const enqueue = (s: KubeObject): void => {
    const service = s.metadata?.labels?.[LABEL_SERVICE_NAME];
    if (service) queue(`${s.metadata?.namespace ?? ''}/${service}`);
  };
  return {
    onAdd: (s) => { if (managed(s) && tracker.shouldSync(s)) enqueue(s); },
    onUpdate: (old, s) => {
      if (old.metadata?.labels?.[LABEL_SERVICE_NAME] !== s.metadata?.labels?.[LABEL_SERVICE_NAME]) {
        enqueue(s);
        enqueue(old);
      } else if (managed(old) !== managed(s) || (managed(s) && tracker.shouldSync(s))) {
        enqueue(s);
      }
    },
    onDelete: (o) => {
      const s = objOf(o);
      if (managed(s) && tracker.has(s) && !tracker.handleDeletion(s)) enqueue(s);
    },
  };
}
