// The scheduler's Prometheus series (upstream's pkg/scheduler/metrics, names, labels, buckets and help texts as
// theirs, help prefixed with the stability level as component-base prints it): attempts by result and profile, their
// latency, the attempts a pod took, the pods entering each queue by event, and the pending pods per queue (read
// from the queue when scraped). The hot path costs a Map lookup and an update or three per event or attempt: the
// label children are made once.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { IncomingQueue } from './queue.js';

export type AttemptResult = 'scheduled' | 'unschedulable' | 'error';

/** What the scheduler reports of each attempt (SchedulerOptions.observer). */
export interface SchedulingObserver {
  /** One scheduling attempt ended (scheduled: once bound), `seconds` after its cycle started. */
  attempt(result: AttemptResult, profile: string, seconds: number): void;
  /** A pod was bound after `attempts` attempts. */
  scheduled(attempts: number): void;
  /** A pod entered a queue because of `event`. */
  incoming(queue: IncomingQueue, event: string): void;
}

const exponential = (start: number, factor: number, count: number): number[] => Array.from({ length: count }, (_, i) => start * factor ** i);

type Children = Record<AttemptResult, { count: { inc(): void }; latency: { observe(v: number): void } }>;

export function registerSchedulerMetrics(registry: Registry, pending: () => { active: number; backoff: number; unschedulable: number; gated: number }): SchedulingObserver {
  const attempts = new Counter({
    name: 'scheduler_schedule_attempts_total',
    help: '[STABLE] Number of attempts to schedule pods, by the result. \'unschedulable\' means a pod could not be scheduled, while \'error\' means an internal scheduler problem.',
    labelNames: ['result', 'profile'] as const, registers: [registry],
  });
  const latency = new Histogram({
    name: 'scheduler_scheduling_attempt_duration_seconds', help: '[STABLE] Scheduling attempt latency in seconds (scheduling algorithm + binding)',
    labelNames: ['result', 'profile'] as const, buckets: exponential(0.001, 2, 15), registers: [registry],
  });
  const podAttempts = new Histogram({
    name: 'scheduler_pod_scheduling_attempts', help: '[STABLE] Number of attempts to successfully schedule a pod.',
    buckets: exponential(1, 2, 5), registers: [registry],
  });
  new Gauge({
    name: 'scheduler_pending_pods',
    help: '[STABLE] Number of pending pods, by the queue type. \'active\' means number of pods in activeQ; \'backoff\' means number of pods in backoffQ; \'unschedulable\' means number of pods in unschedulablePods that the scheduler attempted to schedule and failed; \'gated\' is the number of unschedulable pods that the scheduler never attempted to schedule because they are gated.',
    labelNames: ['queue'] as const, registers: [registry],
    collect() {
      const s = pending();
      for (const queue of ['active', 'backoff', 'unschedulable', 'gated'] as const) this.set({ queue }, s[queue]);
    },
  });
  const incoming = new Counter({
    name: 'scheduler_queue_incoming_pods_total', help: '[STABLE] Number of pods added to scheduling queues by event and queue type.',
    labelNames: ['queue', 'event'] as const, registers: [registry],
  });
  const incomingChildren = new Map<string, { inc(): void }>();
  const byProfile = new Map<string, Children>();
  const childrenOf = (profile: string): Children => {
    let c = byProfile.get(profile);
    if (!c) {
      const of = (result: AttemptResult) => ({ count: attempts.labels(result, profile), latency: latency.labels(result, profile) });
      byProfile.set(profile, (c = { scheduled: of('scheduled'), unschedulable: of('unschedulable'), error: of('error') }));
    }
    return c;
  };
  return {
    attempt(result, profile, seconds) {
      const c = childrenOf(profile)[result];
      c.count.inc();
      c.latency.observe(seconds);
    },
    scheduled: (n) => podAttempts.observe(n),
    incoming(queue, event) {
      const key = `${queue} ${event}`;
      let c = incomingChildren.get(key);
      if (!c) incomingChildren.set(key, (c = incoming.labels(queue, event)));
      c.inc();
    },
  };
}
