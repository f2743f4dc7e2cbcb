// The metrics an autoscaler reads, as upstream's podautoscaler/metrics/client.go: pod and container usage from the
// resource metrics API (metrics.k8s.io, metrics-server), per-pod and per-object metrics from the custom metrics API
// (custom.metrics.k8s.io, an adapter such as prometheus-adapter; the version its discovery prefers), and external
// metrics (external.metrics.k8s.io, KEDA and the like). Each is reached through the apiserver's aggregation layer.
import { labelSelectorAsSelector, type LabelSelector } from '../../apimachinery/labels.js';
import { parseGoDurationMs } from '../../apimachinery/duration.js';
import { isNotFound, type Client } from '../../client/index.js';
import { milliValue, type PodMetrics } from './replicas.js';

const RESOURCE_API = '/apis/metrics.k8s.io/v1beta1';
const CUSTOM_GROUP = 'custom.metrics.k8s.io';
const EXTERNAL_API = '/apis/external.metrics.k8s.io/v1beta1';
/** What a custom metric sample without windowSeconds covers (upstream metricServerDefaultMetricWindow). */
const DEFAULT_WINDOW_MS = 60_000;

interface PodMetricsItem { metadata: { name: string; namespace?: string }; timestamp: string; window?: string; containers?: { name: string; usage?: Record<string, string> }[] }
interface MetricValue { describedObject?: { name?: string }; timestamp: string; windowSeconds?: number; value: string }

export interface ObjectReference { apiVersion?: string; kind: string; name: string }

/** client-go's message for a 404 that carries no Status of the resource's own. */
const notServed = (err: Error, resource: string): string => (isNotFound(err) ? `the server could not find the requested resource (get ${resource})` : err.message);

const selectorString = (s: LabelSelector | undefined): string => labelSelectorAsSelector(s ?? {}).toString();

export class MetricsClient {
  constructor(private readonly client: Client, private readonly signal: AbortSignal, private readonly resourceOf: (ref: ObjectReference) => Promise<string>) {}

  private get<T>(path: string, query: Record<string, string> = {}): Promise<T> {
    const q = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== ''));
    return this.client.rest.request<T>({ method: 'GET', path, query: q, signal: this.signal });
  }

  /** Usage of `resource` per pod (summed over its containers, or of `container` alone) and the first sample's time. */
  async resourceMetric(resource: string, namespace: string, selector: string, container: string): Promise<{ metrics: PodMetrics; timestamp: number }> {
    const list = await this.get<{ items?: PodMetricsItem[] }>(`${RESOURCE_API}/namespaces/${encodeURIComponent(namespace)}/pods`, { labelSelector: selector })
      .catch((err: Error) => { throw new Error(`unable to fetch metrics from resource metrics API: ${notServed(err, 'pods.metrics.k8s.io')}`); });
    const items = list.items ?? [];
    if (!items.length) throw new Error('no metrics returned from resource metrics API');
    const metrics: PodMetrics = new Map();
    for (const m of items) {
      const sample = (value: number) => ({ timestamp: Date.parse(m.timestamp), windowMs: parseGoDurationMs(m.window ?? '') ?? 0, value });
      const containers = m.containers ?? [];
      if (container) {
        const c = containers.find((x) => x.name === container);
        if (!c) throw new Error(`failed to get container metrics: container ${container} not present in metrics for pod ${m.metadata.namespace ?? namespace}/${m.metadata.name}`);
        const usage = c.usage?.[resource];
        if (usage !== undefined) metrics.set(m.metadata.name, sample(milliValue(usage)));
        continue;
      }
      // a pod with a container missing the resource has no sample
      if (!containers.length || containers.some((c) => c.usage?.[resource] === undefined)) continue;
      metrics.set(m.metadata.name, sample(containers.reduce((a, c) => a + milliValue(c.usage![resource]!), 0)));
    }
    return { metrics, timestamp: Date.parse(items[0]!.timestamp) };
  }

  private customVersion?: string;

  /** The custom metrics API's path, at the version its discovery prefers (client-go's custom metrics client). */
  private async customApi(): Promise<string> {
    if (!this.customVersion) {
      const groups = await this.get<{ groups?: { name: string; preferredVersion?: { version: string }; versions?: { version: string }[] }[] }>('/apis');
      const group = groups.groups?.find((g) => g.name === CUSTOM_GROUP);
      if (!group) throw new Error(`no custom metrics API (${CUSTOM_GROUP}) registered`);
      const known = ['v1beta2', 'v1beta1'];
      const version = known.includes(group.preferredVersion?.version ?? '') ? group.preferredVersion!.version : group.versions?.map((v) => v.version).find((v) => known.includes(v));
      if (!version) throw new Error('no known available metric versions found');
      this.customVersion = version;
    }
    return `/apis/${CUSTOM_GROUP}/${this.customVersion}`;
  }

  /** A custom metric of every pod the selector picks (Pods metrics). */
  async podsMetric(metricName: string, namespace: string, selector: string, metricSelector: LabelSelector | undefined): Promise<{ metrics: PodMetrics; timestamp: number }> {
    const list = await this.customApi()
      .then((api) => this.get<{ items?: MetricValue[] }>(`${api}/namespaces/${encodeURIComponent(namespace)}/pods/*/${encodeURIComponent(metricName)}`, { labelSelector: selector, metricLabelSelector: selectorString(metricSelector) }))
      .catch((err: Error) => { throw new Error(`unable to fetch metrics from custom metrics API: ${err.message}`); });
    const items = list.items ?? [];
    if (!items.length) throw new Error('no metrics returned from custom metrics API');
    const metrics: PodMetrics = new Map(items.map((m) => [m.describedObject?.name ?? '', {
      timestamp: Date.parse(m.timestamp), windowMs: m.windowSeconds !== undefined ? m.windowSeconds * 1000 : DEFAULT_WINDOW_MS, value: milliValue(m.value),
    }]));
    return { metrics, timestamp: Date.parse(items[0]!.timestamp) };
  }

  /** A custom metric of one object (Object metrics); a Namespace's is the namespace's own. */
  async objectMetric(metricName: string, namespace: string, ref: ObjectReference, metricSelector: LabelSelector | undefined): Promise<{ value: number; timestamp: number }> {
    const query = { metricLabelSelector: selectorString(metricSelector) };
    const item = await (async () => {
      const api = await this.customApi();
      const ns = encodeURIComponent(namespace);
      const path = ref.kind === 'Namespace' && !(ref.apiVersion ?? 'v1').includes('/')
        ? `${api}/namespaces/${ns}/metrics/${encodeURIComponent(metricName)}`
        : `${api}/namespaces/${ns}/${await this.resourceOf(ref)}/${encodeURIComponent(ref.name)}/${encodeURIComponent(metricName)}`;
      const list = await this.get<{ items?: MetricValue[] }>(path, query);
      const items = list.items ?? [];
      if (items.length !== 1) throw new Error(`the custom metrics API server returned ${items.length} results when we asked for exactly one`);
      return items[0]!;
    })().catch((err: Error) => { throw new Error(`unable to fetch metrics from custom metrics API: ${err.message}`); });
    return { value: milliValue(item.value), timestamp: Date.parse(item.timestamp) };
  }

  /** Every value of an external metric the selector picks. */
  async externalMetric(metricName: string, namespace: string, metricSelector: LabelSelector | undefined): Promise<{ values: number[]; timestamp: number }> {
    const list = await this.get<{ items?: { timestamp: string; value: string }[] }>(`${EXTERNAL_API}/namespaces/${encodeURIComponent(namespace)}/${encodeURIComponent(metricName)}`, { labelSelector: selectorString(metricSelector) })
      .catch((err: Error) => { throw new Error(`unable to fetch metrics from external metrics API: ${notServed(err, `${metricName}.external.metrics.k8s.io`)}`); });
    const items = list.items ?? [];
    if (!items.length) throw new Error('no metrics returned from external metrics API');
    return { values: items.map((m) => milliValue(m.value)), timestamp: Date.parse(items[0]!.timestamp) };
  }
}
