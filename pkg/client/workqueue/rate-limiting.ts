// The queue controllers use: addRateLimited(item) requeues after the rate limiter's delay for that item (backing
// off on repeated failures), forget(item) resets it after a success.
import { realClock, type Clock } from '../clock.js';
import { DelayingQueue } from './delaying.js';
import { workQueueMetricsFor, type WorkQueueMetrics } from './queue.js';
import { defaultControllerRateLimiter, type ItemRateLimiter } from './rate-limiters.js';

export interface RateLimitingQueueOptions<T> {
  rateLimiter?: ItemRateLimiter<T>;
  clock?: Clock;
  /** Names the queue's metrics (client-go's RateLimitingQueueConfig.Name): see setWorkQueueMetricsProvider. */
  name?: string;
  metrics?: WorkQueueMetrics;
}

export class RateLimitingQueue<T = string> extends DelayingQueue<T> {
  readonly rateLimiter: ItemRateLimiter<T>;

  constructor(o: RateLimitingQueueOptions<T> = {}) {
    const clock = o.clock ?? realClock;
    super(clock, workQueueMetricsFor(o.name, o.metrics));
    this.rateLimiter = o.rateLimiter ?? defaultControllerRateLimiter<T>(clock);
  }

  addRateLimited(item: T): void { this.addAfter(item, this.rateLimiter.when(item)); }
  forget(item: T): void { this.rateLimiter.forget(item); }
  numRequeues(item: T): number { return this.rateLimiter.numRequeues(item); }
}
