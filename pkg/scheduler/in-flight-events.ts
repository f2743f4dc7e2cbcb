// The cluster events seen while pods are in flight (popped, not yet done), as upstream's inFlightEvents: one list
// shared by every in-flight pod, each remembering where it started, so that an event costs one append however many
// pods are being scheduled or bound (a list per pod cost one append per in-flight pod: up to 256 with bindings out).
// Events are only kept while some pod is in flight, and only back to the oldest one's start.
import type { ClusterEventObjects } from './framework/interface.js';

export class InFlightEvents {
  private events: ClusterEventObjects[] = [];
  /** Sequence number of events[0]. */
  private base = 0;
  /** Pod key → sequence number of the first event it sees; insertion order is start order, the oldest first. */
  private readonly starts = new Map<string, number>();

  /** The pod was popped: it sees the events recorded from now on. */
  start(key: string): void {
    this.starts.delete(key);
    this.starts.set(key, this.base + this.events.length);
  }

  has(key: string): boolean {
    return this.starts.has(key);
  }

  record(e: ClusterEventObjects): void {
    if (this.starts.size > 0) this.events.push(e);
  }

  /** The pod is done: the events recorded since its start (none for a pod not in flight). */
  finish(key: string): ClusterEventObjects[] {
    const from = this.starts.get(key);
    if (from === undefined) return [];
    this.starts.delete(key);
    const seen = this.events.slice(from - this.base);
    this.prune();
    return seen;
  }

  /** How many events are kept (for tests). */
  get size(): number {
    return this.events.length;
  }

  /** Drops the events no pod in flight can see any more; in bulk, once they are half of the list. */
  private prune(): void {
    const oldest = this.starts.values().next();
    if (oldest.done) {
      this.base += this.events.length;
      this.events = [];
      return;
    }
    const drop = oldest.value - this.base;
    if (drop > 0 && drop * 2 >= this.events.length) {
      this.events = this.events.slice(drop);
      this.base += drop;
    }
  }
}
