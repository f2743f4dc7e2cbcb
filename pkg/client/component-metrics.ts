// client-go's metrics as Prometheus series (upstream's component-base/metrics/prometheus/{restclient,workqueue,
// clientgo/leaderelection}): what a component built on this library serves on /metrics besides its own. Names, labels
// and help texts are upstream's (help prefixed with the stability level, as component-base prints it). Label children
// are cached by one string key: prom-client's label checks cost more than the hooks' callers do.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { withProcessMetrics } from './process-metrics.js';
import type { LeaderMetrics } from './leaderelection.js';
import type { ClientMetrics } from './metrics.js';
import type { UnfinishedWork, WorkQueueMetrics } from './workqueue/queue.js';

const cached = <C>(make: (key: string) => C): ((key: string) => C) => {
  const children = new Map<string, C>();
  return (key) => {
    let c = children.get(key);
    if (!c) children.set(key, (c = make(key)));
    return c;
  };
};

/** The rest client's requests: rest_client_requests_total{code,method,host}, rest_client_request_duration_seconds{verb,host}. */
export function restClientMetrics(registry: Registry): ClientMetrics {
  const results = new Counter({
    name: 'rest_client_requests_total', help: '[ALPHA] Number of HTTP requests, partitioned by status code, method, and host.',
    labelNames: ['code', 'method', 'host'] as const, registers: [registry],
  });
  const latency = new Histogram({
    name: 'rest_client_request_duration_seconds', help: '[ALPHA] Request latency in seconds. Broken down by verb, and host.',
    labelNames: ['verb', 'host'] as const, registers: [registry], buckets: [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
  });
  const rateLimiter = new Histogram({
    name: 'rest_client_rate_limiter_duration_seconds', help: '[ALPHA] Client side rate limiter latency in seconds. Broken down by verb, and host.',
    labelNames: ['verb', 'host'] as const, registers: [registry], buckets: [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
  });
  const counter = cached((key) => { const [code, method, host] = key.split(' '); return results.labels(code!, method!, host!); });
  const durations = cached((key) => { const [verb, host] = key.split(' '); return latency.labels(verb!, host!); });
  const waits = cached((key) => { const [verb, host] = key.split(' '); return rateLimiter.labels(verb!, host!); });
  return {
    requestResult: (r) => {
      // client-go labels a request that got no response "<error>"
      counter(`${r.code === 0 ? '<error>' : r.code} ${r.verb} ${r.host}`).inc();
      durations(`${r.verb} ${r.host}`).observe(r.latencyMs / 1000);
    },
    rateLimiterLatency: (r) => waits(`${r.verb} ${r.host}`).observe(r.latencyMs / 1000),
  };
}

/** leader_election_master_status{name}: 1 while leading the lease, 0 as a backup. */
export function leaderElectionMetrics(registry: Registry): LeaderMetrics {
  const gauge = new Gauge({
    name: 'leader_election_master_status',
    help: '[ALPHA] Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. \'name\' is the string used to identify the lease. Please make sure to group by name.',
    labelNames: ['name'] as const, registers: [registry],
  });
  return { leaderOn: (name) => gauge.set({ name }, 1), leaderOff: (name) => gauge.set({ name }, 0) };
}

/** The workqueue_* series of every named queue: pass the result to setWorkQueueMetricsProvider. */
export function workQueueMetrics(registry: Registry): (name: string) => WorkQueueMetrics {
  const labelNames = ['name'] as const;
  const buckets = [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 1, 10, 100, 1000];
  const depth = new Gauge({ name: 'workqueue_depth', help: '[BETA] Current depth of workqueue', labelNames, registers: [registry] });
  const adds = new Counter({ name: 'workqueue_adds_total', help: '[BETA] Total number of adds handled by workqueue', labelNames, registers: [registry] });
  const latency = new Histogram({
    name: 'workqueue_queue_duration_seconds', help: '[BETA] How long in seconds an item stays in workqueue before being requested.', labelNames, buckets, registers: [registry],
  });
  const work = new Histogram({
    name: 'workqueue_work_duration_seconds', help: '[BETA] How long in seconds processing an item from workqueue takes.', labelNames, buckets, registers: [registry],
  });
  const retries = new Counter({ name: 'workqueue_retries_total', help: '[BETA] Total number of retries handled by workqueue', labelNames, registers: [registry] });
  // read when scraped, as client-go's queues update them every 500 ms
  const inProgress = new Map<string, () => UnfinishedWork>();
  new Gauge({
    name: 'workqueue_unfinished_work_seconds',
    help: '[BETA] How many seconds of work has done that is in progress and hasn\'t been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.',
    labelNames, registers: [registry],
    collect() { for (const [name, read] of inProgress) this.set({ name }, read().totalMs / 1000); },
  });
  new Gauge({
    name: 'workqueue_longest_running_processor_seconds', help: '[BETA] How many seconds has the longest running processor for workqueue been running.',
    labelNames, registers: [registry],
    collect() { for (const [name, read] of inProgress) this.set({ name }, read().longestMs / 1000); },
  });
  return (name) => {
    const d = depth.labels(name);
    const a = adds.labels(name);
    const l = latency.labels(name);
    const w = work.labels(name);
    const r = retries.labels(name);
    // every series of the queue shows from its start, as client-go's (zero until it works)
    d.set(0);
    adds.inc({ name }, 0);
    retries.inc({ name }, 0);
    latency.zero({ name });
    work.zero({ name });
    return {
      depth: (n) => d.set(n), adds: () => a.inc(), latency: (ms) => l.observe(ms / 1000), workDuration: (ms) => w.observe(ms / 1000),
      retries: () => r.inc(), inProgress: (read) => { inProgress.set(name, read); },
    };
  };
}

/**
 * A component's registry as kube-scheduler's and kube-controller-manager's legacy registry holds it: the process's
 * figures, the rest client's requests and the leader election status; pass `client` to the Client config and
 * `leader` to the LeaderElector.
 */
export function componentMetrics(): { registry: Registry; client: ClientMetrics; leader: LeaderMetrics } {
  const registry = withProcessMetrics(new Registry());
  return { registry, client: restClientMetrics(registry), leader: leaderElectionMetrics(registry) };
}
