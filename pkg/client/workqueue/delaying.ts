// A work queue with addAfter: an item is queued once its delay has passed (the earliest of several requests wins),
// with one timer on the injected clock for the soonest item.
import { realClock, type Clock, type TimerHandle } from '../clock.js';
import { WorkQueue, type WorkQueueMetrics } from './queue.js';

interface Waiting<T> { item: T; at: number }

export class DelayingQueue<T = string> extends WorkQueue<T> {
  private readonly heap: Waiting<T>[] = [];
  private readonly waitingAt = new Map<T, number>();
  private timer?: { at: number; handle: TimerHandle };

  constructor(protected readonly clock: Clock = realClock, metrics: WorkQueueMetrics = {}) {
    super(metrics, () => clock.now());
  }

  /** Queues the item after `delayMs` (at once when <= 0); counted as a retry in the queue's metrics. */
  addAfter(item: T, delayMs: number): void {
    if (this.shuttingDown()) return;
    this.metrics.retries?.(); // as client-go's: every addAfter counts
    if (delayMs <= 0) { this.add(item); return; }
    const at = this.clock.now() + delayMs;
    const current = this.waitingAt.get(item);
    if (current !== undefined && current <= at) return;
    this.waitingAt.set(item, at);
    heapPush(this.heap, { item, at });
    this.arm();
  }

  /** Items waiting for their delay. */
  waiting(): number { return this.waitingAt.size; }

  override shutDown(): void {
    this.timer?.handle.cancel();
    this.timer = undefined;
    super.shutDown();
  }

  private arm(): void {
    const next = this.heap[0];
    if (!next) return;
    if (this.timer && this.timer.at <= next.at) return;
    this.timer?.handle.cancel();
    this.timer = { at: next.at, handle: this.clock.setTimer(() => this.fire(), next.at - this.clock.now()) };
  }

  private fire(): void {
    this.timer = undefined;
    const now = this.clock.now();
    while (this.heap.length > 0 && this.heap[0]!.at <= now) {
      const w = heapPop(this.heap)!;
      if (this.waitingAt.get(w.item) !== w.at) continue; // superseded by an earlier request
      this.waitingAt.delete(w.item);
      this.add(w.item);
    }
    this.arm();
  }
}

const heapPush = <T>(h: Waiting<T>[], x: Waiting<T>): void => {
  h.push(x);
  let i = h.length - 1;
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (h[p]!.at <= h[i]!.at) break;
    [h[p], h[i]] = [h[i]!, h[p]!];
    i = p;
  }
};

const heapPop = <T>(h: Waiting<T>[]): Waiting<T> | undefined => {
  const top = h[0];
  const last = h.pop();
  if (h.length > 0 && last) {
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < h.length && h[l]!.at < h[m]!.at) m = l;
      if (r < h.length && h[r]!.at < h[m]!.at) m = r;
      if (m === i) break;
      [h[m], h[i]] = [h[i]!, h[m]!];
      i = m;
    }
  }
  return top;
};
