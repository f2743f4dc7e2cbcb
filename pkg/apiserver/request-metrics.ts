// apiserver_request_total and apiserver_request_duration_seconds, counted on every resource request. prom-client's
// own counters and histograms validate and hash their labels on each call (a twentieth of a small GET); here a
// series is found by one string key and then only added to. The registry reads them when scraped, as it reads its
// own metrics (an object with get() and reset()).
import type { Metric, Registry } from 'prom-client';

interface RequestLabels {
  verb: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
}

interface Series {
  labels: RequestLabels;
  /** Observations per bucket (not cumulative: added up when read). */
  buckets: number[];
  sum: number;
  count: number;
  /** Requests per response code. */
  codes: Map<number, number>;
}

const REQUESTS = 'apiserver_request_total';
const LATENCY = 'apiserver_request_duration_seconds';

interface Value { value: number; labels: Record<string, string | number>; metricName?: string }

/** What prom-client's registry reads of a metric; the same shape as its classes' get(). */
const metric = (name: string, help: string, type: 'counter' | 'histogram', values: () => Value[], reset: () => void): Metric => ({
  name, help, type, aggregator: 'sum', reset,
  get: () => Promise.resolve({ name, help, type, aggregator: 'sum', values: values() }),
}) as unknown as Metric;

export class RequestMetrics {
  private readonly series = new Map<string, Series>();

  constructor(registry: Registry, private readonly bounds: number[]) {
    const reset = (): void => this.series.clear();
    registry.registerMetric(metric(REQUESTS,
      'Counter of apiserver requests broken out for each verb, group, version, resource, subresource and HTTP response code.',
      'counter', () => [...this.series.values()].flatMap((s) => [...s.codes].map(([code, value]) => ({ value, labels: { ...s.labels, code: String(code) } }))), reset));
    registry.registerMetric(metric(LATENCY,
      'Response latency distribution in seconds for each verb, group, version, resource and subresource.',
      'histogram', () => [...this.series.values()].flatMap((s) => this.histogramValues(s)), reset));
  }

  observe(verb: string, group: string, version: string, resource: string, subresource: string, code: number, seconds: number): void {
    const key = `${verb} ${group} ${version} ${resource} ${subresource}`;
    let s = this.series.get(key);
    if (!s) {
      s = { labels: { verb, group, version, resource, subresource }, buckets: this.bounds.map(() => 0), sum: 0, count: 0, codes: new Map() };
      this.series.set(key, s);
    }
    s.codes.set(code, (s.codes.get(code) ?? 0) + 1);
    s.sum += seconds;
    s.count++;
    for (let b = 0; b < this.bounds.length; b++) {
      if (seconds <= this.bounds[b]!) {
        s.buckets[b]!++;
        break;
      }
    }
  }

  private histogramValues(s: Series): Value[] {
    let cumulative = 0;
    return [
      ...this.bounds.map((le, i) => ({ value: (cumulative += s.buckets[i]!), labels: { ...s.labels, le }, metricName: `${LATENCY}_bucket` })),
      { value: s.count, labels: { ...s.labels, le: '+Inf' }, metricName: `${LATENCY}_bucket` },
      { value: s.sum, labels: { ...s.labels }, metricName: `${LATENCY}_sum` },
      { value: s.count, labels: { ...s.labels }, metricName: `${LATENCY}_count` },
    ];
  }
}
