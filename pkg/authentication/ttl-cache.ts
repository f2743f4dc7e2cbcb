// A bounded map of answers, each kept until its own deadline: the webhook caches, the token cache and the cache of
// verified client-certificate chains.

/** Answers kept until their own deadline; the oldest entry goes when the cache is full. */
export class TtlCache<V> {
  private readonly entries = new Map<string, { until: number; value: V }>();

  constructor(private readonly now: () => number = Date.now, private readonly max = 10_000) {}

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.until > this.now()) return e.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: V, ttlMs: number): void {
    if (ttlMs <= 0) return;
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { until: this.now() + ttlMs, value });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
