// Upstream's back-off of volume operations (nestedpendingoperations with exponentialbackoff): each volume's set-up
// fails on its own, and is not tried again until 500 ms after its failure, the wait doubling with each further one up
// to 2m2s; a success forgets it.
const INITIAL_MS = 500;
const MAX_MS = 122_000;

export class OperationBackoff {
  private readonly entries = new Map<string, { delayMs: number; retryAt: number }>();

  /** When the operation may run again, if that is later than `now`. */
  waitUntil(key: string, now: number): number | undefined {
    const e = this.entries.get(key);
    return e && now < e.retryAt ? e.retryAt : undefined;
  }

  /** The operation failed at `now`: when it may run again. */
  failed(key: string, now: number): number {
    const e = this.entries.get(key);
    const delayMs = e ? Math.min(e.delayMs * 2, MAX_MS) : INITIAL_MS;
    this.entries.set(key, { delayMs, retryAt: now + delayMs });
    return now + delayMs;
  }

  succeeded(key: string): void { this.entries.delete(key); }

  /** Forgets the operations whose keys start with `prefix` (a pod's). */
  forget(prefix: string): void {
    for (const k of this.entries.keys()) if (k.startsWith(prefix)) this.entries.delete(k);
  }
}
