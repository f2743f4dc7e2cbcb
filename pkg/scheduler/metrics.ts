// The scheduler's Prometheus series (upstream's pkg/scheduler/metrics: names, labels, types, buckets and help texts
// as theirs, help prefixed with the stability level as component-base prints it): attempts by result and profile and
// their latency, the attempts a pod took, the scheduling SLI, the algorithm's latency, the pods entering each queue
// by event, the pending pods per queue and the unschedulable ones per rejecting plugin (both read from the queue when
// scraped), every extension point's duration, each plugin's duration on the sampled cycles and its evaluations,
// Permit waits and preemption. The hot path updates children resolved once: those of the framework and the SLI are
// metric-vectors.ts's (plain arithmetic, no allocation), the rest prom-client's, updated once per attempt at most.
// upstream's scheduler_goroutines has no meaning here (one thread; bindings are promises) and is not served.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { Code } from './framework/interface.js';
import {
  PLUGIN_METRICS_SAMPLE_PERCENT, type FrameworkMetrics, type MetricPoint, type PluginMetrics, type PointMetrics, type PreemptionMetrics,
} from './framework/metrics.js';
import { CounterVec, HistogramVec, exponentialBuckets, type HistogramChild } from './metric-vectors.js';
import type { IncomingQueue } from './queue.js';

export type AttemptResult = 'scheduled' | 'unschedulable' | 'error';

/** What the scheduler reports (SchedulerOptions.observer). */
export interface SchedulingObserver {
  /** One scheduling attempt ended (scheduled: once bound), `seconds` after its cycle started. */
  attempt(result: AttemptResult, profile: string, seconds: number): void;
  /** A pod was bound after `attempts` attempts, `sinceQueued` seconds after it first entered activeQ. */
  scheduled(attempts: number, sinceQueued: number | undefined): void;
  /** A pod entered a queue because of `event`. */
  incoming(queue: IncomingQueue, event: string): void;
  /** The scheduling algorithm of an attempt took `seconds` (through PostFilter when the pod did not fit). */
  algorithm(seconds: number): void;
  /** A pod waited `seconds` on Permit plugins, and was allowed (Success) or rejected. */
  permitWait(code: Code, seconds: number): void;
  /** The framework's series of one profile; `random` samples the cycles that time each plugin. */
  framework(profile: string, random: () => number): FrameworkMetrics;
  preemption: PreemptionMetrics;
}

/** What the scrape reads from the queue. */
export interface QueueReader {
  stats(): { active: number; backoff: number; unschedulable: number; gated: number };
  unschedulableByPlugin(): Map<string, Map<string, number>>;
}

/** upstream's Code.String(), the status label. */
const CODE_LABELS: Record<Code, string> = {
  [Code.Success]: 'Success', [Code.Error]: 'Error', [Code.Unschedulable]: 'Unschedulable',
  [Code.UnschedulableAndUnresolvable]: 'UnschedulableAndUnresolvable', [Code.Wait]: 'Wait', [Code.Skip]: 'Skip', [Code.Pending]: 'Pending',
};

/** upstream's getAttemptsLabel: the SLI by attempts, capped at "15+". */
const MAX_ATTEMPTS_LABEL = 15;

/** Lazily made children by status code, kept: no lookup by label values on the hot path. */
const byCode = (make: (status: string) => HistogramChild): ((code: Code, seconds: number) => void) => {
  const children: (HistogramChild | undefined)[] = [];
  return (code, seconds) => (children[code] ??= make(CODE_LABELS[code])).observe(seconds);
};

/** Plugins evaluated per call at these points (upstream's instrumented plugins). */
const EVALUATED: ReadonlySet<MetricPoint> = new Set(['PreFilter', 'Filter', 'PreScore', 'Score']);

export function registerSchedulerMetrics(registry: Registry, queue: () => QueueReader): SchedulingObserver {
  const registers = [registry];
  const attempts = new Counter({
    name: 'scheduler_schedule_attempts_total',
    help: '[STABLE] Number of attempts to schedule pods, by the result. \'unschedulable\' means a pod could not be scheduled, while \'error\' means an internal scheduler problem.',
    labelNames: ['result', 'profile'] as const, registers,
  });
  const latency = new Histogram({
    name: 'scheduler_scheduling_attempt_duration_seconds', help: '[STABLE] Scheduling attempt latency in seconds (scheduling algorithm + binding)',
    labelNames: ['result', 'profile'] as const, buckets: exponentialBuckets(0.001, 2, 15), registers,
  });
  const algorithm = new HistogramVec({
    name: 'scheduler_scheduling_algorithm_duration_seconds', help: '[ALPHA] Scheduling algorithm latency in seconds',
    labelNames: [], buckets: exponentialBuckets(0.001, 2, 15), registers,
  }).labels();
  const podAttempts = new Histogram({
    name: 'scheduler_pod_scheduling_attempts', help: '[STABLE] Number of attempts to successfully schedule a pod.',
    buckets: exponentialBuckets(1, 2, 5), registers,
  });
  const sli = new HistogramVec({
    name: 'scheduler_pod_scheduling_sli_duration_seconds',
    help: '[BETA] E2e latency for a pod being scheduled, from the time the pod enters the scheduling queue an d might involve multiple scheduling attempts.',
    labelNames: ['attempts'], buckets: exponentialBuckets(0.01, 2, 20), registers,
  });
  new Gauge({
    name: 'scheduler_pending_pods',
    help: '[STABLE] Number of pending pods, by the queue type. \'active\' means number of pods in activeQ; \'backoff\' means number of pods in backoffQ; \'unschedulable\' means number of pods in unschedulablePods that the scheduler attempted to schedule and failed; \'gated\' is the number of unschedulable pods that the scheduler never attempted to schedule because they are gated.',
    labelNames: ['queue'] as const, registers,
    collect() {
      const s = queue().stats();
      for (const q of ['active', 'backoff', 'unschedulable', 'gated'] as const) this.set({ queue: q }, s[q]);
    },
  });
  const seen = new Set<string>();
  new Gauge({
    name: 'scheduler_unschedulable_pods',
    help: '[ALPHA] The number of unschedulable pods broken down by plugin name. A pod will increment the gauge for all plugins that caused it to not schedule and so this metric have meaning only when broken down by plugin.',
    labelNames: ['plugin', 'profile'] as const, registers,
    collect() {
      // a plugin no queued pod names any longer reads 0, as upstream's gauge does once its pods are retried
      for (const key of seen) { const [plugin, profile] = key.split('\u0000'); this.set({ plugin: plugin!, profile: profile! }, 0); }
      for (const [profile, plugins] of queue().unschedulableByPlugin()) {
        for (const [plugin, n] of plugins) { seen.add(`${plugin}\u0000${profile}`); this.set({ plugin, profile }, n); }
      }
    },
  });
  const incoming = new Counter({
    name: 'scheduler_queue_incoming_pods_total', help: '[STABLE] Number of pods added to scheduling queues by event and queue type.',
    labelNames: ['queue', 'event'] as const, registers,
  });
  const permitWait = new Histogram({
    name: 'scheduler_permit_wait_duration_seconds', help: '[ALPHA] Duration of waiting on permit.',
    labelNames: ['result'] as const, buckets: exponentialBuckets(0.001, 2, 15), registers,
  });
  const preemptionVictims = new Histogram({
    name: 'scheduler_preemption_victims', help: '[STABLE] Number of selected preemption victims',
    // as upstream: more than 64 victims is rare, [64, +Inf) is one bucket
    buckets: exponentialBuckets(1, 2, 7), registers,
  });
  const preemptionAttempts = new Counter({ name: 'scheduler_preemption_attempts_total', help: '[STABLE] Total preemption attempts in the cluster till now', registers });
  const pointDuration = new HistogramVec({
    name: 'scheduler_framework_extension_point_duration_seconds', help: '[STABLE] Latency for running all plugins of a specific extension point.',
    // 0.1 ms up to [~200 ms, +Inf)
    labelNames: ['extension_point', 'status', 'profile'], buckets: exponentialBuckets(0.0001, 2, 12), registers,
  });
  const pluginDuration = new HistogramVec({
    name: 'scheduler_plugin_execution_duration_seconds', help: '[ALPHA] Duration for running a plugin at a specific extension point.',
    // 0.01 ms up to [~22 ms, +Inf), a factor of 1.5 for plugins' short latencies
    labelNames: ['plugin', 'extension_point', 'status'], buckets: exponentialBuckets(0.00001, 1.5, 20), registers,
  });
  const evaluations = new CounterVec({
    name: 'scheduler_plugin_evaluation_total',
    help: '[ALPHA] Number of attempts to schedule pods by each plugin and the extension point (available only in PreFilter and Filter.).',
    labelNames: ['plugin', 'extension_point', 'profile'], registers,
  });

  const incomingChildren = new Map<string, { inc(): void }>();
  const byProfile = new Map<string, Record<AttemptResult, { count: { inc(): void }; latency: { observe(v: number): void } }>>();
  const attemptChildren = (profile: string): Record<AttemptResult, { count: { inc(): void }; latency: { observe(v: number): void } }> => {
    let c = byProfile.get(profile);
    if (!c) {
      const of = (result: AttemptResult) => ({ count: attempts.labels(result, profile), latency: latency.labels(result, profile) });
      byProfile.set(profile, (c = { scheduled: of('scheduled'), unschedulable: of('unschedulable'), error: of('error') }));
    }
    return c;
  };
  const sliChildren: HistogramChild[] = [];
  const permitChildren = new Map<Code, { observe(v: number): void }>();

  return {
    attempt(result, profile, seconds) {
      const c = attemptChildren(profile)[result];
      c.count.inc();
      c.latency.observe(seconds);
    },
    scheduled(n, sinceQueued) {
      podAttempts.observe(n);
      if (sinceQueued === undefined) return;
      const i = Math.min(n, MAX_ATTEMPTS_LABEL);
      (sliChildren[i] ??= sli.labels(i === MAX_ATTEMPTS_LABEL ? `${MAX_ATTEMPTS_LABEL}+` : String(i))).observe(sinceQueued);
    },
    incoming(q, event) {
      const key = `${q} ${event}`;
      let c = incomingChildren.get(key);
      if (!c) incomingChildren.set(key, (c = incoming.labels(q, event)));
      c.inc();
    },
    algorithm: (seconds) => algorithm.observe(seconds),
    permitWait(code, seconds) {
      let c = permitChildren.get(code);
      if (!c) permitChildren.set(code, (c = permitWait.labels(CODE_LABELS[code])));
      c.observe(seconds);
    },
    framework: (profile, random) => ({
      sample: () => random() * 100 < PLUGIN_METRICS_SAMPLE_PERCENT,
      point: (point): PointMetrics => ({ observe: byCode((status) => pointDuration.labels(point, status, profile)) }),
      plugin: (point, plugin): PluginMetrics => ({
        // made at the start, as upstream's instrumented plugins: the series read 0 until the plugin runs
        evaluations: EVALUATED.has(point) ? evaluations.labels(plugin, point, profile) : { value: 0 },
        duration: byCode((status) => pluginDuration.labels(plugin, point, status)),
      }),
      beforeCollect: (fn) => evaluations.beforeCollect(fn),
    }),
    preemption: { attempt: () => preemptionAttempts.inc(), victims: (n) => preemptionVictims.observe(n) },
  };
}
