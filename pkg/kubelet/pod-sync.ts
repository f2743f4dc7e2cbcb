// One pod's reconciliation against the runtime, as upstream's SyncPod / SyncTerminatingPod (kuberuntime_manager.go):
// a sandbox, then ephemeral containers, init containers one at a time in order, then the containers; exited containers restart by the
// pod's restartPolicy with CrashLoopBackOff (10 s doubling to 5 min); a deleted pod's containers stop within its
// grace period. Each step is an event (Pulling, Pulled, Created, Started, Killing, BackOff, Failed).
import type { Logger } from 'pino';
import { formatTime, type Clock, type EventRecorder, type KubeObject } from '../client/index.js';
import { ContainerConfigError, containerEnv, expandVars, linkedServices } from './env.js';
import { Backoff } from './backoff.js';
import { attemptsOf, generatePodStatus, KUBELET_CONDITIONS, type PodRuntimeView, type Waiting } from './pod-status.js';
import type { Footprint } from './admission.js';
import { removeContainerAndLogs } from './log-manager.js';
import { containerRef } from './container-ref.js';
import { EVICTION_GRACE_SECONDS } from './eviction.js';
import { containerKillGrace, effectiveGracePeriod, MIN_STOP_SECONDS, ORPHAN_GRACE_SECONDS } from './grace-period.js';
import { runHook, type Hook } from './lifecycle-hooks.js';
import { linuxResources } from './sandbox/cgroups.js';
import { hostNetworkHostsFile, podDnsConfig, type DnsSettings } from './sandbox/dns.js';
import { linkMounts, mountsReadOnly, VolumeError, VolumeManager, type TokenRequester, type Volume, type VolumeObjectGetter } from './volumes.js';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { containerUser } from './run-as.js';
import type { NodeAllocatable } from './resource-field.js';
import { terminationMessage, terminationMount } from './termination-message.js';
import { makeSubPath, subPathOf } from './volumes/subpath.js';
import { removePodDir } from './volumes/pod-dir.js';
import { normalizeImage, type ContainerStatus, type HostsEntries, type ImageInfo, type Mount, type Runtime } from './runtime/types.js';

export interface BackoffPolicy { initialMs: number; maxMs: number }

interface SpecContainer {
  name: string;
  image: string;
  imagePullPolicy?: string;
  command?: string[];
  args?: string[];
  env?: { name: string; value?: string }[];
  envFrom?: unknown[];
  volumeMounts?: { name: string; mountPath: string; subPath?: string; subPathExpr?: string; readOnly?: boolean }[];
  workingDir?: string;
  stdin?: boolean;
  stdinOnce?: boolean;
  tty?: boolean;
  restartPolicy?: string;
  startupProbe?: { terminationGracePeriodSeconds?: number };
  livenessProbe?: { terminationGracePeriodSeconds?: number };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  ports?: { name?: string; containerPort: number }[];
  lifecycle?: { postStart?: Hook; preStop?: Hook };
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
  securityContext?: { runAsUser?: number; runAsGroup?: number; runAsNonRoot?: boolean };
}

/** What the kubelet remembers of a pod between syncs. */
export interface PodRecord {
  uid: string;
  pod: KubeObject;
  waiting: Map<string, Waiting & { attempt: number }>;
  podIp?: string;
  startTime?: number;
  /** Set once every container is stopped after deletion or a terminal phase. */
  terminated: boolean;
  /** The pod left the API (or its static manifest went). */
  removed?: boolean;
  /** When the worker should look again (backoff expiry), ms since the epoch. */
  requeueAt?: number;
  /** Where each volume set up is on the node (before the sandbox is made, as upstream waits for them; process runtime only). */
  volumes?: Map<string, string>;
  /** When the volumes' contents were last brought up to date, and whether a source has changed (or one failed) since. */
  volumesSyncedAt?: number;
  volumesStale?: boolean;
  /**
   * The kubelet failed the pod (admission refused it, activeDeadlineSeconds passed, evicted): phase Failed with this.
   * `rejected`: refused at admission, so never started (upstream's rejectPod: a status of the phase, reason and message).
   */
  failed?: { reason: string; message: string; rejected?: boolean };
  /** What the pod holds on the node, for admitting the next ones (admission.ts). */
  footprint?: Footprint;
  /** The termination messages of its exited containers, by container id, each read once (process runtime only). */
  messages?: Map<string, string>;
  /** The grace period of its kill so far, in seconds (upstream's podSyncStatus.gracePeriod; see effectiveGracePeriod). */
  gracePeriod?: number;
}

/**
 * Whether the pod is to terminate (upstream's IsTerminationRequested): deleted, removed from its source, failed or
 * evicted by the kubelet, or in a terminal phase. Becoming so cancels the sync in progress, as upstream's UpdatePod
 * cancels it (becameTerminating), so nothing more is pulled, created or started, and the next sync kills the pod; a
 * sync given no signal (tests) looks itself before each container.
 */
export const terminationRequested = (rec: PodRecord): boolean => {
  const phase = rec.pod.status?.phase;
  return rec.removed === true || rec.failed !== undefined || !!rec.pod.metadata?.deletionTimestamp || phase === 'Succeeded' || phase === 'Failed';
};

/**
 * Gives up waiting for `work` as soon as `signal` aborts (upstream's cancelled context), rejecting with its reason;
 * the work is left to end by itself.
 */
const untilAborted = <T>(work: Promise<T>, signal?: AbortSignal): Promise<T> => {
  if (!signal) return work;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    void work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
};

/**
 * Waits for `work` (its failure is thrown), at most `ms` on `clock` when given (then goes on: the work is only left
 * behind), and rejects with the signal's reason as soon as it aborts (upstream's cancelled context).
 */
const waitUpTo = async (clock: Clock, work: Promise<unknown>, ms: number | undefined, signal?: AbortSignal): Promise<void> => {
  signal?.throwIfAborted();
  const ended = new AbortController();
  const end = (): void => ended.abort();
  const over = new Promise<void>((resolve) => { ended.signal.addEventListener('abort', () => resolve(), { once: true }); });
  const timer = ms === undefined ? undefined : clock.setTimer(end, ms);
  signal?.addEventListener('abort', end, { once: true });
  try {
    await Promise.race([work, over]);
  } finally {
    timer?.cancel();
    end();
    signal?.removeEventListener('abort', end);
  }
  signal?.throwIfAborted();
};

export interface SyncerOptions {
  runtime: Runtime;
  recorder: EventRecorder;
  clock: Clock;
  logger: Logger;
  hostIp: string;
  backoff: BackoffPolicy;
  /** Reads ConfigMaps and Secrets for env/envFrom and volumes, claims and volumes (without it only literal values are set). */
  getObject?: VolumeObjectGetter;
  /** The Services of a namespace, for the containers' service link variables. */
  servicesIn?: (namespace: string) => KubeObject[];
  /** How often configMap/secret/downwardAPI/projected volumes are rewritten from their sources at the latest. */
  volumeResyncMs?: number;
  /** Requests service-account tokens for projected volumes. */
  requestToken?: TokenRequester;
  /** Probe results for the status (the probe manager's). */
  probeResult?: (containerId: string, kind: 'startup' | 'readiness') => boolean | undefined;
  /** The probe whose failure has a running container killed (the probe manager's). */
  failedProbe?: (containerId: string) => 'liveness' | 'startup' | undefined;
  /**
   * Whether a running container may be reported so (the PLEG's last relist saw it run); without it, at once (the fake
   * runtime's).
   */
  seenRunning?: (podUid: string, containerId: string) => boolean;
  /** The node's allocatable: resourceFieldRef limits (env and downwardAPI volumes) default to it. */
  nodeCapacity?: NodeAllocatable;
  /** Cluster DNS settings: sandboxes get the pod's resolv.conf (without: the runtime's default). */
  dns?: DnsSettings;
  /** Upstream's serializeImagePulls (default true): one image pull at a time on the node. */
  serializeImagePulls?: boolean;
  /** The handler of a RuntimeClass (upstream's runtime class manager); rejects when the class does not exist. */
  runtimeHandlerOf?: (runtimeClassName: string) => Promise<string>;
}

/** The CRI handlers our runtimes have: one way of running pods, the default, also by containerd's name for it. */
const RUNTIME_HANDLERS = ['', 'runc'];

/** Go's time.Duration String for whole seconds: 10s, 1m20s, 5m0s. */
export const goDuration = (ms: number): string => {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${s % 60}s`;
};

/** Go's time.Duration String for milliseconds: 0s, 11ms, 1.234s. */
export const goDurationPrecise = (ms: number): string =>
  ms <= 0 ? '0s' : ms < 1000 ? `${ms}ms` : ms < 60_000 ? `${(ms / 1000).toFixed(3).replace(/\.?0+$/, '')}s` : goDuration(ms);

/**
 * The pod's hostname and domain, as upstream's GeneratePodHostNameAndDomain: spec.hostname or the pod's name, cut to
 * the 63 characters a hostname may have and then without a trailing '-' or '.'; the domain its subdomain's.
 */
export const podHostnameAndDomain = (pod: KubeObject, clusterDomain: string): { hostname: string; domain?: string } => {
  const spec = pod.spec ?? {};
  let hostname = (spec.hostname as string | undefined) || pod.metadata!.name!;
  if (hostname.length > 63) hostname = hostname.slice(0, 63).replace(/[-.]+$/, '');
  const subdomain = spec.subdomain as string | undefined;
  return { hostname, ...(subdomain ? { domain: `${subdomain}.${pod.metadata!.namespace!}.svc.${clusterDomain}` } : {}) };
};

/** The sandbox's kernel hostname, as upstream's GetNodenameForKernel: the FQDN with setHostnameAsFQDN, if it fits. */
export const kernelHostname = (hostname: string, domain: string | undefined, asFqdn: boolean): string => {
  if (!domain || !asFqdn) return hostname;
  const fqdn = `${hostname}.${domain}`;
  // the kernel's nodename field holds 64 characters
  if (fqdn.length > 64) {
    throw new Error(`failed to construct FQDN from pod hostname and cluster domain, FQDN ${fqdn} is too long (64 characters is the max, ${fqdn.length} characters requested)`);
  }
  return fqdn;
};

/** The pod's own lines in its /etc/hosts: its (short) hostname, its FQDN when it has a subdomain, its hostAliases. */
const hostsEntries = (pod: KubeObject, hostname: string, domain: string | undefined): HostsEntries => {
  const spec = pod.spec ?? {};
  return {
    hostname,
    ...(domain ? { fqdn: `${hostname}.${domain}` } : {}),
    ...(Array.isArray(spec.hostAliases) && spec.hostAliases.length ? { hostAliases: spec.hostAliases as HostsEntries['hostAliases'] } : {}),
  };
};

/** The managed hosts file of a host-network pod, written in its directory, as the mount of /etc/hosts. */
const hostNetworkHostsMount = async (podDir: string, aliases: HostsEntries['hostAliases']): Promise<Mount> => {
  const file = join(podDir, 'etc-hosts');
  await writeFile(file, hostNetworkHostsFile(await readFile('/etc/hosts', 'utf8').catch(() => ''), aliases));
  return { containerPath: '/etc/hosts', hostPath: file };
};

const podDesc = (pod: KubeObject): string => `${pod.metadata!.name}_${pod.metadata!.namespace}(${pod.metadata!.uid})`;

const pullPolicy = (c: SpecContainer): string => {
  if (c.imagePullPolicy) return c.imagePullPolicy;
  const last = c.image.split('/').pop() ?? '';
  return c.image.includes('@') ? 'IfNotPresent' : !last.includes(':') || last.endsWith(':latest') ? 'Always' : 'IfNotPresent';
};

export class PodSyncer {
  /** Container restarts by `<uid>/<name>` (upstream's kubelet backOff). */
  private readonly backoffs: Backoff;
  /** Failed pulls by `<uid>/<image>`: the next is tried once the delay has passed (upstream's image manager's back-off). */
  private readonly pullBackoffs: Backoff;
  /** The last pull queued, when pulls are serialized. */
  private pullQueue: Promise<unknown> = Promise.resolve();
  private readonly volumes?: VolumeManager;
  private readonly nodeAllocatable: NodeAllocatable;

  constructor(private readonly o: SyncerOptions) {
    this.nodeAllocatable = o.nodeCapacity ?? { cpu: '1', memory: '1Gi' };
    this.backoffs = new Backoff(o.backoff.initialMs, o.backoff.maxMs, o.clock);
    this.pullBackoffs = new Backoff(o.backoff.initialMs, o.backoff.maxMs, o.clock);
    if (o.getObject) this.volumes = new VolumeManager({ get: o.getObject, requestToken: o.requestToken, now: () => o.clock.now(), node: this.nodeAllocatable });
  }

  /** The runtime's view of the pod plus the kubelet's notes, for the status. */
  view(rec: PodRecord): PodRuntimeView {
    const sandboxes = this.o.runtime.listPodSandboxes(rec.uid);
    const terminal = rec.terminated || !!rec.pod.metadata?.deletionTimestamp;
    // a container not yet seen running is reported as if not started yet (its previous attempt, or ContainerCreating);
    // a pod being killed is reported as the runtime has it now, as upstream's SyncTerminatingPod asks the runtime
    const seen = terminal ? undefined : this.o.seenRunning;
    const containers = this.o.runtime.listContainers(rec.uid).filter((c) => !seen || c.state !== 'running' || seen(rec.uid, c.id))
      .map((c) => {
        // upstream adds the container's own words to the runtime's
        const m = rec.messages?.get(c.id);
        return m ? { ...c, message: c.message ? `${c.message}: ${m}` : m } : c;
      });
    return {
      runtimeName: this.o.runtime.name,
      containers,
      sandboxReady: sandboxes.some((s) => s.state === 'ready'),
      podIp: rec.podIp,
      hostIp: this.o.hostIp,
      waiting: rec.waiting,
      startTime: rec.startTime,
      terminal,
      finished: rec.terminated,
      probe: this.o.probeResult,
    };
  }

  /**
   * The status as of now, the termination messages of containers that exited since the last look read first: as
   * upstream's, a container is never reported terminated without its message (it may exit in the middle of a sync).
   */
  async currentStatus(rec: PodRecord, previous?: Record<string, unknown>): Promise<Record<string, unknown>> {
    await this.readMessages(rec);
    return this.status(rec, previous);
  }

  /** `previous`: the status last handed to the status manager (the informer's copy may not show it yet). */
  status(rec: PodRecord, previous?: Record<string, unknown>): Record<string, unknown> {
    if (rec.failed?.rejected) return this.rejectedStatus(rec, rec.failed);
    const status = generatePodStatus(rec.pod, this.view(rec), this.o.clock.now(), previous);
    return rec.failed ? { ...status, phase: 'Failed', reason: rec.failed.reason, message: rec.failed.message } : status;
  }

  /**
   * A pod refused at admission, as upstream's rejectPod leaves it: phase, reason, message and QoS class, with the
   * startTime its status manager adds; no container statuses, so kubectl shows the reason (NodeAffinity, OutOfcpu).
   * No conditions of the kubelet's either: upstream's mergePodStatus keeps only the API's conditions the kubelet does
   * not own, and PodScheduled is one it owns (PodConditionsByKubelet), so its patch deletes it. The list is written
   * whole (null when empty: the merge patch then drops the field).
   */
  private rejectedStatus(rec: PodRecord, failed: { reason: string; message: string }): Record<string, unknown> {
    const qosClass = rec.pod.status?.qosClass as string | undefined;
    const foreign = ((rec.pod.status?.conditions ?? []) as { type: string }[]).filter((c) => !KUBELET_CONDITIONS.includes(c.type) && c.type !== 'PodScheduled');
    return {
      phase: 'Failed', reason: failed.reason, message: failed.message,
      startTime: formatTime(this.markStarted(rec)), ...(qosClass ? { qosClass } : {}),
      conditions: foreign.length ? foreign : null,
    };
  }

  /** The pod had a sandbox, none is ready, and it is not done: the next sync replaces it (sandboxChanged). */
  sandboxLost(rec: PodRecord): boolean {
    const sandboxes = this.o.runtime.listPodSandboxes(rec.uid);
    return !rec.terminated && sandboxes.length > 0 && sandboxes.every((s) => s.state !== 'ready');
  }

  /** The pod's startTime: the API's if it has one (a restarted kubelet), else now, once. */
  markStarted(rec: PodRecord): number {
    const apiStart = rec.pod.status?.startTime as string | undefined;
    return (rec.startTime ??= apiStart ? Date.parse(apiStart) : this.o.clock.now());
  }

  /** Drives the pod one step toward its spec; `signal` cancels a kill under way (see kill). */
  async sync(rec: PodRecord, signal?: AbortSignal): Promise<void> {
    const pod = rec.pod;
    rec.requeueAt = undefined;
    if (pod.metadata?.deletionTimestamp) { await this.kill(rec, undefined, signal); return; }
    const phase = pod.status?.phase as string | undefined;
    if (rec.terminated || rec.failed || phase === 'Succeeded' || phase === 'Failed') {
      // an evicted pod is killed at once, whatever its own grace period (a 0 would fall back to it)
      await this.kill(rec, rec.failed?.reason === 'Evicted' && !rec.failed.rejected ? EVICTION_GRACE_SECONDS : undefined, signal);
      return;
    }
    const startTime = this.markStarted(rec);
    const deadline = pod.spec?.activeDeadlineSeconds as number | undefined;
    if (deadline !== undefined) {
      const left = startTime + deadline * 1000 - this.o.clock.now();
      if (left <= 0) {
        const message = 'Pod was active on the node longer than the specified deadline';
        this.o.recorder.event(pod, 'Normal', 'DeadlineExceeded', message);
        rec.failed = { reason: 'DeadlineExceeded', message };
        await this.kill(rec, undefined, signal);
        return;
      }
      rec.requeueAt = Math.min(rec.requeueAt ?? Infinity, this.o.clock.now() + left);
    }
    if (pod.spec?.hostNetwork) rec.podIp = this.o.hostIp;
    // the volumes first, as upstream's SyncPod waits for them before its runtime makes the sandbox: a pod whose
    // volumes cannot be set up has no sandbox, IP or PodReadyToStartContainers yet
    if (!(await this.syncVolumes(rec))) return;
    const rt = this.o.runtime;
    let sandbox = rt.listPodSandboxes(rec.uid).filter((s) => s.state === 'ready').sort((a, b) => b.createdAt - a.createdAt)[0];
    const dead = sandbox ? [] : rt.listPodSandboxes(rec.uid);
    let startOver: { firstInit?: ContainerStatus } | undefined;
    if (!sandbox) {
      if (dead.length && !(startOver = await this.sandboxChanged(rec, signal))) return;
      let dnsConfig;
      if (this.o.dns) {
        const dns = podDnsConfig({ ...(pod.spec as Parameters<typeof podDnsConfig>[0]), namespace: pod.metadata!.namespace! }, this.o.dns);
        if (dns.warning) this.o.recorder.event(pod, 'Warning', 'MissingClusterDNS', `pod: "${podDesc(pod)}". ${dns.warning}`);
        for (const message of dns.limits) this.o.recorder.event(pod, 'Warning', 'DNSConfigForming', message);
        dnsConfig = dns.config;
      }
      let id: string;
      try {
        const runtimeClass = pod.spec?.runtimeClassName as string | undefined;
        const handler = runtimeClass && this.o.runtimeHandlerOf ? await this.o.runtimeHandlerOf(runtimeClass) : '';
        // containerd's words for a handler it has no runtime for
        if (!RUNTIME_HANDLERS.includes(handler)) throw new Error(`failed to get sandbox runtime: no runtime for "${handler}" is configured`);
        const { hostname, domain } = podHostnameAndDomain(pod, this.o.dns?.clusterDomain ?? 'cluster.local');
        const hostNetwork = pod.spec?.hostNetwork === true;
        id = await rt.runPodSandbox({
          name: pod.metadata!.name!, namespace: pod.metadata!.namespace!, uid: rec.uid, attempt: dead.length,
          // a host-network pod has the node's hostname, as upstream's generatePodSandboxConfig gives it none
          ...(hostNetwork ? {} : { hostname: kernelHostname(hostname, domain, pod.spec?.setHostnameAsFQDN === true) }),
          labels: pod.metadata?.labels, annotations: pod.metadata?.annotations,
          hostNetwork, dnsConfig, hosts: hostsEntries(pod, hostname, domain),
          sharedPidNamespace: pod.spec?.shareProcessNamespace === true,
        });
      } catch (err) {
        this.o.recorder.event(pod, 'Warning', 'FailedCreatePodSandBox', `Failed to create pod sandbox: ${(err as Error).message}`);
        throw err;
      }
      sandbox = rt.podSandboxStatus(id)!;
      rec.podIp = pod.spec?.hostNetwork ? this.o.hostIp : sandbox.ip;
    }
    rec.podIp ??= sandbox.ip; // a sandbox an earlier kubelet made (a restart)
    const all = rt.listContainers(rec.uid);
    const restartPolicy = (pod.spec?.restartPolicy as string | undefined) ?? 'Always';
    // in a new sandbox the pod starts over from its first init container, as upstream's computePodActions, its count
    // going on from the run the purge removed (upstream's pod status is read before it); the next ones, purged too,
    // run again in order from the loop below
    const firstInit = ((pod.spec?.initContainers ?? []) as SpecContainer[])[0];
    if (startOver && firstInit) {
      if (startOver.firstInit) await this.restart(rec, sandbox.id, firstInit, startOver.firstInit, signal);
      else await this.start(rec, sandbox.id, firstInit, 0, signal);
      return;
    }

    // ephemeral containers (kubectl debug) start whatever the init containers are doing, and never restart
    for (const c of (pod.spec?.ephemeralContainers ?? []) as SpecContainer[]) {
      if (!attemptsOf(all, c.name).latest) await this.start(rec, sandbox.id, c, 0, signal);
    }

    // a regular container created or running: the pod was initialized (upstream's podHasInitialized)
    const initialized = ((pod.spec?.containers ?? []) as SpecContainer[])
      .some((c) => ['created', 'running'].includes(attemptsOf(all, c.name).latest?.state ?? ''));
    for (const c of (pod.spec?.initContainers ?? []) as SpecContainer[]) {
      const { latest } = attemptsOf(all, c.name);
      if (c.restartPolicy === 'Always') { // a sidecar: started in order, then kept running
        if (!latest) { await this.start(rec, sandbox.id, c, 0, signal); return; }
        if (latest.state === 'exited' || latest.state === 'created') { await this.restart(rec, sandbox.id, c, latest, signal); return; }
        if (latest.state === 'unknown') { await this.killUnknown(rec, sandbox.id, c, latest, true, all, signal); return; }
        if (latest.state !== 'running') return;
        const failed = this.o.failedProbe?.(latest.id);
        if (failed) { await this.killForProbe(rec, sandbox.id, c, latest, failed, all, signal); return; }
        // what follows it waits for its startup probe to succeed (one not run yet too); a success resyncs the pod
        if (!initialized && c.startupProbe && this.o.probeResult && this.o.probeResult(latest.id, 'startup') !== true) return;
        continue;
      }
      if (!latest) { await this.start(rec, sandbox.id, c, 0, signal); return; }
      // created, its start failed: upstream's computeInitContainerActions starts it again, whatever the restart policy
      if (latest.state === 'created') { await this.restart(rec, sandbox.id, c, latest, signal); return; }
      if (latest.state === 'running') return;
      if (latest.state === 'exited' && latest.exitCode === 0) continue;
      // failed, or unknown (upstream's isInitContainerFailed): under Never upstream kills the pod with its own grace
      // period (no override), so the sidecars get SIGTERM
      if (restartPolicy === 'Never') { await this.kill(rec, undefined, signal); return; }
      if (latest.state === 'unknown') await this.killUnknown(rec, sandbox.id, c, latest, true, all, signal);
      else await this.restart(rec, sandbox.id, c, latest, signal);
      return;
    }

    const terminal = ((pod.spec?.containers ?? []) as SpecContainer[]).every((c) => {
      const { latest } = attemptsOf(all, c.name);
      return latest?.state === 'exited' && !this.shouldRestart(restartPolicy, latest);
    });
    // the regular containers are done: the pod is killed with its grace period, the sidecars get SIGTERM (and may exit 0)
    if (terminal && (restartPolicy !== 'Always')) { await this.kill(rec, undefined, signal); return; }
    for (const c of (pod.spec?.containers ?? []) as SpecContainer[]) {
      const { latest } = attemptsOf(all, c.name);
      const failed = latest?.state === 'running' ? this.o.failedProbe?.(latest.id) : undefined;
      if (!latest) await this.start(rec, sandbox.id, c, 0, signal);
      else if (latest.state === 'running' && latest.image !== normalizeImage(c.image)) await this.replace(rec, sandbox.id, c, latest, signal);
      else if (failed) await this.killForProbe(rec, sandbox.id, c, latest, failed, all, signal);
      else if (latest.state === 'unknown') await this.killUnknown(rec, sandbox.id, c, latest, false, all, signal);
      // created, its start failed: started again whatever the restart policy (upstream's ShouldContainerBeRestarted)
      else if (latest.state === 'created' || (latest.state === 'exited' && this.shouldRestart(restartPolicy, latest))) await this.restart(rec, sandbox.id, c, latest, signal);
    }
  }

  /**
   * The pod had a sandbox but none is ready (its pause died, or the node restarted): as upstream's computePodActions
   * and SyncPod, the pod is killed (its containers, then its sandboxes) and, unless nothing is left to run, made a
   * new sandbox (SandboxChanged) in which its containers restart by its restart policy. Every init container, all its
   * attempts, is then removed with its logs (upstream's purgeInitContainers), so that each runs again in order
   * before the app containers; returned: the first one's last run. Undefined: no new sandbox (a Never pod whose
   * containers ran; one whose containers are done).
   */
  private async sandboxChanged(rec: PodRecord, signal?: AbortSignal): Promise<{ firstInit?: ContainerStatus } | undefined> {
    const pod = rec.pod;
    const all = this.o.runtime.listContainers(rec.uid);
    const restartPolicy = (pod.spec?.restartPolicy as string | undefined) ?? 'Always';
    const regular = (pod.spec?.containers ?? []) as SpecContainer[];
    const succeeded = (c: SpecContainer): boolean => { const { latest } = attemptsOf(all, c.name); return latest?.state === 'exited' && latest.exitCode === 0; };
    const toStart = regular.filter((c) => restartPolicy !== 'OnFailure' || !succeeded(c));
    const initialized = regular.some((c) => attemptsOf(all, c.name).latest);
    const recreate = !(restartPolicy === 'Never' && all.length) && (toStart.length > 0 || !initialized);
    if (recreate) this.o.recorder.event(pod, 'Normal', 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.');
    await this.killPod(rec, (pod.spec?.terminationGracePeriodSeconds as number | undefined) ?? 30, signal);
    if (!recreate) return undefined;
    const inits = ((pod.spec?.initContainers ?? []) as SpecContainer[]).map((c) => c.name);
    const killed = this.o.runtime.listContainers(rec.uid);
    const firstInit = inits.length ? attemptsOf(killed, inits[0]!).latest : undefined;
    for (const c of killed) if (inits.includes(c.name)) await removeContainerAndLogs(this.o.runtime, c.id);
    return { firstInit };
  }

  /**
   * A running container whose image the pod's spec no longer names (the only container field an update may change):
   * stopped as on deletion, then started again whatever the restart policy, as upstream's containerChanged (whose
   * hash covers the name and the image alone since 1.31).
   */
  private async replace(rec: PodRecord, sandboxId: string, c: SpecContainer, running: ContainerStatus, signal?: AbortSignal): Promise<void> {
    this.o.recorder.event(containerRef(rec.pod, c.name), 'Normal', 'Killing', `Container ${c.name} definition changed, will be restarted`);
    await this.stopWithHook(rec, running, containerKillGrace(rec.pod), [], signal);
    await this.restart(rec, sandboxId, c, this.o.runtime.containerStatus(running.id) ?? running, signal);
  }

  /**
   * A running container whose liveness or startup probe failed, as upstream's computePodActions: killed with the
   * probe's grace period if it has one, then started again unless the pod never restarts; a sidecar, an "Init
   * container" to the event, always is.
   */
  private killForProbe(
    rec: PodRecord, sandboxId: string, c: SpecContainer, running: ContainerStatus, probe: 'liveness' | 'startup', seen: ContainerStatus[], signal?: AbortSignal,
  ): Promise<void> {
    const sidecar = c.restartPolicy === 'Always';
    const restart = sidecar || rec.pod.spec?.restartPolicy !== 'Never';
    const message = sidecar ? `Init container ${c.name} failed ${probe} probe` : `Container ${c.name} failed ${probe} probe${restart ? ', will be restarted' : ''}`;
    return this.killToRestart(rec, sandboxId, c, running, { message, grace: containerKillGrace(rec.pod, c[`${probe}Probe`]), restart }, seen, signal);
  }

  /**
   * A container in the unknown state, which may still run: upstream's computePodActions (computeInitContainerActions
   * for an init container or sidecar) kills it before it starts again, whatever the restart policy
   * (ShouldContainerBeRestarted), with the pod's grace period.
   */
  private killUnknown(rec: PodRecord, sandboxId: string, c: SpecContainer, latest: ContainerStatus, init: boolean, seen: ContainerStatus[], signal?: AbortSignal): Promise<void> {
    const message = `${init ? 'Init container' : 'Container'} is in "unknown" state, try killing it before restart`;
    return this.killToRestart(rec, sandboxId, c, latest, { message, grace: containerKillGrace(rec.pod), restart: true }, seen, signal);
  }

  /**
   * Upstream's SyncPod for a container in ContainersToKill: a Killing event saying why, the kill as any container's
   * (killContainer: its preStop hook, a stop of at least 2 s, within `grace`), then, when it is also to start, its
   * start in the same sync, the back-off counted from the exits `seen` before the kill (doBackOff reads the pod's
   * status from before it).
   */
  private async killToRestart(
    rec: PodRecord, sandboxId: string, c: SpecContainer, latest: ContainerStatus, kill: { message: string; grace: number; restart: boolean },
    seen: ContainerStatus[], signal?: AbortSignal,
  ): Promise<void> {
    this.o.recorder.event(containerRef(rec.pod, c.name), 'Normal', 'Killing', kill.message);
    await this.stopWithHook(rec, latest, kill.grace, [], signal);
    if (kill.restart) await this.restart(rec, sandboxId, c, this.o.runtime.containerStatus(latest.id) ?? latest, signal, seen);
  }

  /**
   * Sets the pod's volumes up (process runtime), and later brings their contents up to date when a source changed
   * or the resync period passed: a FailedMount event for each that fails, retried after its own back-off. False while
   * one was never set up (upstream's WaitForAttachAndMount: the pod waits, without a sandbox).
   */
  private async syncVolumes(rec: PodRecord): Promise<boolean> {
    const podDir = this.o.runtime.podDir?.(rec.uid);
    if (!podDir || !this.volumes) return true;
    const now = this.o.clock.now();
    const resyncMs = this.o.volumeResyncMs ?? 60_000;
    if (rec.volumes && !rec.volumesStale && now - (rec.volumesSyncedAt ?? 0) < resyncMs) return true;
    const done = await this.volumes.setUp(rec.pod, podDir, rec.volumes);
    for (const message of done.failures) this.o.recorder.event(rec.pod, 'Warning', 'FailedMount', message);
    rec.volumes = done.paths;
    rec.volumesSyncedAt = now;
    rec.volumesStale = done.retryAt !== undefined;
    if (done.retryAt !== undefined) rec.requeueAt = Math.min(rec.requeueAt ?? Infinity, done.retryAt);
    // running containers keep the contents they have; new ones start once every volume is there
    return ((rec.pod.spec?.volumes ?? []) as Volume[]).every((v) => done.paths.has(v.name));
  }

  private shouldRestart(policy: string, c: ContainerStatus): boolean {
    return policy === 'Always' || (policy === 'OnFailure' && c.exitCode !== 0);
  }

  /**
   * Starts the container again (its `latest` attempt exited, or is left created) unless it is backing off (then
   * CrashLoopBackOff and a later look). As upstream's doBackOff, the back-off counts from the finish of its newest
   * exited attempt among `seen` (the pod's containers as the sync found them); with none there is no back-off. One
   * that finished more than twice the cap after its last restart was stable: no back-off, and the delay starts over.
   */
  private async restart(
    rec: PodRecord, sandboxId: string, c: SpecContainer, latest: ContainerStatus, signal?: AbortSignal, seen = this.o.runtime.listContainers(rec.uid),
  ): Promise<void> {
    // upstream's GetStableKey holds the container's hash, of its name and image: a new image starts with no back-off
    const key = `${rec.uid}/${c.name}/${c.image}`;
    const exited = seen.filter((x) => x.name === c.name && x.state === 'exited').sort((a, b) => b.attempt - a.attempt || b.createdAt - a.createdAt)[0];
    const finishedAt = exited?.finishedAt ?? this.o.clock.now();
    if (exited && this.backoffs.isInBackOffSince(key, finishedAt)) {
      const delayMs = this.backoffs.get(key);
      const message = `back-off ${goDuration(delayMs)} restarting failed container=${c.name} pod=${podDesc(rec.pod)}`;
      const prev = rec.waiting.get(c.name);
      if (prev?.reason !== 'CrashLoopBackOff' || prev.attempt !== latest.attempt) {
        this.o.recorder.event(containerRef(rec.pod, c.name), 'Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${podDesc(rec.pod)}`);
      }
      rec.waiting.set(c.name, { reason: 'CrashLoopBackOff', message, attempt: latest.attempt });
      rec.requeueAt = Math.min(rec.requeueAt ?? Infinity, finishedAt + delayMs);
      return;
    }
    if (exited) this.backoffs.next(key, finishedAt);
    await this.start(rec, sandboxId, c, latest.attempt + 1, signal);
    // keep the last exited attempt for lastState (and logs --previous, never without one meanwhile); older ones go
    // with their logs, as upstream's container GC keeps one dead container per name (MaxPerPodContainer)
    for (const old of this.o.runtime.listContainers(rec.uid)) {
      if (old.name === c.name && old.attempt < latest.attempt) await removeContainerAndLogs(this.o.runtime, old.id);
    }
  }

  /** Upstream's pod worker retries a failed sync after its back-off period (10 s; its jitter left out). */
  private retryFailedSync(rec: PodRecord): void {
    rec.requeueAt = Math.min(rec.requeueAt ?? Infinity, this.o.clock.now() + this.o.backoff.initialMs);
  }

  private async start(rec: PodRecord, sandboxId: string, c: SpecContainer, attempt: number, signal?: AbortSignal): Promise<void> {
    if (terminationRequested(rec)) return;
    const rt = this.o.runtime;
    const pod = rec.pod;
    const policy = pullPolicy(c);
    const present = rt.imageStatus(c.image);
    const pullError = pod.metadata?.annotations?.['fake.mini-kube.io/pull-error'];
    if (policy === 'Never' && !present) {
      const message = `Container image "${c.image}" is not present with pull policy of Never`;
      this.o.recorder.event(containerRef(pod, c.name), 'Warning', 'ErrImageNeverPull', message);
      rec.waiting.set(c.name, { reason: 'ErrImageNeverPull', message, attempt: attempt - 1 });
      return;
    }
    if (policy === 'Always' || !present) {
      const backoffKey = `${rec.uid}/${c.image}`;
      if (this.pullBackoffs.isInBackOffSinceUpdate(backoffKey, this.o.clock.now())) {
        const message = `Back-off pulling image "${c.image}"`;
        this.o.recorder.event(containerRef(pod, c.name), 'Normal', 'BackOff', message);
        this.o.recorder.event(containerRef(pod, c.name), 'Warning', 'Failed', 'Error: ImagePullBackOff');
        rec.waiting.set(c.name, { reason: 'ImagePullBackOff', message, attempt: attempt - 1 });
        // as upstream's pod worker after a failed sync: looked at again after its own back-off period, whatever
        // the image's, so that ErrImagePull and ImagePullBackOff take turns as on a node
        this.retryFailedSync(rec);
        return;
      }
      this.o.recorder.event(containerRef(pod, c.name), 'Normal', 'Pulling', `Pulling image "${c.image}"`);
      const t0 = this.o.clock.now();
      let started = t0;
      // a cancelled sync's pull is given up (the runtime's with it), and one queued behind others never starts
      const pull = (): Promise<ImageInfo> => { signal?.throwIfAborted(); started = this.o.clock.now(); return rt.pullImage(c.image, signal); };
      try {
        if (pullError !== undefined && rt.name === 'fake') throw new Error(pullError);
        const info = await untilAborted(this.o.serializeImagePulls === false ? pull() : this.serially(pull), signal);
        const now = this.o.clock.now();
        this.pullBackoffs.gc(); // as upstream's image manager after a pull: the key's delay stays
        this.o.recorder.event(containerRef(pod, c.name), 'Normal', 'Pulled', `Successfully pulled image "${c.image}" in ${goDurationPrecise(now - started)} (${goDurationPrecise(now - t0)} including waiting). Image size: ${info.size} bytes.`);
        if (info.simulated) {
          this.o.recorder.event(containerRef(pod, c.name), 'Normal', 'ImageSimulated',
            `Image "${c.image}" is not in the image catalog: simulated, the container runs its command with its args, or idles without one (its args alone go to the unknown entrypoint), as user ${info.user?.uid ?? 0} unless runAsUser says otherwise (kubelet --unknown-images=fail refuses such images)`);
        }
      } catch (err) {
        // a pull given up with its sync fails as the CRI's call does when its context is cancelled, events and all
        const why = signal?.aborted ? 'rpc error: code = Canceled desc = context canceled' : (err as Error).message;
        const message = `Failed to pull image "${c.image}": ${why}`;
        this.o.recorder.event(containerRef(pod, c.name), 'Warning', 'Failed', message);
        this.o.recorder.event(containerRef(pod, c.name), 'Warning', 'Failed', 'Error: ErrImagePull');
        this.pullBackoffs.next(backoffKey, this.o.clock.now());
        signal?.throwIfAborted();
        rec.waiting.set(c.name, { reason: 'ErrImagePull', message, attempt: attempt - 1 });
        this.retryFailedSync(rec);
        return;
      }
    } else {
      this.o.recorder.event(containerRef(pod, c.name), 'Normal', 'Pulled', `Container image "${c.image}" already present on machine`);
    }
    let env: { name: string; value: string }[];
    let user;
    let mounts: Mount[];
    try {
      user = containerUser(pod, c, podDesc(pod), rt.imageStatus(c.image)?.user);
      env = this.o.getObject
        ? await containerEnv(pod, c as Parameters<typeof containerEnv>[1], {
          podIp: rec.podIp, hostIp: this.o.hostIp, get: this.o.getObject, node: this.nodeAllocatable,
          services: this.o.servicesIn ? linkedServices(pod, this.o.servicesIn) : [],
        })
        : (c.env ?? []).filter((e) => e.value !== undefined).map((e) => ({ name: e.name, value: e.value! }));
      mounts = await this.mounts(rec, c, attempt, env);
    } catch (err) {
      if (!(err instanceof ContainerConfigError)) throw err;
      this.o.recorder.event(containerRef(pod, c.name), 'Warning', 'Failed', `Error: ${err.message}`);
      rec.waiting.set(c.name, { reason: 'CreateContainerConfigError', message: err.message, attempt: attempt - 1 });
      this.retryFailedSync(rec);
      return;
    }
    const podDir = rt.podDir?.(rec.uid);
    if (podDir && rec.volumes) env = [{ name: 'MINI_KUBE_ROOTFS', value: this.rootfs(podDir, c) }, ...env];
    const vars = Object.fromEntries(env.map((e) => [e.name, e.value]));
    if (terminationRequested(rec)) return; // asked while the image was pulled or the mounts made
    let id: string;
    try {
      id = await rt.createContainer(sandboxId, {
        name: c.name, attempt, image: c.image, workingDir: c.workingDir, env, resources: linuxResources(c.resources), ...(user ? { user } : {}),
        command: c.command?.map((x) => expandVars(x, vars)), args: c.args?.map((x) => expandVars(x, vars)),
        annotations: pod.metadata?.annotations, stdin: c.stdin, stdinOnce: c.stdinOnce, tty: c.tty,
        ...(mounts.length ? { mounts } : {}),
      });
    } catch (err) {
      const message = (err as Error).message;
      this.o.recorder.event(containerRef(pod, c.name), 'Warning', 'Failed', `Error: ${message}`);
      rec.waiting.set(c.name, { reason: 'CreateContainerError', message, attempt: attempt - 1 });
      this.retryFailedSync(rec);
      return;
    }
    rec.waiting.delete(c.name);
    this.o.recorder.event(containerRef(pod, c.name), 'Normal', 'Created', `Created container: ${c.name}`);
    try {
      await rt.startContainer(id);
      this.o.recorder.event(containerRef(pod, c.name), 'Normal', 'Started', `Started container ${c.name}`);
    } catch (err) {
      const message = (err as Error).message;
      this.o.recorder.event(containerRef(pod, c.name), 'Warning', 'Failed', `Error: ${message}`);
      // upstream's ErrRunContainer with the runtime's message goes to its reason cache, the container's waiting reason
      // while it is to start again (ShouldContainerBeRestarted: left created, always; exited, by the restart policy)
      const failed = rt.containerStatus(id);
      if (failed?.state === 'created' || (failed?.state === 'exited' && this.shouldRestart((pod.spec?.restartPolicy as string | undefined) ?? 'Always', failed))) {
        rec.waiting.set(c.name, { reason: 'RunContainerError', message, attempt });
      }
      this.retryFailedSync(rec);
      return;
    }
    const hook = c.lifecycle?.postStart;
    if (hook && this.runsHooks()) {
      const failure = await runHook(rt, id, hook, { pod, container: c.name, podIp: rec.podIp, ports: c.ports, timeoutSeconds: 0, clock: this.o.clock });
      if (failure !== undefined) {
        // as upstream, the event says no more than that (the hook's output may hold secrets); the failure is the
        // waiting message of a container to be restarted (its reason cache), until the next sync backs it off
        this.o.recorder.event(containerRef(pod, c.name), 'Warning', 'FailedPostStartHook', 'PostStartHook failed');
        this.o.recorder.event(containerRef(pod, c.name), 'Normal', 'Killing', `FailedPostStartHook`);
        // killed as any container (killContainer): its preStop hook, a stop of at least 2 s
        const started = rt.containerStatus(id);
        if (started) await this.stopWithHook(rec, started, containerKillGrace(pod));
        const stopped = rt.containerStatus(id);
        if (stopped?.state === 'exited' && this.shouldRestart((pod.spec?.restartPolicy as string | undefined) ?? 'Always', stopped)) {
          rec.waiting.set(c.name, { reason: 'PostStartHookError', message: failure, attempt });
        }
      }
    }
  }

  /** Where the container's mounts are linked (its $MINI_KUBE_ROOTFS). */
  private rootfs(podDir: string, c: SpecContainer): string { return join(podDir, 'rootfs', c.name); }

  /**
   * The container's mounts, as upstream's makeMounts: each volume (at its subPath, subPathExpr expanded with `env`,
   * made when missing), the termination log, and the managed /etc/hosts of a pod on the node's network (a sandbox
   * writes the others'). None without a pod directory (the fake runtime), but the subPaths are checked.
   */
  private async mounts(rec: PodRecord, c: SpecContainer, attempt: number, env: { name: string; value: string }[]): Promise<Mount[]> {
    const pod = rec.pod;
    const subPaths = (c.volumeMounts ?? []).map((m) => subPathOf(m, env));
    const podDir = this.o.runtime.podDir?.(rec.uid);
    if (!podDir || !rec.volumes) return [];
    const specVolumes = new Map(((pod.spec?.volumes ?? []) as Volume[]).map((v) => [v.name, v]));
    const volumeMounts = (c.volumeMounts ?? []).map((m, i) => ({ ...m, subPath: subPaths[i], readOnly: mountsReadOnly(m, specVolumes.get(m.name)) }));
    for (const m of volumeMounts) {
      const volumePath = rec.volumes.get(m.name);
      if (m.subPath && volumePath) await makeSubPath(volumePath, m.subPath, m.name, c.name);
    }
    const rootfs = this.rootfs(podDir, c);
    const mounts = await linkMounts(rootfs, volumeMounts, rec.volumes);
    mounts.push(await terminationMount(podDir, rootfs, c, attempt));
    // upstream mounts its managed hosts file in a container of a pod with an IP unless the container mounts a volume
    // there; a host-network pod's is the node's, its hostAliases added
    const ownHosts = (c.volumeMounts ?? []).some((m) => m.mountPath === '/etc/hosts');
    if (pod.spec?.hostNetwork && rec.podIp && !ownHosts) {
      mounts.push(await hostNetworkHostsMount(podDir, pod.spec.hostAliases as HostsEntries['hostAliases']));
    }
    return mounts;
  }

  /** The fake runtime answers probes itself and has no processes to run hooks in. */
  private runsHooks(): boolean { return typeof (this.o.runtime as { probe?: unknown }).probe !== 'function'; }

  /**
   * Upstream's killContainer: the preStop hook within the grace period, then the container's turn (`after`: what
   * must have stopped first) within what is left of it, then SIGTERM, and SIGKILL once what is left has passed, at
   * least MIN_STOP_SECONDS. Each step takes its whole seconds off, as upstream truncates them. `signal` ends the kill
   * at once, as upstream's cancelled context: a stop under way is left to go on, the hook ends.
   */
  private async stopWithHook(rec: PodRecord, c: ContainerStatus, grace: number, after: Promise<unknown>[] = [], signal?: AbortSignal): Promise<void> {
    const clock = this.o.clock;
    const spec = [...((rec.pod.spec?.initContainers ?? []) as SpecContainer[]), ...((rec.pod.spec?.containers ?? []) as SpecContainer[])].find((s) => s.name === c.name);
    const secondsSince = (t0: number): number => Math.floor((clock.now() - t0) / 1000);
    let left = grace;
    const hook = spec?.lifecycle?.preStop;
    const stopped = new AbortController();
    try {
      if (hook && left > 0 && c.state === 'running' && this.runsHooks()) {
        const t0 = clock.now();
        // as upstream's executePreStopHook, the hook is waited for no longer than the grace period but not stopped
        // then: an exec in the container (timeout 0, as RunInContainer's) or a GET to it ends with the container, a
        // sleep runs its time. Its failure, whenever it comes, is an event that says no more than that (its output
        // may hold secrets)
        const ran = runHook(this.o.runtime, c.id, hook, {
          pod: rec.pod, container: c.name, podIp: rec.podIp, ports: spec.ports, timeoutSeconds: 0, clock, signal, stopped: stopped.signal,
        }).then((failure) => {
          if (failure !== undefined) this.o.recorder.event(containerRef(rec.pod, c.name), 'Warning', 'FailedPreStopHook', 'PreStopHook failed');
        });
        await waitUpTo(clock, ran, left * 1000, signal);
        left -= secondsSince(t0);
      }
      if (after.length && left > 0) {
        const t0 = clock.now();
        await waitUpTo(clock, Promise.all(after), left * 1000, signal);
        left -= secondsSince(t0);
      }
      await waitUpTo(clock, this.o.runtime.stopContainer(c.id, Math.max(MIN_STOP_SECONDS, left)), undefined, signal);
    } finally {
      stopped.abort();
    }
  }

  /**
   * Stops every container (Killing events) within the kill's grace period, then the sandbox; the pod is terminated.
   * As upstream's termination ordering, a sidecar is stopped only once every regular container and the sidecars after
   * it have (or the grace period is over); its preStop hook runs meanwhile. The grace period is upstream's
   * (effectiveGracePeriod, `override` the kubelet's own): a kill under way whose pod's grace period now works out
   * otherwise (changesKillGrace) is cancelled through `signal` and goes no further, and the next one stops the
   * containers again with the new one (their preStop hooks run again), which the runtime's stop honours.
   */
  async kill(rec: PodRecord, override?: number, signal?: AbortSignal): Promise<void> {
    const grace = effectiveGracePeriod(rec.gracePeriod, rec.pod, override);
    rec.gracePeriod = grace;
    await this.killPod(rec, grace, signal);
    for (const name of [...rec.waiting.keys()]) {
      const w = rec.waiting.get(name)!;
      if (w.reason === 'CrashLoopBackOff') rec.waiting.delete(name);
    }
    await this.tearDownVolumes(rec);
    rec.terminated = true;
  }

  /**
   * A kill of the pod is under way and its grace period now works out otherwise (upstream's wasGracePeriodShortened):
   * a shorter deletion grace period, or a force delete's 0 that falls back to the spec's.
   */
  changesKillGrace(rec: PodRecord): boolean {
    return !rec.terminated && rec.gracePeriod !== undefined && effectiveGracePeriod(rec.gracePeriod, rec.pod) !== rec.gracePeriod;
  }

  /**
   * Upstream's killPodWithSyncResult: the running containers stopped in order within `grace` (one created and never
   * started is left as it is, as the running pod it kills holds only running ones), then every sandbox of the pod; a
   * cancelled kill (`signal`) stops no sandbox, as upstream's StopPodSandbox fails with the context.
   */
  private async killPod(rec: PodRecord, grace: number, signal?: AbortSignal): Promise<void> {
    const rt = this.o.runtime;
    const pod = rec.pod;
    const running = rt.listContainers(rec.uid).filter((c) => c.state === 'running');
    const stopped = new Map<string, { done: Promise<void>; resolve: () => void }>();
    for (const c of running) {
      if (stopped.has(c.name)) continue;
      let resolve!: () => void;
      stopped.set(c.name, { done: new Promise<void>((r) => { resolve = r; }), resolve });
    }
    const sidecars = ((pod.spec?.initContainers ?? []) as SpecContainer[]).filter((c) => c.restartPolicy === 'Always').map((c) => c.name);
    const regular = ((pod.spec?.containers ?? []) as SpecContainer[]).map((c) => c.name);
    const turnOf = (name: string): Promise<unknown>[] => {
      const i = sidecars.indexOf(name);
      if (i < 0) return [];
      return [...regular, sidecars[i + 1]].flatMap((n) => (n !== undefined && stopped.has(n) ? [stopped.get(n)!.done] : []));
    };
    const results = await Promise.allSettled(running.map(async (c) => {
      this.o.recorder.event(containerRef(pod, c.name), 'Normal', 'Killing', `Stopping container ${c.name}`);
      try {
        await this.stopWithHook(rec, c, grace, turnOf(c.name), signal);
      } finally {
        stopped.get(c.name)!.resolve();
      }
    }));
    signal?.throwIfAborted();
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    // a sandbox whose pause died still holds its network until it is stopped
    for (const sb of rt.listPodSandboxes(rec.uid)) await rt.stopPodSandbox(sb.id);
  }

  /**
   * A terminated pod's volumes torn down once none of its containers runs, as upstream's volume manager does before
   * SyncTerminatedPod marks the pod terminated (so before the API object may go): its emptyDirs' data and its tokens
   * go, its logs stay. One that fails (a mount that will not go) is tried again by the next sync, or housekeeping.
   */
  private async tearDownVolumes(rec: PodRecord): Promise<void> {
    const podDir = this.o.runtime.podDir?.(rec.uid);
    if (!podDir || !this.volumes || this.o.runtime.listContainers(rec.uid).some((c) => c.state === 'running')) return;
    try {
      await this.volumes.tearDown(rec.uid, podDir);
      rec.volumes = undefined;
    } catch (err) {
      this.o.logger.warn({ err, pod: podDesc(rec.pod) }, 'cannot tear the volumes of a terminated pod down');
    }
  }

  /** Reads the termination message of each container that has exited since the last look. */
  private async readMessages(rec: PodRecord): Promise<void> {
    const podDir = this.o.runtime.podDir?.(rec.uid);
    if (!podDir) return;
    const specs = [...(rec.pod.spec?.initContainers ?? []), ...(rec.pod.spec?.containers ?? [])] as SpecContainer[];
    const containers = this.o.runtime.listContainers(rec.uid);
    for (const id of rec.messages?.keys() ?? []) if (!containers.some((c) => c.id === id)) rec.messages!.delete(id);
    for (const c of containers) {
      if (c.state !== 'exited' || rec.messages?.has(c.id)) continue;
      const spec = specs.find((s) => s.name === c.name);
      if (spec) (rec.messages ??= new Map()).set(c.id, await terminationMessage(this.o.runtime, podDir, spec, c));
    }
  }

  /** Housekeeping's: the restart back-offs not moved on for twice the cap are forgotten (upstream's backOff.GC). */
  gcBackoffs(): void { this.backoffs.gc(); }

  /** Runs `fn` after every pull queued before it. */
  private serially<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.pullQueue.then(fn);
    this.pullQueue = next.catch(() => undefined);
    return next;
  }

  /**
   * What the runtime still runs of a pod that no source knows (deleted while the kubelet was down), as upstream's
   * HandlePodCleanups and SyncTerminatingRuntimePod: killed as the pod the runtime's view of it makes
   * (runningPod.ToAPIPod: its name, namespace, uid and containers' names; so no hooks) with a 1 s grace period, which
   * leaves each container SIGTERM and SIGKILL 2 s later; then removed.
   */
  async removeOrphan(uid: string): Promise<void> {
    const rt = this.o.runtime;
    const sandbox = rt.listPodSandboxes(uid)[0]?.config;
    const containers = [...new Set(rt.listContainers(uid).map((c) => c.name))].map((name) => ({ name }));
    const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: sandbox?.name ?? '', namespace: sandbox?.namespace ?? '', uid }, spec: { containers } };
    await this.killPod({ uid, pod, waiting: new Map(), terminated: false }, ORPHAN_GRACE_SECONDS);
    await this.remove(uid);
  }

  /**
   * Forgets a pod that left the API: its sandboxes and containers go, then its directory (volumes/pod-dir.ts), as
   * upstream's housekeeping removes the directory of a pod that neither the API nor the runtime has any more (its
   * containers' logs are there: upstream's container GC takes them with the pod's containers).
   */
  async remove(uid: string): Promise<void> {
    const rt = this.o.runtime;
    for (const c of rt.listContainers(uid)) if (c.state === 'running') await rt.stopContainer(c.id, 0);
    for (const sb of rt.listPodSandboxes(uid)) await rt.removePodSandbox(sb.id);
    for (const backoff of [this.backoffs, this.pullBackoffs]) backoff.forget(`${uid}/`);
    this.volumes?.forget(uid);
    const podDir = rt.podDir?.(uid);
    if (!podDir || rt.listContainers(uid).length || rt.listPodSandboxes(uid).length) return;
    await removePodDir(podDir).catch((err: unknown) => {
      this.o.logger.warn({ err, podUid: uid, path: podDir }, 'orphaned pod found, but its directory could not be removed');
    });
  }
}
