// Counters and histograms for the scheduler's hot paths, served through a prom-client Registry. A child is resolved
// once (labels(...)) and kept; updating it is plain arithmetic (a histogram's bucket search and three additions),
// where prom-client's own children check and hash their labels and allocate on every update (~0.3–0.5 µs each,
// measured). The registry reads them only when scraped, through the get() it reads its own metrics with.
import type { Metric, Registry } from 'prom-client';

/** upstream's ExponentialBuckets: `count` bounds from `start`, each `factor` times the last (multiplied as Go does). */
export const exponentialBuckets = (start: number, factor: number, count: number): number[] => {
  const out: number[] = [];
  for (let i = 0, b = start; i < count; i++, b *= factor) out.push(b);
  return out;
};

export class HistogramChild {
  /** Observations per bucket, not cumulative; the last one is +Inf. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(v: number): void {
    const b = this.bounds;
    let i = 0;
    while (i < b.length && v > b[i]!) i++;
    this.counts[i]!++;
    this.sum += v;
    this.count++;
  }
}

export class CounterChild {
  value = 0;
  inc(n = 1): void { this.value += n; }
}

interface MetricValue { labels: Record<string, string | number>; value: number; metricName?: string }

abstract class Vec<C> {
  readonly aggregator = 'sum';
  private readonly children = new Map<string, { labels: Record<string, string>; child: C }>();
  private readonly hooks: (() => void)[] = [];

  constructor(readonly name: string, readonly help: string, readonly type: 'counter' | 'histogram', private readonly labelNames: readonly string[], registers: Registry[]) {
    // the registry keeps any object that answers get() as its own metrics do
    for (const r of registers) r.registerMetric(this as unknown as Metric);
  }

  /** The child of these label values (in labelNames order), made on first use: resolve it once and keep it. */
  labels(...values: string[]): C {
    if (values.length !== this.labelNames.length) throw new Error(`${this.name}: ${this.labelNames.length} label values expected, got ${values.length}`);
    const key = values.join('\u0000');
    let s = this.children.get(key);
    if (!s) {
      const labels: Record<string, string> = {};
      this.labelNames.forEach((n, i) => { labels[n] = values[i]!; });
      this.children.set(key, (s = { labels, child: this.make() }));
    }
    return s.child;
  }

  /** Runs before every read (series whose owners count them their own way bring them up to date). */
  beforeCollect(fn: () => void): void { this.hooks.push(fn); }

  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: MetricValue[] }> {
    for (const h of this.hooks) h();
    const values: MetricValue[] = [];
    for (const { labels, child } of this.children.values()) this.emit(labels, child, values);
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** Zeroes every child (their holders keep them). */
  reset(): void { for (const { child } of this.children.values()) this.zero(child); }

  protected abstract make(): C;
  protected abstract zero(c: C): void;
  protected abstract emit(labels: Record<string, string>, c: C, out: MetricValue[]): void;
}

export class CounterVec extends Vec<CounterChild> {
  constructor(o: { name: string; help: string; labelNames: readonly string[]; registers: Registry[] }) {
    super(o.name, o.help, 'counter', o.labelNames, o.registers);
  }
  protected make(): CounterChild { return new CounterChild(); }
  protected zero(c: CounterChild): void { c.value = 0; }
  protected emit(labels: Record<string, string>, c: CounterChild, out: MetricValue[]): void { out.push({ labels, value: c.value }); }
}

export class HistogramVec extends Vec<HistogramChild> {
  private readonly buckets: readonly number[];
  constructor(o: { name: string; help: string; labelNames: readonly string[]; buckets: number[]; registers: Registry[] }) {
    super(o.name, o.help, 'histogram', o.labelNames, o.registers);
    this.buckets = [...o.buckets].sort((a, b) => a - b);
  }
  protected make(): HistogramChild { return new HistogramChild(this.buckets); }
  protected zero(c: HistogramChild): void { c.counts.fill(0); c.sum = 0; c.count = 0; }
  protected emit(labels: Record<string, string>, c: HistogramChild, out: MetricValue[]): void {
    const bucket = `${this.name}_bucket`;
    let acc = 0;
    this.buckets.forEach((le, i) => {
      acc += c.counts[i]!;
      out.push({ labels: { ...labels, le }, value: acc, metricName: bucket });
    });
    out.push({ labels: { ...labels, le: '+Inf' }, value: c.count, metricName: bucket });
    out.push({ labels, value: c.sum, metricName: `${this.name}_sum` });
    out.push({ labels, value: c.count, metricName: `${this.name}_count` });
  }
}
