// The watch cache's history: the last `capacity` events of its prefix, oldest overwritten first.
import type { StoreEvent } from '../interface.js';

export class EventRing {
  private readonly buf: StoreEvent[] = [];
  private start = 0;
  /** A watch from this revision or newer is replayed exactly: every later event is still here. */
  oldestResumable: number;

  constructor(
    private readonly capacity: number,
    startRevision: number,
  ) {
    this.oldestResumable = startRevision;
  }

  push(ev: StoreEvent): void {
    if (this.buf.length < this.capacity) {
      this.buf.push(ev);
      return;
    }
    this.oldestResumable = this.buf[this.start].revision;
    this.buf[this.start] = ev;
    this.start = (this.start + 1) % this.capacity;
  }

  /** Events with revision > `revision`, oldest first. */
  *since(revision: number): Generator<StoreEvent> {
    const n = this.buf.length;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.at(mid).revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < n; i++) yield this.at(i);
  }

  private at(i: number): StoreEvent {
    return this.buf[(this.start + i) % this.buf.length];
  }
}
