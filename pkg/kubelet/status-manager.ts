// The status manager: the kubelet hands it the status it computed; it writes pods/NAME/status asynchronously and
// only when the API's copy differs (terminal phases never go back), and once a deleted pod's containers are all
// stopped and that final status is written, it deletes the pod with grace 0 so it leaves the API (upstream's
// status_manager.go: syncPod, canBeDeleted). Every 10 s its batch also puts back what someone else changed of the
// kubelet's part of a status (syncBatch's needsReconcile).
import type { Logger } from 'pino';
import { isConflict, isNotFound, resourceVersionOlder, WorkQueue, type Client, type KubeObject } from '../client/index.js';
import { KUBELET_CONDITIONS } from './pod-status.js';

export interface StatusManagerOptions {
  client: Client;
  logger: Logger;
  /** The API pod whose status the kubelet's pod (by uid) is written to: itself as the informer saw it, or a static pod's mirror. */
  getPod: (uid: string) => KubeObject | undefined;
  /** True once the kubelet stopped every container of a deleted pod. */
  canBeDeleted: (uid: string) => boolean;
  workers?: number;
  /** How often failed writes are tried again and changed statuses put back (upstream's syncBatch period, 10 s). */
  syncPeriodMs?: number;
}

type Json = Record<string, unknown>;
const isMap = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Equal as JSON where key order and null fields (lastProbeTime: null) do not count as differences. */
const same = (a: unknown, b: unknown): boolean => {
  if (a === b || (a ?? null) === (b ?? null)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  }
  if (!isMap(a) || !isMap(b)) return false;
  for (const k in a) if (!same(a[k], b[k])) return false;
  for (const k in b) if (!(k in a) && b[k] != null) return false;
  return true;
};

/** The API status has the kubelet's fields (those it sets) as the kubelet wants them. */
const hasOwned = (api: Json | undefined, want: Json): boolean => {
  for (const k in want) if (!same(api?.[k], want[k])) return false;
  return true;
};

interface Condition { type: string }
/** Upstream's PodConditionsByKubelet: the kubelet's own, and PodScheduled. */
const byKubelet = (c: Condition): boolean => KUBELET_CONDITIONS.includes(c.type) || c.type === 'PodScheduled';
/** Upstream's PodConditionSharedByKubelet: the kubelet writes it when it has one (an eviction's), others may too. */
const SHARED = 'DisruptionTarget';
const conditionsOf = (status: Json | undefined): Condition[] => (Array.isArray(status?.conditions) ? status.conditions as Condition[] : []);

/**
 * As upstream's mergePodStatus before a write: the kubelet's conditions, then the others as the API has them now
 * (set by someone else since the status was made, they are kept), a shared one of the kubelet's in its place.
 */
const withOthersConditions = (api: Json | undefined, want: Json): Json => {
  if (want.conditions == null) return want;
  const shared = conditionsOf(want).find((c) => c.type === SHARED);
  const others = conditionsOf(api).filter((c) => !byKubelet(c)).map((c) => (c.type === shared?.type ? shared : c));
  if (shared && !others.includes(shared)) others.push(shared);
  return { ...want, conditions: [...conditionsOf(want).filter(byKubelet), ...others] };
};

/** Upstream's isPodStatusByKubeletEqual: the same status but for the conditions the kubelet does not write. */
const sameByKubelet = (api: Json | undefined, want: Json): boolean => {
  const { conditions: _api, ...apiRest } = api ?? {};
  const { conditions: _want, ...wantRest } = want;
  const writes = conditionsOf(want).some((c) => c.type === SHARED);
  const owned = (s: Json | undefined): Condition[] => conditionsOf(s).filter((c) => byKubelet(c) || (writes && c.type === SHARED))
    .sort((a, b) => a.type.localeCompare(b.type));
  return hasOwned(apiRest, wantRest) && same(owned(api), owned(want));
};

export class StatusManager {
  private readonly statuses = new Map<string, Record<string, unknown>>();
  private readonly queue = new WorkQueue<string>();
  private readonly deleting = new Set<string>();
  /** What this manager last wrote per pod and the resourceVersion it got (upstream's apiStatusVersions). */
  private readonly written = new Map<string, { status: Json; resourceVersion?: string }>();
  private running?: Promise<void>;
  /** Pods whose last write failed: tried again by the next batch (or their next status). */
  private readonly failed = new Set<string>();
  private batch?: NodeJS.Timeout;

  constructor(private readonly o: StatusManagerOptions) {}

  /** Records the status the kubelet wants for the pod; it is written in the background. */
  setPodStatus(uid: string, status: Record<string, unknown>): void {
    this.statuses.set(uid, status);
    this.queue.add(uid);
  }

  /** The status last given for the pod. */
  getPodStatus(uid: string): Record<string, unknown> | undefined { return this.statuses.get(uid); }

  /** Asks for a check of the pod (status written? deletable?) without a new status. */
  poke(uid: string): void { this.queue.add(uid); }

  forget(uid: string): void { this.statuses.delete(uid); this.deleting.delete(uid); this.written.delete(uid); this.failed.delete(uid); }

  start(): void {
    this.running ??= Promise.all(Array.from({ length: this.o.workers ?? 4 }, () => this.worker())).then(() => undefined);
    this.batch ??= setInterval(() => this.syncBatch(), this.o.syncPeriodMs ?? 10_000).unref();
  }

  /** Failed writes again, and the pods whose API status someone else changed where the kubelet owns it. */
  private syncBatch(): void {
    for (const uid of this.failed) this.queue.add(uid);
    for (const [uid, status] of this.statuses) {
      if (this.failed.has(uid)) continue;
      const pod = this.o.getPod(uid);
      const last = this.written.get(uid);
      // an informer copy older than our last write says nothing of what the API has
      if (!pod || (last && resourceVersionOlder(pod.metadata?.resourceVersion, last.resourceVersion))) continue;
      if (!sameByKubelet(pod.status as Json | undefined, status)) this.queue.add(uid);
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.batch);
    this.queue.shutDown();
    await this.running;
  }

  private async worker(): Promise<void> {
    for (;;) {
      const { item, shutdown } = await this.queue.get();
      if (shutdown) return;
      try {
        await this.sync(item);
        this.failed.delete(item);
      } catch (err) {
        // as upstream's syncPod: logged, and left to the periodic batch or the pod's next status (no hot loop
        // while the apiserver is away)
        if (isNotFound(err)) this.failed.delete(item);
        else {
          this.failed.add(item);
          const pod = this.o.getPod(item)?.metadata;
          this.o.logger.info({ pod: pod && `${pod.namespace}/${pod.name}`, err: (err as Error).message }, 'Failed to update status for pod');
        }
      } finally {
        this.queue.done(item);
      }
    }
  }

  private async sync(uid: string): Promise<void> {
    const pod = this.o.getPod(uid);
    const wanted = this.statuses.get(uid);
    if (!pod || !wanted) return;
    const ns = pod.metadata!.namespace!;
    const name = pod.metadata!.name!;
    const pods = this.o.client.pods(ns);
    // The informer's copy may not show our last write yet: then that write is what the API has.
    // (The kubelet hands over a new status object per sync and never writes into one it gave.)
    const last = this.written.get(uid);
    const stale = last && resourceVersionOlder(pod.metadata?.resourceVersion, last.resourceVersion);
    const status = stale ? wanted : withOthersConditions(pod.status as Json | undefined, wanted);
    const upToDate = stale ? same(last.status, status) : hasOwned(pod.status as Json | undefined, status);
    if (!upToDate) {
      const { resourceVersion } = await pods.patchMeta(name, 'merge', { metadata: { uid: pod.metadata!.uid }, status }, { subresource: 'status' });
      this.written.set(uid, { status, resourceVersion });
      this.o.logger.debug({ pod: `${ns}/${name}`, phase: status.phase }, 'status for pod updated');
    }
    if (pod.metadata?.deletionTimestamp && this.o.canBeDeleted(uid) && !this.deleting.has(uid)) {
      this.deleting.add(uid);
      try {
        await pods.delete(name, { gracePeriodSeconds: 0, preconditions: { uid } });
        this.o.logger.info({ pod: `${ns}/${name}` }, 'pod fully terminated and removed from etcd');
      } catch (err) {
        this.deleting.delete(uid);
        if (!isNotFound(err) && !isConflict(err)) throw err;
      }
    }
  }
}
