// The loop of every controller: workers take an item, reconcile it, forget it on success and requeue it with the
// queue's per-item backoff on failure (an item is never held by two workers); they return once the queue shuts down.
import type { RateLimitingQueue } from './rate-limiting.js';

export interface WorkerOptions<T> {
  /** How many items are reconciled at once (default 1). */
  workers?: number;
  /** Hears each failure before the item is requeued (log it); return false to drop the item instead. */
  onError?(err: unknown, item: T): boolean | void;
}

export async function runWorkers<T>(queue: RateLimitingQueue<T>, reconcile: (item: T) => Promise<void>, o: WorkerOptions<T> = {}): Promise<void> {
  const worker = async (): Promise<void> => {
    for (;;) {
      const { item, shutdown } = await queue.get();
      if (shutdown) return;
      try {
        await reconcile(item);
        queue.forget(item);
      } catch (err) {
        if (o.onError?.(err, item) === false) queue.forget(item);
        else queue.addRateLimited(item);
      } finally {
        queue.done(item);
      }
    }
  };
  await Promise.all(Array.from({ length: o.workers ?? 1 }, worker));
}
