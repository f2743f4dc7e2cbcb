// The kubelet's back-offs (container restarts, image pulls), as client-go's flowcontrol.Backoff, which upstream's
// kubelet makes without jitter (NewBackOff(backOffPeriod, MaxContainerBackOff): 10 s, 5 min): per key a delay from
// the initial one doubling to the cap at each next(); an event more than twice the cap after the last next() finds
// the key stable (hasExpired), so it is not in back-off and its next() starts over; gc() forgets the keys not moved
// on for that long.
import type { Clock } from '../client/index.js';

interface Entry { delayMs: number; lastUpdate: number }

export class Backoff {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly initialMs: number, private readonly maxMs: number, private readonly clock: Clock) {}

  /** The key's delay now; 0 without one. */
  get(key: string): number { return this.entries.get(key)?.delayMs ?? 0; }

  /** Moves the key's delay on for a failure at `eventTime` (ms): doubled, or the initial one for a new or stable key. */
  next(key: string, eventTime: number): void {
    const entry = this.entries.get(key);
    const delayMs = !entry || this.expired(entry, eventTime) ? this.initialMs : Math.min(entry.delayMs * 2, this.maxMs);
    this.entries.set(key, { delayMs, lastUpdate: this.clock.now() });
  }

  /** Less than the key's delay has passed since `eventTime` (upstream's IsInBackOffSince: a container's exit). */
  isInBackOffSince(key: string, eventTime: number): boolean {
    const entry = this.entries.get(key);
    return entry !== undefined && !this.expired(entry, eventTime) && this.clock.now() - eventTime < entry.delayMs;
  }

  /** Less than the key's delay has passed between its last next() and `eventTime` (IsInBackOffSinceUpdate: a pull). */
  isInBackOffSinceUpdate(key: string, eventTime: number): boolean {
    const entry = this.entries.get(key);
    return entry !== undefined && !this.expired(entry, eventTime) && eventTime - entry.lastUpdate < entry.delayMs;
  }

  /** Forgets the keys not moved on for more than twice the cap (upstream's GC, which housekeeping runs). */
  gc(): void {
    const now = this.clock.now();
    for (const [key, entry] of this.entries) if (now - entry.lastUpdate > 2 * this.maxMs) this.entries.delete(key);
  }

  /** Forgets the keys starting with `prefix` (a pod's, once it is gone). */
  forget(prefix: string): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  /** 'consider stable if it's ok for twice the maxDuration' */
  private expired(entry: Entry, eventTime: number): boolean { return eventTime - entry.lastUpdate > 2 * this.maxMs; }
}
