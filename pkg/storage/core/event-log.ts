// The kept event records in memory, oldest first: what a watch from an old revision replays.
// Every write has its own revision, so the log is sorted; compaction drops a prefix of it.
import type { StoreEvent } from '../interface.js';

export class EventLog {
  private events: StoreEvent[];
  /** Index of the oldest kept event; the dropped prefix is spliced away in bulk, not per compaction. */
  private head = 0;

  constructor(initial: StoreEvent[] = []) {
    this.events = initial;
  }

  push(ev: StoreEvent): void {
    this.events.push(ev);
  }

  get size(): number {
    return this.events.length - this.head;
  }

  /** Events with revision > `revision`, in order. */
  *since(revision: number): Generator<StoreEvent> {
    for (let i = this.firstAfter(revision); i < this.events.length; i++) yield this.events[i];
  }

  /** Forget events with revision <= `revision`. */
  compact(revision: number): void {
    this.head = this.firstAfter(revision);
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
  }

  private firstAfter(revision: number): number {
    let lo = this.head;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.events[mid].revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
