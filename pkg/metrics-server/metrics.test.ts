import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../client/index.js';
import { serveResource, targetOf, type MetricsSources } from './api.js';
import { decodeBatch, podKey, type MetricsBatch } from './decode.js';
import { everyPeriod } from './server.js';
import { MetricsStorage } from './storage.js';
import { toTable, wantsTable } from './table.js';

const scrape = (at: number, cpuSeconds: { node: number; a: number; b: number }, startedAt = 0): string => `
# HELP container_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the container in core-seconds
# TYPE container_cpu_usage_seconds_total counter
container_cpu_usage_seconds_total{container="a",namespace="default",pod="p"} ${cpuSeconds.a} ${at}
container_cpu_usage_seconds_total{container="b",namespace="default",pod="p"} ${cpuSeconds.b} ${at}
container_cpu_usage_seconds_total{container="c",namespace="default",pod="half"} 1 ${at}
# TYPE container_memory_working_set_bytes gauge
container_memory_working_set_bytes{container="a",namespace="default",pod="p"} 1048576 ${at}
container_memory_working_set_bytes{container="b",namespace="default",pod="p"} 1000 ${at}
# TYPE container_start_time_seconds gauge
container_start_time_seconds{container="a",namespace="default",pod="p"} ${startedAt / 1000} ${at}
container_start_time_seconds{container="b",namespace="default",pod="p"} ${startedAt / 1000} ${at}
# TYPE node_cpu_usage_seconds_total counter
node_cpu_usage_seconds_total ${cpuSeconds.node} ${at}
# TYPE node_memory_working_set_bytes gauge
node_memory_working_set_bytes 2147483648 ${at}
`;

const T0 = 1_800_000_000_000;

describe('metrics-server', () => {
  it('decodes a kubelet\'s /metrics/resource, leaving out pods with an incomplete container', () => {
    const b = decodeBatch(scrape(T0, { node: 10, a: 1.5, b: 0.25 }, T0 - 60_000), T0 + 5, 'n1');
    expect(b.nodes.get('n1')).toEqual({ startTime: 0, timestamp: T0, cpuNanoSeconds: 10e9, memoryBytes: 2147483648 });
    expect(b.pods.get(podKey('default', 'p'))!.get('a')).toEqual({ startTime: T0 - 60_000, timestamp: T0, cpuNanoSeconds: 1.5e9, memoryBytes: 1048576 });
    // "half" has CPU but no memory figure: upstream drops the whole pod
    expect(b.pods.has(podKey('default', 'half'))).toBe(false);
    // samples without a timestamp are taken at the scrape's start
    expect(decodeBatch('node_cpu_usage_seconds_total 1\nnode_memory_working_set_bytes 5\n', 42, 'n').nodes.get('n')!.timestamp).toBe(42);
  });

  it('reports the CPU rate between the last two scrapes and the last memory, as canonical quantities', () => {
    const s = new MetricsStorage(15_000);
    const store = (b: MetricsBatch): void => s.store(b);
    store(decodeBatch(scrape(T0, { node: 10, a: 1, b: 1 }, T0 - 3_600_000), T0, 'n1'));
    expect(s.ready).toBe(true);
    expect(s.nodeUsage('n1')).toBeUndefined(); // one point is not a rate
    store(decodeBatch(scrape(T0 + 15_000, { node: 25, a: 1.75, b: 1 }, T0 - 3_600_000), T0 + 15_000, 'n1'));
    expect(s.nodeUsage('n1')).toEqual({ timestamp: T0 + 15_000, windowMs: 15_000, cpu: '1', memory: '2Gi' });
    const pod = s.podUsage(podKey('default', 'p'))!;
    expect(pod.windowMs).toBe(15_000);
    expect(pod.containers).toEqual([
      { name: 'a', usage: expect.objectContaining({ cpu: '50m', memory: '1Mi' }) },
      { name: 'b', usage: expect.objectContaining({ cpu: '0', memory: '1k' }) },
    ]);
    // a point no newer than the last one keeps the pair it had
    store(decodeBatch(scrape(T0 + 15_000, { node: 25, a: 1.75, b: 1 }, T0 - 3_600_000), T0 + 15_000, 'n1'));
    expect(s.nodeUsage('n1')?.cpu).toBe('1');
  });

  it('measures a container that started within the resolution from its start, after one scrape', () => {
    const s = new MetricsStorage(15_000);
    s.store(decodeBatch(scrape(T0, { node: 10, a: 2, b: 1 }, T0 - 12_000), T0, 'n1'));
    expect(s.podUsage(podKey('default', 'p'))!.containers.map((c) => [c.name, c.usage.cpu, c.usage.windowMs])).toEqual([['a', '166666666n', 12_000], ['b', '83333333n', 12_000]]);
  });

  it('serves NodeMetrics and PodMetrics with selectors, sorted, and upstream\'s not-found errors', () => {
    const s = new MetricsStorage(15_000);
    s.store(decodeBatch(scrape(T0, { node: 10, a: 1, b: 1 }, T0 - 3_600_000), T0, 'n1'));
    s.store(decodeBatch(scrape(T0 + 10_000, { node: 12, a: 2, b: 1 }, T0 - 3_600_000), T0 + 10_000, 'n1'));
    const node = (name: string, labels: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels } });
    const pods: KubeObject[] = [{ metadata: { name: 'p', namespace: 'default', labels: { app: 'x' } } }, { metadata: { name: 'gone', namespace: 'default' } }];
    const src: MetricsSources = {
      storage: s, nodes: () => [node('n2', { zone: 'b' }), node('n1', { zone: 'a' })], node: (n) => (n === 'n1' ? node('n1', { zone: 'a' }) : n === 'n2' ? node('n2', {}) : undefined),
      pods: () => pods, pod: (ns, n) => pods.find((p) => p.metadata!.namespace === ns && p.metadata!.name === n),
    };
    const q = (s = ''): URLSearchParams => new URLSearchParams(s);
    const get = (path: string, query = ''): KubeObject => serveResource(src, targetOf('GET', path, q(query)) as never, q(query), T0 + 20_000);
    const list = get('/apis/metrics.k8s.io/v1beta1/nodes');
    expect(list).toMatchObject({ kind: 'NodeMetricsList', apiVersion: 'metrics.k8s.io/v1beta1', metadata: {} });
    expect(list.items).toEqual([{
      kind: 'NodeMetrics', apiVersion: 'metrics.k8s.io/v1beta1', metadata: { name: 'n1', creationTimestamp: '2027-01-15T08:00:20Z', labels: { zone: 'a' } },
      timestamp: '2027-01-15T08:00:10Z', window: '10s', usage: { cpu: '200m', memory: '2Gi' },
    }]);
    expect(get('/apis/metrics.k8s.io/v1beta1/nodes', 'labelSelector=zone%3Db').items).toEqual([]);
    expect(() => get('/apis/metrics.k8s.io/v1beta1/nodes/n2')).toThrow('nodemetrics.metrics.k8s.io "n2" not found');
    expect(() => get('/apis/metrics.k8s.io/v1beta1/nodes/n9')).toThrow('node "n9" not found');
    expect(get('/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/p')).toMatchObject({ kind: 'PodMetrics', window: '10s', containers: [{ name: 'a', usage: { cpu: '100m', memory: '1Mi' } }, { name: 'b', usage: { cpu: '0', memory: '1k' } }] });
    expect(() => get('/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/gone')).toThrow('podmetrics.metrics.k8s.io "default/gone" not found');
    expect(() => get('/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/none')).toThrow('pods "none" not found');
    expect(get('/apis/metrics.k8s.io/v1beta1/pods', 'fieldSelector=metadata.name%3Dp').items).toHaveLength(1);
    expect(() => get('/apis/metrics.k8s.io/v1beta1/pods', 'fieldSelector=spec.nodeName%3Dn1')).toThrow('field label not supported: spec.nodeName');
    expect(() => serveResource(src, targetOf('DELETE', '/apis/metrics.k8s.io/v1beta1/nodes/n1', q()) as never, q())).toThrow('the server does not allow this method');
    expect(targetOf('GET', '/apis/metrics.k8s.io/v1beta1/pods', q('watch=true'))).toMatchObject({ verb: 'watch', resource: 'pods' });

    expect(wantsTable('application/json;as=Table;v=v1;g=meta.k8s.io,application/json')).toBe(true);
    expect(wantsTable('application/json')).toBe(false);
    expect(toTable(get('/apis/metrics.k8s.io/v1beta1/pods'), null)).toEqual({
      kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: {},
      columnDefinitions: [
        { name: 'Name', type: 'string', format: 'name', description: 'Name of the resource', priority: 0 },
        { name: 'cpu', type: 'string', format: 'quantity', description: '', priority: 0 },
        { name: 'memory', type: 'string', format: 'quantity', description: '', priority: 0 },
        { name: 'Window', type: 'string', format: 'duration', description: '', priority: 0 },
      ],
      rows: [{ cells: ['p', '100m', '1049576', '10s'], object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: expect.objectContaining({ name: 'p' }) } }],
    });
  });

  it('scrapes once per period and leaves no listener on the server\'s signal between scrapes', async () => {
    const ac = new AbortController();
    const listeners: number[] = [];
    await everyPeriod(ac.signal, 1, async () => {
      listeners.push(getEventListeners(ac.signal, 'abort').length);
      if (listeners.length === 20) ac.abort();
    });
    expect(listeners).toEqual(Array(20).fill(0));
  });
});
