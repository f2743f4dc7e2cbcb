// The scheduler: informers feed the queue (unassigned pods of our profiles) and the cache (nodes, assigned pods);
// one loop pops a pod, runs its profile's framework synchronously against the cache, assumes the chosen node and
// hands the binding cycle (Permit wait, PreBind, Bind) to an async task, so the next pod is scheduled meanwhile.
// Failures get a FailedScheduling event and the PodScheduled=False condition; successes a Scheduled event. Events go
// through events.k8s.io/v1, each profile's reported as its schedulerName (upstream's recorder factory).
import type { Logger } from 'pino';
import { setMaxListeners } from 'node:events';
import { setImmediate as yieldToIo } from 'node:timers/promises';
import {
  EventBroadcaster, Resources, type EventsV1Recorder, SharedInformerFactory, finalState, formatTime, isConflict, isNotFound, realClock, type Client, type Clock,
  type KubeObject, type Lister, type SharedIndexInformer,
} from '../client/index.js';
import { SchedulerCache } from './cache.js';
import { defaultConfiguration, type SchedulerConfiguration } from './config.js';
import { fitErrorMessage } from './diagnosis.js';
import { HttpExtender } from './extender.js';
import { Code, type ClusterEvent, type CycleState, type Handle, type PluginFactory, type QueuedPodInfo, type Status, type WaitingPod } from './framework/interface.js';
import { NO_PREEMPTION_METRICS } from './framework/metrics.js';
import { Framework } from './framework/runtime.js';
import { inTreeRegistry } from './plugins/index.js';
import type { SchedulingObserver } from './metrics.js';
import { SchedulingQueue } from './queue.js';
import { schedulePod } from './schedule-one.js';
import { isAssigned, isTerminal, podKey, schedulerNameOf, type Node, type Pod } from './types.js';

export interface SchedulerOptions {
  client: Client;
  /**
   * The client events are written with (default: `client`). kube-scheduler makes one of its own, so that a burst of
   * events neither waits behind bindings nor holds them back in the same rate limiter and connections.
   */
  eventClient?: Client;
  config?: SchedulerConfiguration;
  clock?: Clock;
  logger?: Logger;
  random?: () => number;
  /** Out-of-tree plugins, merged over the in-tree registry. */
  registry?: Record<string, PluginFactory>;
  /** The host in events' reportingInstance ("default-scheduler-<hostname>"); default: this machine's name. */
  hostname?: string;
  /** Binding cycles allowed at once before the loop waits (default 256). */
  maxInFlightBindings?: number;
  assumedPodTtlMs?: number;
  /** Called when a pod is bound (after the Bind plugin returned): benchmarks and tests. */
  onBound?(pod: Pod, node: string): void;
  /** Called once the informers have synced, before the first pod is scheduled. */
  onSynced?(): void;
  /** Hears each attempt, binding, queue move and framework run (the Prometheus series of registerSchedulerMetrics). */
  observer?: SchedulingObserver;
}

export interface SchedulerMetrics {
  attempts: number; scheduled: number; unschedulable: number; errors: number; preemptions: number;
  /** Time spent in the scheduling algorithm (filter + score), ms, summed over attempts. */
  algorithmMs: number;
}

/** An event's note within the API's limit of 1024, as upstream's truncateMessage (the condition keeps it whole). */
export const truncateNote = (message: string): string => (message.length <= 1024 ? message : `${message.slice(0, 1024 - 4)} ...`);

export class Scheduler {
  readonly config: SchedulerConfiguration;
  readonly cache: SchedulerCache;
  readonly queue: SchedulingQueue;
  readonly metrics: SchedulerMetrics = { attempts: 0, scheduled: 0, unschedulable: 0, errors: 0, preemptions: 0, algorithmMs: 0 };
  private readonly frameworks = new Map<string, Framework>();
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly factory: SharedInformerFactory;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly events: EventBroadcaster;
  private readonly recorders = new Map<string, EventsV1Recorder>();
  private readonly nextStartIndex = { value: 0 };
  private inFlightBindings = 0;
  private bindingWaiters: (() => void)[] = [];
  private readonly bindings = new Set<Promise<void>>();
  private current?: Framework;
  private readonly waitingPods = new Map<string, WaitingPod>();
  private readonly extenders: HttpExtender[];

  constructor(private readonly o: SchedulerOptions) {
    this.config = o.config ?? defaultConfiguration();
    this.clock = o.clock ?? realClock;
    this.random = o.random ?? Math.random;
    this.cache = new SchedulerCache(this.clock, o.assumedPodTtlMs);
    this.factory = new SharedInformerFactory(o.client, { dropManagedFields: true, clock: this.clock, logger: o.logger });
    this.pods = this.factory.pods<Pod>();
    const nodes = this.factory.nodes<Node>();
    const lister = (r: typeof Resources.pods): Lister<KubeObject> => this.factory.informerFor(r).lister();
    this.extenders = this.config.extenders.map((e) => new HttpExtender(e));
    this.events = new EventBroadcaster({ sink: (o.eventClient ?? o.client).resource(Resources.eventsV1), clock: this.clock, logger: o.logger, hostname: o.hostname });
    const handle: Handle = {
      client: o.client,
      cache: this.cache,
      listers: {
        pvcs: lister(Resources.persistentVolumeClaims), pvs: lister(Resources.persistentVolumes),
        storageClasses: lister(Resources.storageClasses), pdbs: lister(Resources.podDisruptionBudgets), namespaces: lister(Resources.namespaces),
        services: lister(Resources.services), replicationControllers: lister(Resources.replicationControllers),
        replicaSets: lister(Resources.replicaSets), statefulSets: lister(Resources.statefulSets),
        csiNodes: lister(Resources.csiNodes), csiDrivers: lister(Resources.csiDrivers),
      },
      nominatedPods: (node) => this.queue.nominatedPods(node),
      framework: () => this.current!,
      recordEvent: (regarding, related, type, reason, action, note) => this.recorderOf(this.current!.profileName).eventf(regarding, related, type, reason, action, note),
      now: () => this.clock.now(),
      waitingPod: (uid) => this.waitingPods.get(uid),
      extenders: this.extenders,
      metrics: o.observer?.preemption ?? NO_PREEMPTION_METRICS,
    };
    const registry = { ...inTreeRegistry, ...o.registry };
    for (const p of this.config.profiles) {
      this.frameworks.set(p.schedulerName, new Framework(p, registry, handle, o.observer?.framework(p.schedulerName, this.random)));
    }
    this.queue = new SchedulingQueue({
      clock: this.clock,
      initialBackoffMs: this.config.podInitialBackoffSeconds * 1000,
      maxBackoffMs: this.config.podMaxBackoffSeconds * 1000,
      frameworkFor: (pod) => this.frameworks.get(schedulerNameOf(pod)),
      logger: o.logger,
      ...(o.observer ? { incoming: o.observer.incoming } : {}),
    });
    this.pods.addEventHandler({
      onAdd: (pod) => this.onPodAdd(pod),
      onUpdate: (old, pod) => this.onPodUpdate(old, pod),
      onDelete: (obj) => this.onPodDelete(finalState(obj)),
    });
    nodes.addEventHandler({
      onAdd: (node) => { this.cache.addNode(node); this.queue.moveAllToActiveOrBackoff({ resource: 'Node', action: 'Add' }, undefined, node); },
      onUpdate: (old, node) => {
        this.cache.updateNode(node);
        if (this.nodeChangeMatters(old, node)) this.queue.moveAllToActiveOrBackoff({ resource: 'Node', action: 'Update' }, old, node);
      },
      onDelete: (obj) => { const node = finalState(obj); this.cache.removeNode(node); this.queue.moveAllToActiveOrBackoff({ resource: 'Node', action: 'Delete' }, node); },
    });
    const mover = (resource: ClusterEvent['resource']) => ({
      onAdd: (obj: KubeObject, initial: boolean) => { if (!initial) this.queue.moveAllToActiveOrBackoff({ resource, action: 'Add' }, undefined, obj); },
      onUpdate: (old: KubeObject, obj: KubeObject) => this.queue.moveAllToActiveOrBackoff({ resource, action: 'Update' }, old, obj),
      onDelete: (obj: unknown) => this.queue.moveAllToActiveOrBackoff({ resource, action: 'Delete' }, finalState(obj as KubeObject)),
    });
    this.factory.informerFor(Resources.persistentVolumeClaims).addEventHandler(mover('PersistentVolumeClaim'));
    this.factory.informerFor(Resources.persistentVolumes).addEventHandler(mover('PersistentVolume'));
    this.factory.informerFor(Resources.storageClasses).addEventHandler(mover('StorageClass'));
    this.factory.informerFor(Resources.csiNodes).addEventHandler(mover('CSINode'));
    this.factory.informerFor(Resources.csiDrivers).addEventHandler(mover('CSIDriver'));
    this.factory.informerFor(Resources.namespaces).addEventHandler({ onUpdate: (old, ns) => this.queue.moveAllToActiveOrBackoff({ resource: 'Namespace', action: 'Update' }, old, ns) });
    this.factory.informerFor(Resources.podDisruptionBudgets);
  }

  /** The framework of a profile (by schedulerName). */
  framework(name: string): Framework | undefined { return this.frameworks.get(name); }

  /** Runs until the signal aborts: informers, then the scheduling loop. */
  async run(signal: AbortSignal): Promise<void> {
    setMaxListeners(64, signal);
    this.factory.start(signal);
    if (!(await this.factory.waitForCacheSync(signal))) { await this.factory.shutdown(); return; }
    this.o.logger?.info({ profiles: [...this.frameworks.keys()], nodes: this.cache.nodeCount() }, 'caches synced, scheduling');
    this.o.onSynced?.();
    this.events.start();
    this.queue.run();
    const cleanup = (): void => {
      if (signal.aborted) return;
      for (const pod of this.cache.cleanupExpired()) {
        this.o.logger?.warn({ pod: podKey(pod) }, 'assumed pod expired');
        this.queue.moveAllToActiveOrBackoff({ resource: 'AssignedPod', action: 'Delete' }, pod);
      }
      timer = this.clock.setTimer(cleanup, 1000);
    };
    let timer = this.clock.setTimer(cleanup, 1000);
    signal.addEventListener('abort', () => this.queue.close(), { once: true });
    const max = this.o.maxInFlightBindings ?? 256;
    try {
      for (;;) {
        while (this.inFlightBindings >= max && !signal.aborted) await new Promise<void>((r) => this.bindingWaiters.push(r));
        const q = await this.queue.pop(signal);
        if (!q) break;
        try {
          await this.scheduleOne(q);
        } catch (err) {
          this.o.logger?.error({ err, pod: q.key }, 'scheduling cycle failed');
          this.queue.addUnschedulable(q, { error: true });
        }
        await yieldToIo();
      }
    } finally {
      timer.cancel();
      this.queue.close();
      await Promise.allSettled(this.bindings);
      await Promise.all(this.extenders.map((e) => e.close()));
      await this.factory.shutdown();
      this.events.stop();
      // events still unwritten get a moment, not the recorder's retries (the apiserver may be gone already)
      await Promise.race([this.events.flush(), this.clock.sleep(2000)]);
    }
  }

  /** Resolves once every binding started so far has finished and every event is written. */
  async flush(): Promise<void> {
    await Promise.allSettled(this.bindings);
    await this.events.flush();
  }

  /** The recorder of a profile: its events report the profile's schedulerName as their controller. */
  private recorderOf(profile: string): EventsV1Recorder {
    let r = this.recorders.get(profile);
    if (!r) this.recorders.set(profile, r = this.events.newRecorder(profile));
    return r;
  }

  // Informer handlers

  private responsible(pod: Pod): boolean { return this.frameworks.has(schedulerNameOf(pod)); }

  private onPodAdd(pod: Pod): void {
    if (isAssigned(pod)) {
      if (isTerminal(pod)) return;
      this.cache.addPod(pod);
      this.queue.moveAllToActiveOrBackoff({ resource: 'AssignedPod', action: 'Add' }, undefined, pod);
    } else if (this.responsible(pod) && !pod.metadata?.deletionTimestamp && !isTerminal(pod)) {
      this.queue.add(pod);
    }
  }

  private onPodUpdate(old: Pod, pod: Pod): void {
    if (isAssigned(pod)) {
      if (!isAssigned(old)) this.queue.delete(pod);
      if (isTerminal(pod)) {
        if (this.cache.getPod(pod)) { this.cache.removePod(pod); this.queue.moveAllToActiveOrBackoff({ resource: 'AssignedPod', action: 'Delete' }, pod); }
        return;
      }
      const had = isAssigned(old) && !!this.cache.getPod(pod) && !this.cache.isAssumed(pod);
      this.cache.addPod(pod);
      if (!had) this.queue.moveAllToActiveOrBackoff({ resource: 'AssignedPod', action: 'Add' }, undefined, pod);
      else if (JSON.stringify(old.metadata?.labels) !== JSON.stringify(pod.metadata?.labels) || JSON.stringify(old.spec?.containers) !== JSON.stringify(pod.spec?.containers)) {
        this.queue.moveAllToActiveOrBackoff({ resource: 'AssignedPod', action: 'Update' }, old, pod);
      }
      return;
    }
    if (!this.responsible(pod)) return;
    if (pod.metadata?.deletionTimestamp || isTerminal(pod)) { this.queue.delete(pod); return; }
    this.queue.update(old, pod);
  }

  private onPodDelete(pod: Pod): void {
    if (isAssigned(pod) || this.cache.getPod(pod)) {
      const gone = this.cache.getPod(pod) ?? pod;
      this.cache.removePod(pod);
      this.queue.moveAllToActiveOrBackoff({ resource: 'AssignedPod', action: 'Delete' }, gone);
    }
    this.queue.delete(pod);
  }

  private nodeChangeMatters(old: Node, node: Node): boolean {
    const pick = (n: Node): string => JSON.stringify([n.metadata?.labels, n.spec, n.status?.allocatable, n.status?.images?.length]);
    return pick(old) !== pick(node);
  }

  // The scheduling cycle

  private async scheduleOne(q: QueuedPodInfo): Promise<void> {
    const fw = this.frameworks.get(schedulerNameOf(q.pod));
    const current = this.pods.lister().get(q.key);
    if (!fw || !current || current.metadata?.uid !== q.pod.metadata?.uid || isAssigned(current) || current.metadata?.deletionTimestamp || this.cache.isAssumed(current)) {
      this.queue.done(q.key);
      return;
    }
    q.pod = current;
    const pod = current;
    this.current = fw;
    this.metrics.attempts++;
    const t0 = performance.now();
    const res = await schedulePod(fw, pod, {
      nodes: this.cache.nodeInfos(), nominatedPods: (n) => this.queue.nominatedPods(n),
      percentageOfNodesToScore: fw.percentageOfNodesToScore ?? this.config.percentageOfNodesToScore,
      random: this.random, nextStartIndex: this.nextStartIndex, extenders: this.extenders, logger: this.o.logger,
    });
    this.metrics.algorithmMs += performance.now() - t0;
    if (!res.ok) {
      if (res.error || res.numAllNodes === 0) this.o.observer?.algorithm((performance.now() - t0) / 1000);
      if (res.error) { this.fail(q, res.error.reasons.join(', '), { error: true, start: t0 }); return; }
      if (res.numAllNodes === 0) { this.fail(q, 'no nodes available to schedule pods', { reason: 'SchedulerError', start: t0 }); return; }
      let nominated: string | undefined;
      if (fw.postFilter.length) {
        const pf = await fw.runPostFilter(res.state, pod, res.diagnosis.nodeStatuses);
        if (pf.status && pf.status.code !== Code.Success) {
          if (pf.status.code === Code.Error) this.o.logger?.warn({ pod: q.key, reason: pf.status.reasons }, 'preemption failed');
          res.diagnosis.postFilterMsg = pf.status.reasons.join(', ');
        } else if (pf.nominatedNodeName) {
          nominated = pf.nominatedNodeName;
          this.metrics.preemptions++;
        }
      }
      // as upstream: a pod that did not fit counts PostFilter in its algorithm's latency
      this.o.observer?.algorithm((performance.now() - t0) / 1000);
      q.unschedulablePlugins = res.diagnosis.unschedulablePlugins;
      this.fail(q, fitErrorMessage(res.numAllNodes, res.diagnosis), { nominatedNodeName: nominated, start: t0 });
      return;
    }
    this.o.observer?.algorithm((performance.now() - t0) / 1000);
    const node = res.node;
    const assumed = this.cache.assumePod(pod, node);
    const reserve = fw.runReserve(res.state, assumed, node);
    if (reserve) return this.abortBinding(fw, res.state, q, assumed, node, reserve, t0);
    const permit = fw.runPermit(res.state, assumed, node);
    if (permit.status) return this.abortBinding(fw, res.state, q, assumed, node, permit.status, t0);
    if (pod.status?.nominatedNodeName) this.queue.nominate(pod, '');
    this.inFlightBindings++;
    const task = this.bindingCycle(fw, res.state, q, assumed, node, permit.waitMs, permit.waiting, t0).finally(() => {
      this.inFlightBindings--;
      this.bindings.delete(task);
      const w = this.bindingWaiters.shift();
      w?.();
    });
    this.bindings.add(task);
  }

  private async bindingCycle(fw: Framework, state: CycleState, q: QueuedPodInfo, assumed: Pod, node: string, waitMs: number | undefined, waiting: string[], start: number): Promise<void> {
    if (waiting.length) {
      const t = performance.now();
      const rejected = await this.waitOnPermit(assumed, waiting, waitMs ?? 0);
      this.o.observer?.permitWait(rejected?.code ?? Code.Success, (performance.now() - t) / 1000);
      if (rejected) return this.abortBinding(fw, state, q, assumed, node, rejected, start);
    }
    const s = (await fw.runPreBind(state, assumed, node)) ?? (await this.bind(fw, state, assumed, node));
    if (s) return this.abortBinding(fw, state, q, assumed, node, s, start);
    this.cache.finishBinding(assumed);
    this.queue.done(q.key);
    this.metrics.scheduled++;
    if (this.o.observer) {
      this.o.observer.attempt('scheduled', fw.profileName, (performance.now() - start) / 1000);
      this.o.observer.scheduled(q.attempts, q.initialAttemptTimestamp === undefined ? undefined : (this.clock.now() - q.initialAttemptTimestamp) / 1000);
    }
    fw.runPostBind(state, assumed, node);
    this.recorderOf(fw.profileName).eventf(q.pod, undefined, 'Normal', 'Scheduled', 'Binding', `Successfully assigned ${q.pod.metadata?.namespace}/${q.pod.metadata?.name} to ${node}`);
    this.o.onBound?.(q.pod, node);
  }

  /** An interested binder extender binds the pod; otherwise the Bind plugins (upstream's extendersBinding). */
  private async bind(fw: Framework, state: CycleState, pod: Pod, node: string): Promise<Status | null> {
    const binder = this.extenders.find((e) => e.isBinder && e.isInterested(pod));
    if (!binder) return fw.runBind(state, pod, node);
    try {
      await binder.bind(pod, node);
      return null;
    } catch (err) {
      return { code: Code.Error, reasons: [(err as Error).message], error: err };
    }
  }

  /** Waits until every plugin that said Wait allows the pod; a rejection or the timeout ends it. */
  private waitOnPermit(pod: Pod, plugins: string[], timeoutMs: number): Promise<Status | undefined> {
    const uid = pod.metadata?.uid ?? podKey(pod);
    const pending = new Set(plugins);
    return new Promise((resolve) => {
      const finish = (s: Status | undefined): void => { timer.cancel(); this.waitingPods.delete(uid); resolve(s); };
      const timer = this.clock.setTimer(() => finish({ code: Code.Unschedulable, reasons: [`rejected due to timeout after waiting ${timeoutMs / 1000}s at plugin ${[...pending].join(',')}`], plugin: [...pending][0] }), timeoutMs);
      this.waitingPods.set(uid, {
        pod,
        pending: () => [...pending],
        allow: (plugin) => { pending.delete(plugin); if (!pending.size) finish(undefined); },
        reject: (plugin, message) => finish({ code: Code.Unschedulable, reasons: [message], plugin }),
      });
    });
  }

  private abortBinding(fw: Framework, state: CycleState, q: QueuedPodInfo, assumed: Pod, node: string, s: Status, start: number): void {
    fw.runUnreserve(state, assumed, node);
    this.cache.forgetPod(assumed);
    this.queue.moveAllToActiveOrBackoff({ resource: 'AssignedPod', action: 'Delete' }, assumed);
    const err = s.error;
    if (err && (isNotFound(err) || (isConflict(err) && /already assigned|being deleted/.test(String((err as Error).message))))) {
      // the pod went away or someone else bound it: nothing to retry
      this.queue.done(q.key);
      return;
    }
    const rejected = s.code === Code.Unschedulable || s.code === Code.UnschedulableAndUnresolvable;
    if (rejected && s.plugin) q.unschedulablePlugins = new Set([s.plugin]);
    this.fail(q, s.reasons.join(', ') || 'binding failed', { error: !rejected, reason: rejected ? 'Unschedulable' : 'SchedulerError', start });
  }

  /** Requeues a pod that did not get a node, and tells the world why. */
  private fail(q: QueuedPodInfo, message: string, o: { error?: boolean; nominatedNodeName?: string; reason?: string; start: number }): void {
    const reason = o.reason ?? (o.error ? 'SchedulerError' : 'Unschedulable');
    if (o.error) this.metrics.errors++;
    else this.metrics.unschedulable++;
    this.o.observer?.attempt(o.error ? 'error' : 'unschedulable', schedulerNameOf(q.pod), (performance.now() - o.start) / 1000);
    if (o.nominatedNodeName) this.queue.nominate(q.pod, o.nominatedNodeName);
    this.queue.addUnschedulable(q, { error: o.error });
    this.recorderOf(schedulerNameOf(q.pod)).eventf(q.pod, undefined, 'Warning', 'FailedScheduling', 'Scheduling', truncateNote(message));
    void this.updateStatus(q.pod, reason, message, o.nominatedNodeName);
  }

  /** PATCH pods/status: PodScheduled=False (and nominatedNodeName), only when something changed. */
  private async updateStatus(pod: Pod, reason: string, message: string, nominatedNodeName?: string): Promise<void> {
    const cond = ((pod.status?.conditions ?? []) as KubeObject[]).find((c) => c.type === 'PodScheduled');
    const sameCond = cond?.status === 'False' && cond.reason === reason && cond.message === message;
    const sameNominated = !nominatedNodeName || pod.status?.nominatedNodeName === nominatedNodeName;
    if (sameCond && sameNominated) return;
    const condition = { type: 'PodScheduled', status: 'False', reason, message, lastProbeTime: null, lastTransitionTime: cond?.status === 'False' && cond.lastTransitionTime ? cond.lastTransitionTime : formatTime(this.clock.now()) };
    const patch: KubeObject = { status: { conditions: [condition], ...(nominatedNodeName ? { nominatedNodeName } : {}) } };
    try {
      await this.o.client.pods(pod.metadata?.namespace).patch(pod.metadata!.name!, 'strategic', patch, { subresource: 'status' });
    } catch (err) {
      if (!isNotFound(err)) this.o.logger?.warn({ err, pod: podKey(pod) }, 'could not update pod status');
    }
  }
}
