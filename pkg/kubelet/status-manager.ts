// The status manager: the kubelet hands it the status it computed; it writes pods/NAME/status asynchronously and
// only when the API's copy differs (terminal phases never go back), and once a deleted pod's containers are all
// stopped and that final status is written, it deletes the pod with grace 0 so it leaves the API (upstream's
// status_manager.go: syncPod, canBeDeleted).
import type { Logger } from 'pino';
import { isConflict, isNotFound, resourceVersionOlder, WorkQueue, type Client, type KubeObject } from '../client/index.js';

export interface StatusManagerOptions {
  client: Client;
  logger: Logger;
  /** The API pod whose status the kubelet's pod (by uid) is written to: itself as the informer saw it, or a static pod's mirror. */
  getPod: (uid: string) => KubeObject | undefined;
  /** True once the kubelet stopped every container of a deleted pod. */
  canBeDeleted: (uid: string) => boolean;
  workers?: number;
  /** How often statuses that failed to be written are tried again (upstream's syncBatch period, 10 s). */
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
    this.batch ??= setInterval(() => { for (const uid of this.failed) this.queue.add(uid); }, this.o.syncPeriodMs ?? 10_000).unref();
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
    const status = this.statuses.get(uid);
    if (!pod || !status) return;
    const ns = pod.metadata!.namespace!;
    const name = pod.metadata!.name!;
    const pods = this.o.client.pods(ns);
    // The informer's copy may not show our last write yet: then that write is what the API has.
    // (The kubelet hands over a new status object per sync and never writes into one it gave.)
    const last = this.written.get(uid);
    const upToDate = last && resourceVersionOlder(pod.metadata?.resourceVersion, last.resourceVersion) ? same(last.status, status) : hasOwned(pod.status as Json | undefined, status);
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
