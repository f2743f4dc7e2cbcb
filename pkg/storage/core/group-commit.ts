// Group commit: while one batch is being made durable, new writes queue; the next batch takes all of them,
// so concurrent writers share one fsync. Batches are written one at a time, so durability follows revision order.
import { StorageError } from '../errors.js';
import type { KeyValue, StoreEvent } from '../interface.js';

interface Pending {
  ev: StoreEvent;
  resolve: (kv: KeyValue) => void;
  reject: (err: Error) => void;
}

export class GroupCommit {
  private queue: Pending[] = [];
  private draining: Promise<void> | undefined;
  private broken: Error | undefined;

  constructor(
    private readonly append: (batch: readonly StoreEvent[]) => Promise<void>,
    /** Called synchronously once a batch is durable, before its writers are acknowledged. */
    private readonly applied: (batch: readonly StoreEvent[]) => void,
    /** Called once if a batch fails: the in-memory view ran ahead of the disk and the store must stop writing. */
    private readonly failed: (err: Error) => void,
  ) {}

  submit(ev: StoreEvent): Promise<KeyValue> {
    return new Promise<KeyValue>((resolve, reject) => {
      if (this.broken) return reject(this.broken);
      this.queue.push({ ev, resolve, reject });
      this.draining ??= this.drain();
    });
  }

  /** Resolves when everything submitted so far has been written (or failed). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    // Yield once so that writers arriving in the same tick share the first batch too.
    await null;
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      const events = batch.map((p) => p.ev);
      try {
        await this.append(events);
      } catch (err) {
        this.fail(batch, err as Error);
        break;
      }
      this.applied(events);
      for (const p of batch) p.resolve(p.ev.kv);
    }
    // Cleared synchronously with the last queue check, so a later submit always starts a new drain.
    this.draining = undefined;
  }

  private fail(batch: Pending[], cause: Error): void {
    this.broken = new StorageError('Unavailable', '', `storage write failed: ${cause.message}`);
    const lost = [...batch, ...this.queue];
    this.queue = [];
    for (const p of lost) p.reject(this.broken);
    this.failed(this.broken);
  }
}
