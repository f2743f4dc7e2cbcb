// Pod workers, as upstream's pod_workers.go: every pod has its own serial lane; an update arriving while the pod is
// being synced is coalesced into one more sync right after. Pods never wait for one another. An update may cancel the
// sync in progress (its signal aborts), as upstream's cancelFn: a kill whose grace period was shortened starts over.
import type { Logger } from 'pino';
import { waitAtMost, type Clock, type TimerHandle } from '../client/index.js';

interface Lane {
  busy: boolean;
  again: boolean;
  timer?: TimerHandle;
  timerAt?: number;
  done?: Promise<void>;
  /** Aborts the sync in progress. */
  abort?: AbortController;
  /** Forgotten during its sync: the lane goes once that sync is over. */
  forgotten?: boolean;
}

export class PodWorkers {
  private readonly lanes = new Map<string, Lane>();
  private closed = false;

  constructor(private readonly sync: (uid: string, signal: AbortSignal) => Promise<void>, private readonly clock: Clock, private readonly logger: Logger,
    private readonly retryMs = 1000) {}

  /**
   * Syncs the pod soon (once more if it is being synced now). `cancel`: the sync in progress is told to give up, so
   * that the next starts at once (upstream's UpdatePod when a pod becomes terminating or its grace period shortens).
   */
  update(uid: string, cancel = false): void {
    if (this.closed) return;
    let lane = this.lanes.get(uid);
    if (!lane) { lane = { busy: false, again: false }; this.lanes.set(uid, lane); }
    if (lane.busy) {
      lane.again = true;
      lane.forgotten = false; // wanted again (a static pod's manifest restored: the same uid)
      if (cancel) lane.abort?.abort(new PodSyncCancelled(uid));
      return;
    }
    lane.busy = true;
    lane.done = this.run(uid, lane);
  }

  /** Syncs the pod after `ms` (the earliest of several requests wins). */
  updateAfter(uid: string, ms: number): void {
    if (this.closed) return;
    let lane = this.lanes.get(uid);
    if (!lane) { lane = { busy: false, again: false }; this.lanes.set(uid, lane); }
    const at = this.clock.now() + ms;
    if (lane.timer && lane.timerAt! <= at) return;
    lane.timer?.cancel();
    lane.timerAt = at;
    lane.timer = this.clock.setTimer(() => { lane.timer = undefined; lane.timerAt = undefined; this.update(uid); }, ms);
  }

  /**
   * Drops the pod's lane; called from its own sync (the kubelet's, once a removed pod is gone), the lane goes when
   * that sync is over, and the updates queued before the call sync nothing more.
   */
  forget(uid: string): void {
    const lane = this.lanes.get(uid);
    if (!lane) return;
    lane.timer?.cancel();
    lane.timer = lane.timerAt = undefined;
    if (!lane.busy) { this.lanes.delete(uid); return; }
    lane.forgotten = true;
    lane.again = false;
  }

  /**
   * No more syncs; the ones running get `graceMs` to finish. A pod being killed is not waited for through its
   * termination grace period: upstream's kubelet exits on SIGTERM at once, and the next one picks the kill up again.
   */
  async close(graceMs: number): Promise<void> {
    this.closed = true;
    for (const lane of this.lanes.values()) lane.timer?.cancel();
    await waitAtMost(this.clock, Promise.all([...this.lanes.values()].map((l) => l.done)), graceMs);
  }

  private async run(uid: string, lane: Lane): Promise<void> {
    try {
      do {
        lane.again = false;
        const abort = (lane.abort = new AbortController());
        try {
          await this.sync(uid, abort.signal);
        } catch (err) {
          if (abort.signal.aborted && err === abort.signal.reason) continue; // the next update is the lane's again
          this.logger.warn({ err, podUid: uid }, 'error syncing pod, will retry');
          this.updateAfter(uid, this.retryMs);
        }
      } while (lane.again && !this.closed);
    } finally {
      lane.busy = false;
      lane.abort = undefined;
      if (lane.forgotten && this.lanes.get(uid) === lane) this.lanes.delete(uid);
    }
  }
}

/** What a cancelled sync rejects with. */
export class PodSyncCancelled extends Error {
  constructor(uid: string) { super(`sync of pod ${uid} cancelled`); }
}
