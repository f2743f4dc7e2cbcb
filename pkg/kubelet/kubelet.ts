// The kubelet of one node: its NodeAgent (registration, status, lease), its runtime, the PLEG, the pod workers that
// sync each pod through the PodSyncer, and the status manager. Pods arrive from a KubeletHost (host.ts).
import { dirname, join } from 'node:path';
import { diskUsage } from './disk-usage.js';
import type { Logger } from 'pino';
import { EventRecorder, realClock, Resources, waitAtMost, type Client, type Clock, type EventThrottle, type KubeObject, type ObjectReference } from '../client/index.js';
import { admitPod, footprintOf } from './admission.js';
import { NodeAgent } from './node-agent.js';
import { nodeAllocatableOf, nodeLabels, type NodeResources } from './node-status.js';
import { Pleg } from './pleg.js';
import { attemptsOf, noLogYet } from './pod-status.js';
import { PodSyncer, terminationRequested, type BackoffPolicy, type PodRecord } from './pod-sync.js';
import { PodWorkers } from './pod-workers.js';
import { ProbeManager } from './probes.js';
import { ContainerLogManager, type ContainerLogOptions } from './log-manager.js';
import { EvictionManager, observeMachine, pressureRejection, withDisruptionTarget, type Threshold } from './eviction.js';
import { ObjectWatcher } from './object-watcher.js';
import { isMirrorPod, StaticPodSource } from './static-pods.js';
import type { StatsSource } from './stats.js';
import type { LogChunk, LogCursor, LogOptions, Runtime } from './runtime/types.js';
import { StatusManager } from './status-manager.js';
import type { VolumeObjectKind } from './volumes.js';
import { podsOnDisk } from './volumes/pod-dir.js';
import type { DnsSettings } from './sandbox/dns.js';

export interface ContainerLogs {
  /** The log as `o` asks; from `cursor` on, only what was written since. */
  read(o: LogOptions, cursor?: LogCursor): Promise<LogChunk>;
  running(): boolean;
}

export interface KubeletTimings {
  leaseDurationSeconds?: number;
  leaseRenewMs?: number;
  statusUpdateMs?: number;
  statusReportMs?: number;
  plegRelistMs?: number;
  backoff?: BackoffPolicy;
  /** Upstream's --sync-frequency: the longest a pod goes without a sync (and its volumes without a refresh). */
  syncFrequencyMs?: number;
}

export interface NodeKubeletOptions extends KubeletTimings, StaticPodOptions, NodeBehaviour, ContainerLogOptions {
  client: Client;
  nodeName: string;
  nodeIp: string;
  resources: NodeResources;
  runtime: Runtime;
  logger: Logger;
  clock?: Clock;
  labels?: Record<string, string>;
  kubeletPort?: number;
  statusWorkers?: number;
  /**
   * One of many nodes simulated by one process: as kwok's, it skips what only a person looking at one node sees,
   * and what would cost the apiserver a write per pod or node: the status upstream's SyncPod writes before a new pod's
   * sandbox and containers are made (Pending, waiting ContainerCreating or PodInitializing), and the node events
   * (Starting, NodeHasSufficientMemory..., NodeReady).
   */
  simulated?: boolean;
  /** Cluster DNS settings for pods' resolv.conf (runtimes with pod sandboxes). */
  dns?: DnsSettings;
  /** The Services of a namespace (the host's informer), for the containers' service link variables. */
  servicesIn?: (namespace: string) => KubeObject[];
  /** The node's pod range, registered in its spec. */
  podCidr?: string;
  /** The process's event budget (shared by the nodes it simulates). */
  eventThrottle?: EventThrottle;
  /** This node's Node as the process's Node informer has it (admission reads its labels). */
  watchedNode?: () => KubeObject | undefined;
}

/** Upstream's registerNode and serializeImagePulls (both default true). */
export interface NodeBehaviour {
  registerNode?: boolean;
  serializeImagePulls?: boolean;
}

/** Static pods (upstream's --pod-manifest-path, --file-check-frequency) and node-pressure eviction (--eviction-hard). */
export interface StaticPodOptions {
  staticPodPath?: string;
  fileCheckFrequencyMs?: number;
  /** Hard eviction thresholds; watched on the process runtime only (simulated nodes share no machine). */
  evictionHard?: Threshold[];
  evictionMonitoringMs?: number;
}

/** How long a stopping kubelet lets the pod syncs in progress run on (see PodWorkers.close). */
const SYNCS_GRACE_MS = 2_000;

/** How often upstream's HandlePodCleanups runs (housekeepingPeriod). */
const HOUSEKEEPING_MS = 2_000;

const isStatic = (pod: KubeObject): boolean => pod.metadata?.annotations?.['kubernetes.io/config.source'] === 'file';

const RESOURCE_OF: Record<VolumeObjectKind, typeof Resources.configMaps> = {
  configmaps: Resources.configMaps, secrets: Resources.secrets,
  persistentvolumeclaims: Resources.persistentVolumeClaims, persistentvolumes: Resources.persistentVolumes,
};
const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Labels and annotations: what the downward API projects, and part of what upstream's checkAndUpdatePod compares. */
const sameLabelsAndAnnotations = (a: KubeObject, b: KubeObject): boolean =>
  sameJson(a.metadata?.labels, b.metadata?.labels) && sameJson(a.metadata?.annotations, b.metadata?.annotations);

/** The rest of what checkAndUpdatePod compares: spec and the deletion's timestamp and grace. */
const sameSpecAndDeletion = (a: KubeObject, b: KubeObject): boolean => {
  const [x, y] = [a.metadata!, b.metadata!];
  return x.deletionTimestamp === y.deletionTimestamp && x.deletionGracePeriodSeconds === y.deletionGracePeriodSeconds && sameJson(a.spec, b.spec);
};

export class NodeKubelet {
  readonly agent: NodeAgent;
  readonly statusManager: StatusManager;
  private readonly records = new Map<string, PodRecord>();
  private readonly syncer: PodSyncer;
  private readonly workers: PodWorkers;
  private readonly pleg: Pleg;
  private readonly probes: ProbeManager;
  private readonly recorder: EventRecorder;
  private readonly clock: Clock;
  private readonly logger: Logger;
  /** Watches of the ConfigMaps and Secrets that volumes project (process runtime: the only one with volumes). */
  private readonly watcher?: ObjectWatcher;
  private resyncTimer?: { cancel(): void };
  private housekeepingTimer?: { cancel(): void };
  /** The pods no source knows whose runtime leftovers are being killed (upstream: each has a pod worker). */
  private readonly killingOrphans = new Set<string>();
  /** Set once the pods of every source are known: orphans may be told from them (upstream's sourcesReady). */
  private sourcesReady = false;
  /** The pass over the pod directories under way, if one is. */
  private housekeeping?: Promise<void>;
  private readonly staticPods?: StaticPodSource;
  private readonly eviction?: EvictionManager;
  /** Rotation of the containers' log files (runtimes that keep them). */
  private readonly logManager?: ContainerLogManager;

  constructor(readonly o: NodeKubeletOptions) {
    this.clock = o.clock ?? realClock;
    this.logger = o.logger.child({ node: o.nodeName });
    const v = o.runtime.version();
    this.agent = new NodeAgent({
      client: o.client, logger: this.logger, clock: this.clock,
      identity: { name: o.nodeName, ip: o.nodeIp, resources: o.resources, evictionHard: o.evictionHard, runtimeVersion: `${v.runtimeName}://${v.runtimeVersion}`, labels: o.labels, kubeletPort: o.kubeletPort, podCidr: o.podCidr, images: o.runtime.listImages?.bind(o.runtime) },
      leaseDurationSeconds: o.leaseDurationSeconds, leaseRenewMs: o.leaseRenewMs, statusUpdateMs: o.statusUpdateMs, statusReportMs: o.statusReportMs,
      registerNode: o.registerNode, watched: o.watchedNode,
      health: () => ({ ready: true, pressure: this.eviction?.pressure() }),
      onEvent: o.simulated ? undefined : (type, reason, message) => this.recorder.event(this.nodeRef(), type, reason, message),
    });
    this.recorder = new EventRecorder({ sink: o.client.events(), component: 'kubelet', host: o.nodeName, clock: this.clock, logger: this.logger, throttle: o.eventThrottle });
    if (o.runtime.logPath && o.runtime.reopenContainerLog) this.logManager = new ContainerLogManager({ ...o, clock: this.clock, logger: this.logger });
    if (o.runtime.podDir && o.evictionHard?.length) {
      const rootDir = dirname(dirname(o.runtime.podDir('uid'))); // <root>/pods/<uid>
      this.eviction = new EvictionManager({
        thresholds: o.evictionHard, clock: this.clock, logger: this.logger, intervalMs: o.evictionMonitoringMs,
        observe: () => observeMachine(rootDir),
        activePods: () => [...this.records.values()].filter((r) => !r.terminated && !r.failed && !r.removed && !r.pod.metadata?.deletionTimestamp).map((r) => r.pod),
        evict: (pod, message) => this.evict(pod, message),
        emptyDirUsage: async (pod) => {
          const volumes = ((pod.spec?.volumes ?? []) as { name: string; emptyDir?: unknown }[]).filter((v) => v.emptyDir);
          const dir = join(o.runtime.podDir!(pod.metadata!.uid!), 'volumes');
          return new Map(await Promise.all(volumes.map(async (v) => [v.name, (await diskUsage(join(dir, v.name))).bytes] as const)));
        },
        onPressureChange: () => { this.agent.updateStatus().catch((err: unknown) => this.logger.warn({ err }, 'cannot post the node status')); },
      });
    }
    if (o.runtime.podDir) {
      this.watcher = new ObjectWatcher({ client: o.client, logger: this.logger, onChange: (uids) => { for (const uid of uids) this.refreshVolumes(uid); } });
    }
    const allocatable = nodeAllocatableOf({ resources: o.resources, evictionHard: o.evictionHard });
    const fromApi = (kind: VolumeObjectKind, ns: string, name: string): Promise<KubeObject> => o.client.resource(RESOURCE_OF[kind], ns || undefined).get(name);
    this.syncer = new PodSyncer({
      runtime: o.runtime, recorder: this.recorder, clock: this.clock, logger: this.logger, hostIp: o.nodeIp,
      backoff: o.backoff ?? { initialMs: 10_000, maxMs: 300_000 },
      getObject: this.watcher?.getter(fromApi) ?? fromApi,
      volumeResyncMs: o.syncFrequencyMs,
      // the downward API's default limits are the node's allocatable, as upstream's
      nodeCapacity: { cpu: allocatable.cpu!, memory: allocatable.memory!, ephemeralStorage: allocatable['ephemeral-storage'] },
      dns: o.dns,
      servicesIn: o.servicesIn,
      serializeImagePulls: o.serializeImagePulls,
      runtimeHandlerOf: async (name) => String((await o.client.resource(Resources.runtimeClasses).get(name)).handler ?? ''),
      probeResult: (id, kind) => this.probes.result(id, kind),
      failedProbe: (id) => this.probes.failedProbe(id),
      // simulated containers run the moment they start, as kwok's: reported at once
      seenRunning: o.runtime.name === 'fake' ? undefined : (uid, id) => this.pleg.seenRunning(uid, id),
      requestToken: async (ns, sa, audiences, expirationSeconds, pod) => {
        const tr = await o.client.serviceAccounts(ns).createSubresource<{ status?: { token?: string } }>(sa, 'token', {
          apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest',
          spec: { ...(audiences ? { audiences } : {}), expirationSeconds, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata!.name, uid: pod.metadata!.uid } },
        });
        if (!tr.status?.token) throw new Error('empty token');
        return tr.status.token;
      },
    });
    this.probes = new ProbeManager({
      runtime: o.runtime, clock: this.clock, recorder: this.recorder,
      onChange: (uid) => { if (this.records.has(uid)) this.workers.update(uid); },
      getPod: (uid) => { const r = this.records.get(uid); return r && { pod: r.pod, podIp: r.podIp }; },
    });
    this.workers = new PodWorkers((uid, signal) => this.syncPod(uid, signal), this.clock, this.logger);
    this.statusManager = new StatusManager({
      client: o.client, logger: this.logger, workers: o.statusWorkers,
      getPod: (uid) => {
        const pod = this.records.get(uid)?.pod;
        return pod && this.staticPods && isStatic(pod) ? this.staticPods.mirrorOf(pod) : pod;
      },
      canBeDeleted: (uid) => this.records.get(uid)?.terminated === true,
    });
    if (o.staticPodPath) {
      this.staticPods = new StaticPodSource({
        dir: o.staticPodPath, nodeName: o.nodeName, client: o.client, logger: this.logger, clock: this.clock, checkMs: o.fileCheckFrequencyMs,
        add: (pod) => this.podChanged(pod), remove: (pod) => this.podRemoved(pod),
      });
    }
    this.pleg = new Pleg(o.runtime, this.clock, (uid) => { if (this.records.has(uid)) this.workers.update(uid); }, o.plegRelistMs);
  }

  get nodeName(): string { return this.o.nodeName; }

  /** Registers the node and runs until the signal aborts. */
  async run(signal: AbortSignal): Promise<void> {
    this.statusManager.start();
    this.pleg.start();
    if (this.watcher) this.scheduleResync();
    this.scheduleHousekeeping();
    const statics = this.staticPods?.run(signal, this.agent.whenRegistered());
    const eviction = this.eviction?.run(signal);
    const logRotation = this.logManager?.run(signal);
    try {
      await this.agent.run(signal);
      await statics;
      await eviction;
      await logRotation;
    } finally {
      this.resyncTimer?.cancel();
      this.housekeepingTimer?.cancel();
      this.watcher?.close();
      this.pleg.stop();
      this.probes.close();
      await this.workers.close(SYNCS_GRACE_MS);
      await this.statusManager.stop();
      // Events still waiting for the process's event budget get a second more, not the 20 s a full queue takes at
      // 50/s: upstream's kubelet drops them when it exits.
      await waitAtMost(this.clock, this.recorder.flush(), 1_000);
      await this.o.runtime.close();
    }
  }

  /** The Node as its kubelet's events name it (upstream: uid = node name). */
  private nodeRef(): ObjectReference {
    return { kind: 'Node', name: this.o.nodeName, uid: this.o.nodeName, namespace: '' };
  }

  /**
   * The Node that admission weighs a pod against, as upstream's getNodeAnyWay: its labels as last seen, its taints
   * and, besides this kubelet's own resources, what else its allocatable lists (extended resources others added).
   */
  private admissionNode(): KubeObject {
    const watched = this.o.watchedNode?.();
    const own = nodeAllocatableOf({ resources: this.o.resources, evictionHard: this.o.evictionHard });
    return {
      metadata: { name: this.o.nodeName, labels: { ...nodeLabels(this.o.nodeName, this.o.labels), ...this.agent.labels() } },
      spec: { taints: watched?.spec?.taints },
      status: {
        allocatable: {
          ...(watched?.status?.allocatable as Record<string, string> | undefined),
          cpu: own.cpu!, memory: own.memory!, pods: own.pods!, 'ephemeral-storage': own['ephemeral-storage']!,
        },
      },
    };
  }

  /** A pod bound to this node was added or changed. */
  podChanged(pod: KubeObject): void {
    if (isMirrorPod(pod)) { // stands for a static pod: not run, but its status is written there
      this.staticPods?.mirrorChanged(pod);
      const own = this.staticPods?.staticOf(pod);
      if (own && this.records.has(own.metadata!.uid!)) this.workers.update(own.metadata!.uid!);
      return;
    }
    const uid = pod.metadata!.uid!;
    let rec = this.records.get(uid);
    const sameMeta = !rec || sameLabelsAndAnnotations(rec.pod, pod);
    // as upstream's pod config, a change of the status alone (this kubelet's own write, most often) is a reconcile, not
    // an update: it syncs nothing, unless readiness gates may have to be looked at again
    const statusOnly = rec !== undefined && sameMeta && !pod.spec?.readinessGates && sameSpecAndDeletion(rec.pod, pod);
    const wasTerminating = rec !== undefined && terminationRequested(rec);
    if (!rec) {
      rec = { uid, pod, waiting: new Map(), terminated: false };
      const phase = pod.status?.phase as string | undefined;
      if (!pod.metadata?.deletionTimestamp && (phase === undefined || phase === 'Pending')) {
        const active = [...this.records.values()].filter((r) => !r.terminated && !r.failed && !r.removed).map((r) => (r.footprint ??= footprintOf(r.pod)));
        rec.footprint = footprintOf(pod);
        // upstream's admit handlers in their order: the eviction manager's (node pressure), then the predicates'
        const rejection = pressureRejection(pod, this.eviction?.pressure() ?? new Set()) ?? admitPod(pod, rec.footprint, active, this.admissionNode());
        if (rejection) {
          // upstream's rejectPod: the event says why, the status that the pod was rejected and why
          const why = rejection.message.replace(/^Pod was rejected: /, '');
          rec.failed = { reason: rejection.reason, message: `Pod was rejected: ${why}`, rejected: true };
          this.recorder.event(pod, 'Warning', rejection.reason, why);
        }
      }
      this.records.set(uid, rec);
    }
    // the downward API projects labels and annotations
    if (!sameMeta) rec.volumesStale = true;
    rec.pod = pod;
    this.watcher?.track(uid, pod);
    // as upstream's UpdatePod, a pod that starts terminating has the sync in progress cancelled (a pull, a start, a
    // probe's kill), and one being killed whose grace period now works out otherwise has its kill start over with it
    if (!statusOnly) this.workers.update(uid, (!wasTerminating && terminationRequested(rec)) || this.syncer.changesKillGrace(rec));
  }

  /** The eviction manager chose this pod: it fails with reason Evicted and its containers are killed. */
  private evict(pod: KubeObject, message: string): void {
    const rec = this.records.get(pod.metadata!.uid!);
    if (!rec || rec.failed) return;
    const wasTerminating = terminationRequested(rec);
    rec.failed = { reason: 'Evicted', message };
    this.recorder.event(pod, 'Warning', 'Evicted', message);
    this.workers.update(rec.uid, !wasTerminating); // upstream's killPodFunc: a kill that cancels the sync in progress
  }

    /** A source of the pod's volumes changed: rewrite them at the next sync, which comes now. */
  private refreshVolumes(uid: string): void {
    const rec = this.records.get(uid);
    if (!rec || rec.removed) return;
    rec.volumesStale = true;
    this.workers.update(uid);
  }

  /**
   * Upstream's periodic sync: every pod with volumes is looked at again each sync period; and, once the sources are
   * ready, the directories of pods that are gone (whose removal failed before) are looked for again.
   */
  private scheduleResync(): void {
    this.resyncTimer = this.clock.setTimer(() => {
      for (const r of this.records.values()) if (r.volumes && !r.terminated && !r.removed) this.workers.update(r.uid);
      if (this.sourcesReady) void this.cleanupOrphanedPodDirs();
      this.scheduleResync();
    }, this.o.syncFrequencyMs ?? 60_000);
  }

  /**
   * Upstream's housekeeping pass, every 2 s once the sources are ready: runtime pods no source knows are killed, and
   * the restart back-offs left alone for twice their cap are forgotten.
   */
  private scheduleHousekeeping(): void {
    this.housekeepingTimer = this.clock.setTimer(() => {
      if (this.sourcesReady) {
        void this.killOrphans();
        this.syncer.gcBackoffs();
      }
      this.scheduleHousekeeping();
    }, HOUSEKEEPING_MS);
  }

  /**
   * The pod left the API (a force delete, or its deletion's end) or its static manifest went: its containers are
   * killed as a deleted pod's, then they and its sandboxes go. As upstream's deletePod, that is no new grace period:
   * a kill under way goes on with its own; a pod not terminating yet has the sync in progress cancelled.
   */
  podRemoved(pod: KubeObject): void {
    if (isMirrorPod(pod)) { this.staticPods?.mirrorRemoved(pod); return; }
    const rec = this.records.get(pod.metadata!.uid!);
    if (!rec) return;
    const wasTerminating = terminationRequested(rec);
    rec.removed = true;
    this.workers.update(rec.uid, !wasTerminating);
  }

  /**
   * A container's log for the node server, or the error message upstream's kubelet answers (400) when there is
   * none: an unknown container, a container still waiting, no previous instance.
   */
  containerLogs(pod: KubeObject, container: string, o: { previous?: boolean }): string | ContainerLogs {
    const uid = pod.metadata!.uid!;
    const podName = pod.metadata!.name!;
    const names = (['initContainers', 'containers', 'ephemeralContainers'] as const).flatMap((k) => ((pod.spec?.[k] ?? []) as { name: string }[]).map((c) => c.name));
    if (!names.includes(container)) return `container ${container} is not valid for pod ${podName}`;
    const { latest, previous } = attemptsOf(this.o.runtime.listContainers(uid), container);
    const target = o.previous ? previous : latest;
    if (!target) {
      if (o.previous) return `previous terminated container "${container}" in pod "${podName}" not found`;
      return noLogYet(this.statusManager.getPodStatus(uid) ?? pod.status, container, podName);
    }
    return {
      read: (lo, cursor) => this.o.runtime.logs(target.id, lo, cursor),
      running: () => this.o.runtime.containerStatus(target.id)?.state === 'running',
    };
  }

  /** The pod's ready sandbox, which port-forward reaches; undefined when the pod runs nothing. */
  runningSandbox(pod: KubeObject): { runtime: Runtime; sandboxId: string } | undefined {
    const sandbox = this.o.runtime.listPodSandboxes(pod.metadata!.uid!).find((s) => s.state === 'ready');
    return sandbox && { runtime: this.o.runtime, sandboxId: sandbox.id };
  }

  /**
   * The container's running instance, which exec and attach reach; undefined when it is not running (upstream's
   * findContainer looks among the runtime's running pods only: an exited container, or a pod that has stopped, is
   * not found).
   */
  runningContainer(pod: KubeObject, name: string): { runtime: Runtime; containerId: string } | undefined {
    const running = this.o.runtime.listContainers(pod.metadata!.uid!).find((c) => c.name === name && c.state === 'running');
    return running && { runtime: this.o.runtime, containerId: running.id };
  }

  /**
   * Upstream's first HandlePodCleanups, once the pods are listed and the static pod manifests read (sourcesReady):
   * the runtime pods no source knows (deleted while the kubelet was down) are killed, then the directories of pods
   * gone (cleanupOrphanedPodDirs). The housekeeping passes every 2 s kill those found later.
   */
  async removeOrphans(): Promise<void> {
    await this.staticPods?.whenRead();
    await this.killOrphans();
    this.sourcesReady = true;
    await this.cleanupOrphanedPodDirs();
  }

  /**
   * Upstream's HandlePodCleanups: what the runtime has of a pod that no source knows is killed with upstream's 1 s,
   * each such pod on its own (as by its pod worker; one being killed is left to it), and removed (the container and
   * sandbox GC that follows upstream's kill).
   */
  private killOrphans(): Promise<unknown> {
    const rt = this.o.runtime;
    const uids = new Set([...rt.listPodSandboxes().map((s) => s.config.uid), ...rt.listContainers().map((c) => c.podUid)]);
    return Promise.all([...uids].filter((uid) => !this.records.has(uid) && !this.killingOrphans.has(uid)).map(async (uid) => {
      this.killingOrphans.add(uid);
      this.logger.info({ podUid: uid }, 'clean up orphaned pod containers');
      try {
        await this.syncer.removeOrphan(uid);
      } catch (err) {
        this.logger.warn({ err, podUid: uid }, 'cannot remove the containers of a pod that is gone');
      } finally {
        this.killingOrphans.delete(uid);
      }
    }));
  }

  /**
   * Upstream's cleanupOrphanedPodDirs: each pod directory on the node whose pod no source and no sandbox or container
   * of the runtime has goes (PodSyncer.remove: its volumes torn down first, nothing removed through a mount). One
   * pass at a time.
   */
  private cleanupOrphanedPodDirs(): Promise<void> {
    const rt = this.o.runtime;
    if (!rt.podDir) return Promise.resolve();
    this.housekeeping ??= (async () => {
      for (const uid of await podsOnDisk(dirname(rt.podDir!('uid')))) {
        if (this.records.has(uid) || rt.listPodSandboxes(uid).length || rt.listContainers(uid).length) continue;
        this.logger.info({ podUid: uid }, 'removing the directory of a pod that is gone');
        await this.syncer.remove(uid);
      }
    })().catch((err: unknown) => this.logger.warn({ err }, 'cannot look for the directories of pods that are gone'))
      .finally(() => { this.housekeeping = undefined; });
    return this.housekeeping;
  }

  /** The pods the kubelet is working on. */
  pods(): KubeObject[] { return [...this.records.values()].map((r) => r.pod); }

  /** What /stats/summary and /metrics/resource read: the node's pods, its runtime and (process runtime) where volumes are. */
  statsSource(): StatsSource {
    const rt = this.o.runtime;
    return {
      nodeName: this.o.nodeName, pods: () => this.pods(), runtime: rt,
      volumeDir: rt.podDir ? (uid, volume) => join(rt.podDir!(uid), 'volumes', volume) : undefined,
    };
  }

  private async syncPod(uid: string, signal: AbortSignal): Promise<void> {
    const rec = this.records.get(uid);
    if (!rec) return;
    if (rec.removed) {
      this.probes.forget(uid);
      this.watcher?.forget(uid);
      // the pod as last seen: a force-deleted pod's containers get its grace period, as upstream's SyncTerminatingPod
      await this.syncer.kill(rec, undefined, signal);
      await this.syncer.remove(uid);
      this.records.delete(uid);
      this.statusManager.forget(uid);
      this.workers.forget(uid);
      return;
    }
    if (!this.o.simulated && !rec.podIp && !rec.failed && !rec.pod.metadata?.deletionTimestamp && this.o.runtime.listContainers(uid).length === 0) {
      this.syncer.markStarted(rec);
      this.statusManager.setPodStatus(uid, await this.syncer.currentStatus(rec, this.statusManager.getPodStatus(uid)));
    } else if ((rec.pod.metadata?.deletionTimestamp && !rec.terminated) || this.syncer.sandboxLost(rec)) {
      // upstream's SyncTerminatingPod: the status as the runtime has it (its containers still running) before the
      // kill, which may take the whole grace period; a pod whose sandbox died: PodReadyToStartContainers False
      // until the new one is there (upstream sets the status before each SyncPod)
      this.statusManager.setPodStatus(uid, await this.syncer.currentStatus(rec, this.statusManager.getPodStatus(uid)));
    }
    await this.syncer.sync(rec, signal);
    this.probes.sync(uid, rec.pod, rec.terminated ? [] : this.o.runtime.listContainers(uid));
    const status = await this.syncer.currentStatus(rec, this.statusManager.getPodStatus(uid));
    this.statusManager.setPodStatus(uid, rec.failed?.reason === 'Evicted' && !rec.failed.rejected ? withDisruptionTarget(status, rec.failed.message, this.clock.now()) : status);
    if (rec.requeueAt !== undefined) this.workers.updateAfter(uid, Math.max(0, rec.requeueAt - this.clock.now()));
  }
}
