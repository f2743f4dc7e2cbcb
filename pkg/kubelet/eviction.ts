// Node-pressure eviction, the basics of upstream's eviction manager (pkg/kubelet/eviction): hard thresholds
// (--eviction-hard memory.available<100Mi,nodefs.available<10%) checked every monitoring interval against the
// machine (MemAvailable of /proc/meminfo, else free memory; free space of the root dir's filesystem); a signal past
// its threshold sets the node's MemoryPressure or DiskPressure condition and evicts one pod per interval,
// BestEffort first, then Burstable, then Guaranteed (lower priority first within a class), with upstream's reason
// and message. Under pressure, node admission refuses new pods as upstream's eviction admit handler does. Before
// that, each round evicts every pod whose emptyDir holds more than its sizeLimit (localStorageEviction).
import { readFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { freemem, totalmem } from 'node:os';
import type { Logger } from 'pino';
import { canonicalQuantity, parseQuantity, quantityValue } from '../apimachinery/quantity.js';
import { formatTime, type Clock, type KubeObject } from '../client/index.js';

export type Signal = 'memory.available' | 'nodefs.available';
export interface Threshold { signal: Signal; quantity?: string; percentage?: number }
export interface Observation { available: number; capacity: number }
export type Observations = Partial<Record<Signal, Observation>>;

const SIGNALS: Signal[] = ['memory.available', 'nodefs.available'];
const RESOURCE: Record<Signal, string> = { 'memory.available': 'memory', 'nodefs.available': 'ephemeral-storage' };
export const CONDITION: Record<Signal, 'MemoryPressure' | 'DiskPressure'> = { 'memory.available': 'MemoryPressure', 'nodefs.available': 'DiskPressure' };

/** The grace period an evicted pod's kill gets, whatever its own asks (upstream's immediateEvictionGracePeriodSeconds). */
export const EVICTION_GRACE_SECONDS = 1;

/** Parses --eviction-hard ("memory.available<100Mi,nodefs.available<10%"); throws on a malformed entry. */
export const parseThresholds = (spec: string): Threshold[] => spec.split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
  const m = /^([a-z.]+)<(.+)$/.exec(s);
  if (!m || !SIGNALS.includes(m[1] as Signal)) throw new Error(`invalid eviction threshold "${s}": want memory.available or nodefs.available, "<", a quantity or a percentage`);
  const value = m[2]!;
  if (value.endsWith('%')) {
    const percentage = Number(value.slice(0, -1));
    if (!(percentage >= 0 && percentage <= 100)) throw new Error(`invalid eviction threshold "${s}": percentage out of range`);
    return { signal: m[1] as Signal, percentage };
  }
  parseQuantity(value);
  return { signal: m[1] as Signal, quantity: value };
});

const thresholdBytes = (t: Threshold, o: Observation): number =>
  (t.quantity !== undefined ? quantityValue(parseQuantity(t.quantity)) : Math.round((o.capacity * (t.percentage ?? 0)) / 100));

/** The thresholds crossed by these observations. */
export const crossed = (thresholds: Threshold[], obs: Observations): Threshold[] =>
  thresholds.filter((t) => { const o = obs[t.signal]; return !!o && o.available < thresholdBytes(t, o); });

const memAvailable = (): number => {
  try {
    const m = /^MemAvailable:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch { /* not Linux */ }
  return freemem();
};

/** What the machine has left now. */
export const observeMachine = async (rootDir: string): Promise<Observations> => {
  const obs: Observations = { 'memory.available': { available: memAvailable(), capacity: totalmem() } };
  try {
    const fs = await statfs(rootDir);
    obs['nodefs.available'] = { available: fs.bavail * fs.bsize, capacity: fs.blocks * fs.bsize };
  } catch { /* no such directory yet */ }
  return obs;
};

/** Upstream's QoS class of a pod. */
export const qosClass = (pod: KubeObject): 'BestEffort' | 'Burstable' | 'Guaranteed' => {
  const containers = [...((pod.spec?.initContainers ?? []) as KubeObject[]), ...((pod.spec?.containers ?? []) as KubeObject[])];
  let any = false;
  let guaranteed = true;
  for (const c of containers) {
    const req = (c.resources?.requests ?? {}) as Record<string, string>;
    const lim = (c.resources?.limits ?? {}) as Record<string, string>;
    for (const r of ['cpu', 'memory']) {
      if (req[r] || lim[r]) any = true;
      if (!lim[r] || (req[r] !== undefined && req[r] !== lim[r])) guaranteed = false;
    }
  }
  return !any ? 'BestEffort' : guaranteed ? 'Guaranteed' : 'Burstable';
};

const QOS_RANK = { BestEffort: 0, Burstable: 1, Guaranteed: 2 };

/** The pods in the order upstream would evict them for a resource: by QoS class, then priority, then age (newest first). */
export const rankForEviction = (pods: KubeObject[]): KubeObject[] => [...pods].sort((a, b) =>
  QOS_RANK[qosClass(a)] - QOS_RANK[qosClass(b)]
  || ((a.spec?.priority as number | undefined) ?? 0) - ((b.spec?.priority as number | undefined) ?? 0)
  || (b.metadata?.creationTimestamp ?? '').localeCompare(a.metadata?.creationTimestamp ?? ''));

const formatBytes = (n: number): string => {
  for (const [unit, size] of [['Gi', 2 ** 30], ['Mi', 2 ** 20], ['Ki', 2 ** 10]] as const) if (n >= size && n % size === 0) return `${n / size}${unit}`;
  return `${Math.max(0, Math.floor(n / 1024))}Ki`;
};

/** Upstream's eviction message for a pod evicted under this threshold. */
export const evictionMessage = (t: Threshold, o: Observation): string =>
  `The node was low on resource: ${RESOURCE[t.signal]}. Threshold quantity: ${t.quantity ?? `${t.percentage}%`}, available: ${formatBytes(o.available)}. `;

/** Why node admission refuses the pod under these conditions (upstream's eviction admit handler), if it does. */
export const pressureRejection = (pod: KubeObject, pressure: Set<string>): { reason: string; message: string } | undefined => {
  if (!pressure.size) return undefined;
  const critical = ((pod.spec?.priority as number | undefined) ?? 0) >= 2_000_000_000;
  if (critical) return undefined;
  const blocking = pressure.has('DiskPressure') ? [...pressure] : pressure.has('MemoryPressure') && qosClass(pod) === 'BestEffort' ? ['MemoryPressure'] : [];
  return blocking.length ? { reason: 'Evicted', message: `The node had condition: [${blocking.sort().join(' ')}]. ` } : undefined;
};

/** An evicted pod's status also says why it is going (upstream's DisruptionTarget condition, TerminationByKubelet). */
export const withDisruptionTarget = (status: Record<string, unknown>, message: string, now: number): Record<string, unknown> => {
  // the API copy's condition comes back among the foreign ones: replaced, keeping its time, so that syncs agree
  const conditions = (status.conditions ?? []) as { type: string; lastTransitionTime?: string }[];
  const had = conditions.find((c) => c.type === 'DisruptionTarget');
  return {
    ...status,
    conditions: [...conditions.filter((c) => c.type !== 'DisruptionTarget'), { type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet', message, lastTransitionTime: had?.lastTransitionTime ?? formatTime(now) }],
  };
};

/**
 * Upstream's emptyDirLimitEviction: the message evicting the pod for its first emptyDir that holds more than its
 * sizeLimit (`usage` in bytes by volume name), if one does.
 */
export const emptyDirOverLimit = (pod: KubeObject, usage: Map<string, number>): string | undefined => {
  for (const v of (pod.spec?.volumes ?? []) as { name: string; emptyDir?: { sizeLimit?: string } }[]) {
    const limit = v.emptyDir?.sizeLimit;
    const used = usage.get(v.name);
    if (limit === undefined || used === undefined) continue;
    const bytes = quantityValue(parseQuantity(limit));
    if (bytes > 0 && used > bytes) return `Usage of EmptyDir volume "${v.name}" exceeds the limit "${canonicalQuantity(limit)}". `;
  }
  return undefined;
};

export interface EvictionManagerOptions {
  thresholds: Threshold[];
  clock: Clock;
  logger: Logger;
  /** What the machine has left (default: observeMachine of the kubelet's root dir). */
  observe: () => Promise<Observations>;
  /** Pods that may be evicted (running on this node, not already terminating). */
  activePods: () => KubeObject[];
  evict: (pod: KubeObject, message: string) => void;
  /** The node conditions changed: post the node status now. */
  onPressureChange: () => void;
  /** What the pod's emptyDir volumes hold, in bytes by volume name (without it: no local storage eviction). */
  emptyDirUsage?: (pod: KubeObject) => Promise<Map<string, number>>;
  /** Upstream's housekeeping interval, 10 s. */
  intervalMs?: number;
}

export class EvictionManager {
  private conditions = new Set<string>();

  constructor(private readonly o: EvictionManagerOptions) {}

  /** The pressure conditions that hold now (MemoryPressure, DiskPressure). */
  pressure(): Set<string> { return this.conditions; }

  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      await this.check().catch((err: unknown) => this.o.logger.warn({ err }, 'eviction manager: observation failed'));
      await this.o.clock.sleep(this.o.intervalMs ?? 10_000, signal).catch(() => undefined);
    }
  }

  /** One round: evict the pods past their emptyDirs' limits; else observe, update the conditions, evict at most one pod. */
  async check(): Promise<void> {
    if (await this.localStorageEviction()) return;
    const obs = await this.o.observe();
    const hit = crossed(this.o.thresholds, obs);
    const next = new Set(hit.map((t) => CONDITION[t.signal]));
    if ([...next].sort().join() !== [...this.conditions].sort().join()) {
      this.o.logger.info({ conditions: [...next] }, 'eviction manager: node pressure changed');
      this.conditions = next;
      this.o.onPressureChange();
    }
    const t = hit[0];
    if (!t) return;
    const victim = rankForEviction(this.o.activePods())[0];
    if (!victim) return;
    const message = evictionMessage(t, obs[t.signal]!);
    this.o.logger.info({ pod: `${victim.metadata?.namespace}/${victim.metadata?.name}`, signal: t.signal }, 'eviction manager: evicting pod');
    this.o.evict(victim, message);
  }

  /** Evicts every pod an emptyDir of which holds more than its sizeLimit; whether it evicted any. */
  private async localStorageEviction(): Promise<boolean> {
    if (!this.o.emptyDirUsage) return false;
    let evicted = false;
    for (const pod of this.o.activePods()) {
      if (!((pod.spec?.volumes ?? []) as { emptyDir?: { sizeLimit?: string } }[]).some((v) => v.emptyDir?.sizeLimit)) continue;
      const message = emptyDirOverLimit(pod, await this.o.emptyDirUsage(pod));
      if (!message) continue;
      this.o.logger.info({ pod: `${pod.metadata?.namespace}/${pod.metadata?.name}` }, 'eviction manager: evicting pod past its emptyDir limit');
      this.o.evict(pod, message);
      evicted = true;
    }
    return evicted;
  }
}
