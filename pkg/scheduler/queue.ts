// The scheduling queue, as upstream's backend/queue/scheduling_queue.go: activeQ (a heap in the profile's
// queue-sort order), backoffQ (pods waiting out 1 s doubling to 10 s after a failure) and the unschedulable pods,
// which move back when a cluster event one of their rejecting plugins registered for happens and that plugin's
// queueing hint says Queue for the pod, or after 5 minutes. Pods held by a PreEnqueue plugin (schedulingGates) wait
// among the unschedulable pods, marked gated, until an update frees them.
import type { Logger } from 'pino';
import type { Clock, KubeObject, TimerHandle } from '../client/index.js';
import { QueueingHint, eventMatches, type ClusterEvent, type ClusterEventObjects, type QueuedPodInfo } from './framework/interface.js';
import type { Framework } from './framework/runtime.js';
import { KeyedHeap } from './heap.js';
import { InFlightEvents } from './in-flight-events.js';
import { podKey, schedulerNameOf, type Pod } from './types.js';

const NONE: Pod[] = [];
// upstream's event labels of the moves that are not cluster events
const SCHEDULE_ATTEMPT_FAILURE = 'ScheduleAttemptFailure';
const UNSCHEDULABLE_POD_UPDATE = 'UnschedulablePodUpdate';

export interface QueueOptions {
  clock: Clock;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** How long a pod may stay unschedulable before it is retried anyway (5 min). */
  maxUnschedulableMs?: number;
  frameworkFor(pod: Pod): Framework | undefined;
  logger?: Logger;
  /** A pod entered a queue, and why (upstream's scheduler_queue_incoming_pods_total: PodAdd, ScheduleAttemptFailure, NodeAdd, ...). */
  incoming?(queue: IncomingQueue, event: string): void;
}

export type IncomingQueue = 'active' | 'backoff' | 'unschedulable';

export class SchedulingQueue {
  private readonly activeQ: KeyedHeap<QueuedPodInfo>;
  private readonly backoffQ: KeyedHeap<QueuedPodInfo>;
  private readonly unschedulable = new Map<string, QueuedPodInfo & { since: number }>();
  /** Pods popped and not yet done: the events seen meanwhile decide where a failed one goes. */
  private readonly inFlight = new InFlightEvents();
  private readonly nominated = new Map<string, Map<string, Pod>>();
  private readonly nominatedNodeOf = new Map<string, string>();
  private waiters: (() => void)[] = [];
  private closed = false;
  private timers: TimerHandle[] = [];
  private readonly clock: Clock;
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly maxUnschedulableMs: number;

  constructor(private readonly o: QueueOptions) {
    this.clock = o.clock;
    this.initialBackoffMs = o.initialBackoffMs ?? 1000;
    this.maxBackoffMs = o.maxBackoffMs ?? 10_000;
    this.maxUnschedulableMs = o.maxUnschedulableMs ?? 5 * 60_000;
    const less = (a: QueuedPodInfo, b: QueuedPodInfo): boolean => {
      const fw = o.frameworkFor(a.pod);
      return fw ? fw.less(a, b) : a.timestamp < b.timestamp;
    };
    this.activeQ = new KeyedHeap((q) => q.key, less);
    this.backoffQ = new KeyedHeap((q) => q.key, (a, b) => this.backoffTime(a) < this.backoffTime(b));
  }

  /** Starts the periodic flushes (backoff every second, unschedulable leftovers every 30 s). */
  run(): void {
    const every = (ms: number, fn: () => void): void => {
      const tick = (): void => { if (this.closed) return; fn(); this.timers.push(this.clock.setTimer(tick, ms)); };
      this.timers.push(this.clock.setTimer(tick, ms));
    };
    every(1000, () => this.flushBackoffCompleted());
    every(30_000, () => this.flushUnschedulableLeftover());
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) t.cancel();
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  // Adding, updating, deleting pods (from the informer)

  add(pod: Pod): void {
    const key = podKey(pod);
    const q: QueuedPodInfo = { pod, key, timestamp: this.clock.now(), attempts: 0, unschedulablePlugins: new Set(), gated: false };
    this.enqueue(q, 'PodAdd');
    this.updateNominated(pod);
  }

  update(oldPod: Pod, pod: Pod): void {
    const key = podKey(pod);
    this.updateNominated(pod);
    this.inFlight.record({ event: { resource: 'Pod', action: 'Update' }, oldObj: oldPod, newObj: pod });
    const inActive = this.activeQ.get(key);
    if (inActive) { inActive.pod = pod; this.activeQ.addOrUpdate(inActive); return; }
    const inBackoff = this.backoffQ.get(key);
    if (inBackoff) { inBackoff.pod = pod; this.backoffQ.addOrUpdate(inBackoff); return; }
    const u = this.unschedulable.get(key);
    if (u) {
      u.pod = pod;
      if (JSON.stringify(oldPod.spec) !== JSON.stringify(pod.spec) || JSON.stringify(oldPod.metadata?.labels) !== JSON.stringify(pod.metadata?.labels)) {
        // an update that may make it schedulable: retry now (or after its backoff)
        this.unschedulable.delete(key);
        if (u.gated) { u.gated = false; this.enqueue(u, UNSCHEDULABLE_POD_UPDATE); return; }
        this.requeue(u, UNSCHEDULABLE_POD_UPDATE);
        this.wake();
      }
      return;
    }
    if (!this.inFlight.has(key)) this.add(pod);
  }

  delete(pod: Pod): void {
    const key = podKey(pod);
    this.activeQ.delete(key);
    this.backoffQ.delete(key);
    this.unschedulable.delete(key);
    this.deleteNominated(key);
  }

  /** Waits for the highest-priority active pod; undefined once closed. */
  async pop(signal?: AbortSignal): Promise<QueuedPodInfo | undefined> {
    for (;;) {
      if (this.closed || signal?.aborted) return undefined;
      const q = this.activeQ.pop();
      if (q) {
        q.attempts++;
        // as upstream: the plugins that rejected it count until it is tried again (scheduler_unschedulable_pods)
        if (q.unschedulablePlugins.size) q.unschedulablePlugins.clear();
        this.inFlight.start(q.key);
        return q;
      }
      await new Promise<void>((resolve) => {
        const onAbort = (): void => resolve();
        signal?.addEventListener('abort', onAbort, { once: true });
        this.waiters.push(() => { signal?.removeEventListener('abort', onAbort); resolve(); });
      });
    }
  }

  /** The pod's cycle is over (bound, or requeued by addUnschedulable / addBackoff). */
  done(key: string): void { this.inFlight.finish(key); }

  /**
   * A pod that failed its cycle: back to backoffQ if an event happened meanwhile that one of its rejecting plugins'
   * hints queues it for (or it failed with an error), otherwise among the unschedulable pods.
   */
  addUnschedulable(q: QueuedPodInfo, opts: { error?: boolean } = {}): void {
    const events = this.inFlight.finish(q.key);
    if (this.activeQ.has(q.key) || this.backoffQ.has(q.key) || this.unschedulable.has(q.key)) return;
    q.timestamp = this.clock.now();
    if (opts.error || events.some((e) => this.interested(q, e))) {
      this.backoffQ.addOrUpdate(q);
      this.o.incoming?.('backoff', SCHEDULE_ATTEMPT_FAILURE);
      return;
    }
    this.unschedulable.set(q.key, { ...q, since: this.clock.now() });
    this.o.incoming?.('unschedulable', SCHEDULE_ATTEMPT_FAILURE);
  }

  /**
   * A cluster event (with the object before and after it): the unschedulable pods it may help go to activeQ (or
   * backoffQ while backing off).
   */
  moveAllToActiveOrBackoff(event: ClusterEvent, oldObj?: KubeObject, newObj?: KubeObject): void {
    const e: ClusterEventObjects = { event, oldObj, newObj };
    this.inFlight.record(e);
    let moved = false;
    const label = event.label ?? `${event.resource}${event.action}`;
    for (const [key, u] of this.unschedulable) {
      if (u.gated || !this.interested(u, e)) continue;
      this.unschedulable.delete(key);
      if (this.requeue(u, label) === 'active') moved = true;
    }
    if (moved) this.wake();
  }

  flushBackoffCompleted(): void {
    const now = this.clock.now();
    let moved = false;
    for (;;) {
      const q = this.backoffQ.peek();
      if (!q || this.backoffTime(q) > now) break;
      this.backoffQ.pop();
      this.activeQ.addOrUpdate(q);
      this.o.incoming?.('active', 'BackoffComplete');
      moved = true;
    }
    if (moved) this.wake();
  }

  flushUnschedulableLeftover(): void {
    const now = this.clock.now();
    let moved = false;
    for (const [key, u] of this.unschedulable) {
      if (u.gated || now - u.since <= this.maxUnschedulableMs) continue;
      this.unschedulable.delete(key);
      if (this.requeue(u, 'UnschedulableTimeout') === 'active') moved = true;
    }
    if (moved) this.wake();
  }

  // Nominated pods (preemption): they count on their node for pods of lower priority.

  nominatedPods(node: string): Pod[] {
    const m = this.nominated.get(node);
    return m ? [...m.values()] : NONE;
  }

  /** Records (or clears, with '') the node a pod was nominated to. */
  nominate(pod: Pod, node: string): void {
    this.deleteNominated(podKey(pod));
    if (!node) return;
    let m = this.nominated.get(node);
    if (!m) this.nominated.set(node, m = new Map());
    m.set(podKey(pod), pod);
    this.nominatedNodeOf.set(podKey(pod), node);
  }

  stats(): { active: number; backoff: number; unschedulable: number; gated: number } {
    const gated = [...this.unschedulable.values()].filter((u) => u.gated).length;
    return { active: this.activeQ.size, backoff: this.backoffQ.size, unschedulable: this.unschedulable.size - gated, gated };
  }

  has(key: string): boolean { return this.activeQ.has(key) || this.backoffQ.has(key) || this.unschedulable.has(key); }

  /**
   * Queued pods that a plugin rejected (or a PreEnqueue plugin holds), by profile and plugin, until they are tried
   * again: upstream's scheduler_unschedulable_pods, counted when scraped.
   */
  unschedulableByPlugin(): Map<string, Map<string, number>> {
    const out = new Map<string, Map<string, number>>();
    const count = (q: QueuedPodInfo): void => {
      if (!q.unschedulablePlugins.size) return;
      const profile = schedulerNameOf(q.pod);
      let m = out.get(profile);
      if (!m) out.set(profile, (m = new Map()));
      for (const plugin of q.unschedulablePlugins) if (plugin) m.set(plugin, (m.get(plugin) ?? 0) + 1);
    };
    for (const q of this.activeQ.list()) count(q);
    for (const q of this.backoffQ.list()) count(q);
    for (const q of this.unschedulable.values()) count(q);
    return out;
  }

  private enqueue(q: QueuedPodInfo, event: string): void {
    const fw = this.o.frameworkFor(q.pod);
    const s = fw?.runPreEnqueue(q.pod);
    if (s) {
      q.gated = true;
      q.unschedulablePlugins = new Set([s.plugin ?? '']);
      // a gated pod waits among the unschedulable ones, counted there as upstream's unschedulablePods does
      if (!this.unschedulable.has(q.key)) this.o.incoming?.('unschedulable', event);
      this.unschedulable.set(q.key, { ...q, since: this.clock.now() });
      return;
    }
    q.gated = false;
    // the SLI's start: the first time it may be scheduled (time held by a scheduling gate does not count)
    q.initialAttemptTimestamp ??= this.clock.now();
    this.unschedulable.delete(q.key);
    this.backoffQ.delete(q.key);
    this.activeQ.addOrUpdate(q);
    this.o.incoming?.('active', event);
    this.wake();
  }

  /** An unschedulable pod back to activeQ, or to backoffQ while it backs off; where it went. */
  private requeue(u: QueuedPodInfo, event: string): IncomingQueue {
    const to = this.isBackingOff(u) ? 'backoff' : 'active';
    (to === 'backoff' ? this.backoffQ : this.activeQ).addOrUpdate(u);
    this.o.incoming?.(to, event);
    return to;
  }

  /** Whether a plugin that rejected the pod registered the event and its hint (if any) says Queue. */
  private interested(q: QueuedPodInfo, e: ClusterEventObjects): boolean {
    if (!q.unschedulablePlugins.size) return true;
    const fw = this.o.frameworkFor(q.pod);
    if (!fw) return true;
    for (const r of fw.registeredEvents()) {
      if (!q.unschedulablePlugins.has(r.plugin) || !eventMatches(r.event, e.event)) continue;
      if (!r.hint) return true;
      try {
        if (r.hint(q.pod, e.oldObj, e.newObj) === QueueingHint.Queue) return true;
      } catch (err) {
        // as upstream: a failing hint must not strand the pod
        this.o.logger?.warn({ err, pod: q.key, plugin: r.plugin }, 'queueing hint failed, queueing the pod');
        return true;
      }
    }
    return false;
  }

  private backoffTime(q: QueuedPodInfo): number {
    let d = this.initialBackoffMs;
    for (let i = 1; i < q.attempts && d < this.maxBackoffMs; i++) d *= 2;
    return q.timestamp + Math.min(d, this.maxBackoffMs);
  }

  private isBackingOff(q: QueuedPodInfo): boolean { return this.backoffTime(q) > this.clock.now(); }

  private updateNominated(pod: Pod): void {
    const n = pod.status?.nominatedNodeName as string | undefined;
    if (n) this.nominate(pod, n);
    else if (this.nominatedNodeOf.has(podKey(pod))) {
      // keep what preemption set until the status shows it (the informer may lag behind our own patch)
      const cur = this.nominatedNodeOf.get(podKey(pod))!;
      this.nominated.get(cur)?.set(podKey(pod), pod);
    }
  }

  private deleteNominated(key: string): void {
    const node = this.nominatedNodeOf.get(key);
    if (node === undefined) return;
    this.nominatedNodeOf.delete(key);
    const m = this.nominated.get(node);
    m?.delete(key);
    if (m && !m.size) this.nominated.delete(node);
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** For the scheduler: a pod of `schedulerName` is ours. */
  static responsible(pod: Pod, names: Set<string>): boolean { return names.has(schedulerNameOf(pod)); }
}
