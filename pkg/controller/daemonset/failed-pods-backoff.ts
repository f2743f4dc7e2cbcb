// The back-off between deletions of failed daemon pods on one node (upstream's failedPodsBackoff, a
// flowcontrol.Backoff of 1 s doubling up to 15 min): a DaemonSet whose pods the kubelet keeps rejecting does not
// delete and recreate them in a hot loop. Keys are "<ds uid>/<observedGeneration>/<node>", so a new template starts
// from the initial delay; an entry not stepped for twice the maximum is forgotten.
import type { Clock } from '../../client/index.js';

export const FAILED_POD_BACKOFF_INITIAL_MS = 1000;
export const FAILED_POD_BACKOFF_MAX_MS = 15 * 60 * 1000;

interface Entry { delayMs: number; lastUpdate: number }

export class FailedPodsBackoff {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly clock: Clock, private readonly initialMs = FAILED_POD_BACKOFF_INITIAL_MS, private readonly maxMs = FAILED_POD_BACKOFF_MAX_MS) {}

  private expired(e: Entry, now: number): boolean { return now - e.lastUpdate > 2 * this.maxMs; }

  /** Still waiting since the last step (upstream IsInBackOffSinceUpdate). */
  inBackoff(key: string): boolean {
    const e = this.entries.get(key);
    const now = this.clock.now();
    return !!e && !this.expired(e, now) && now - e.lastUpdate < e.delayMs;
  }

  /** The current delay of the key, 0 when it has none. */
  delay(key: string): number { return this.entries.get(key)?.delayMs ?? 0; }

  /** A deletion happens now: the first one waits the initial delay, each later one twice the one before. */
  next(key: string): void {
    const now = this.clock.now();
    for (const [k, e] of this.entries) if (this.expired(e, now)) this.entries.delete(k);
    const e = this.entries.get(key);
    this.entries.set(key, { delayMs: e ? Math.min(this.maxMs, e.delayMs * 2) : this.initialMs, lastUpdate: now });
  }
}
