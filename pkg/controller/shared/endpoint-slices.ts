// Writing a service's EndpointSlices, shared by the EndpointSlice controller (slices from pods) and the mirroring
// controller (slices from a selector-less service's Endpoints): slices are matched to the wanted ones by their
// ports (else any leftover is reused), updated when they differ, created when missing, deleted when unwanted; each
// write is recorded in the controller's SliceTracker (./slice-tracker.ts), which tells a sync when its cache is stale.
// A failed write is told in the words of upstream's reconcilers (finalize).
import { LABEL_MANAGED_BY, LABEL_SERVICE_NAME } from '../../../api/discovery/v1/index.js';
import type { KubeObject } from '../../../api/types.js';
import { isNotFound, type Lister, type OwnerReference, type ResourceClient } from '../../client/index.js';
import { canonicalJson } from './controller-utils.js';
import { isGoneOrTerminating } from './errors.js';
import type { SliceTracker } from './slice-tracker.js';


export interface WantedSlice {
  addressType: string;
  endpoints: unknown[];
  ports: unknown[];
}

const ignoreNotFound = (e: unknown): void => { if (!isNotFound(e)) throw e; };

/** The slices of one service that one manager owns, by name. */
export const managedSlices = (slices: Lister<KubeObject>, namespace: string, service: string, manager: string): KubeObject[] =>
  slices.namespace(namespace).list()
    .filter((s) => s.metadata?.labels?.[LABEL_SERVICE_NAME] === service && s.metadata?.labels?.[LABEL_MANAGED_BY] === manager)
    .sort((a, b) => a.metadata!.name!.localeCompare(b.metadata!.name!));

export interface SliceWrite {
  client: ResourceClient;
  signal: AbortSignal;
  /** The service's name: new slices are named after it. */
  service: string;
  namespace: string;
  labels: Record<string, string>;
  owner: OwnerReference;
  /** The owner has a deletionTimestamp: no slice is created, lest the garbage collector delete what is created meanwhile. */
  ownerDeleting: boolean;
  existing: KubeObject[];
  wanted: WantedSlice[];
  /** Told of every slice written or deleted. */
  tracker: SliceTracker;
  /** The annotations of a slice being created or updated (an unchanged slice is not written for them). */
  annotate?(current: Record<string, string> | undefined): Record<string, string>;
  /** Whether a slice's annotations are as wanted; one whose are not is written even when nothing else changed. */
  annotated?(current: Record<string, string> | undefined): boolean;
}

/**
 * A write's failure, a gone or terminating object aside, as upstream's finalize words it: "failed to update S
 * EndpointSlice for Service NS/N: ..." (for Endpoints NS/N when mirroring). Not worded while stopping.
 */
const worded = (w: SliceWrite, verb: 'create' | 'update' | 'delete', slice?: string) => (err: unknown): void => {
  if (isGoneOrTerminating(err)) return;
  if (w.signal.aborted) throw err;
  const message = err instanceof Error ? err.message : String(err);
  throw new Error(`failed to ${verb} ${slice ? `${slice} ` : ''}EndpointSlice for ${w.owner.kind} ${w.namespace}/${w.owner.name}: ${message}`);
};

/**
 * Brings `existing` to `wanted`, all writes at once (but the creates of an owner being deleted, as upstream's
 * finalize); rejects with the first failure in upstream's order (its creates, then its updates, then its deletes,
 * each stopping at the first failure).
 */
export async function writeSlices(w: SliceWrite): Promise<void> {
  const unused = [...w.existing];
  const creates: Promise<unknown>[] = [];
  const updates: Promise<unknown>[] = [];
  for (const body of w.wanted) {
    let i = unused.findIndex((s) => s.addressType === body.addressType && canonicalJson(s.ports ?? []) === canonicalJson(body.ports));
    if (i < 0 && unused.length > w.wanted.length - 1) i = 0;
    if (i >= 0) {
      const [s] = unused.splice(i, 1) as [KubeObject];
      if (canonicalJson({ addressType: s.addressType, endpoints: s.endpoints ?? [], ports: s.ports ?? [] }) === canonicalJson(body)
        && canonicalJson(s.metadata?.labels) === canonicalJson(w.labels) && (w.annotated?.(s.metadata?.annotations) ?? true)) continue;
      const annotations = w.annotate ? { annotations: w.annotate(s.metadata?.annotations) } : {};
      updates.push(w.client.update({ ...s, ...body, metadata: { ...s.metadata, labels: w.labels, ...annotations } }, { signal: w.signal })
        .then((updated) => w.tracker.written(updated), worded(w, 'update', s.metadata!.name)));
    } else if (!w.ownerDeleting) {
      creates.push(w.client.create({
        apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
        metadata: {
          generateName: `${w.service}-`, namespace: w.namespace, labels: w.labels, ...(w.annotate ? { annotations: w.annotate(undefined) } : {}), ownerReferences: [w.owner],
        },
        ...body,
      }, { signal: w.signal }).then((created) => w.tracker.written(created), worded(w, 'create')));
    }
  }
  const deletes = unused.map((s) => w.client.delete(s.metadata!.name!, { signal: w.signal }).then(() => w.tracker.expectDeletion(s), worded(w, 'delete', s.metadata!.name)));
  const results = await Promise.allSettled([...creates, ...updates, ...deletes]);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Deletes the given slices (a service that lost what they mirrored). */
export const deleteSlices = async (client: ResourceClient, slices: KubeObject[], signal: AbortSignal): Promise<void> => {
  await Promise.all(slices.map((s) => client.delete(s.metadata!.name!, { signal }).catch(ignoreNotFound)));
};
