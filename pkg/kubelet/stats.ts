// The kubelet's resource figures as upstream serves them: /stats/summary (stats/v1alpha1 Summary: the node's CPU,
// memory, network, filesystems and process limits; each pod's CPU, memory, network, volumes and ephemeral storage;
// each container's CPU, memory, rootfs and logs) and /metrics/resource (the Prometheus series metrics-server
// scrapes: CPU and memory only). Container CPU and memory come from the runtime (ListContainerStats); the node's
// from the machine (/proc/stat, memory) on the process runtime, and from the sum of its simulated containers on the
// fake one; networks, disk use and the filesystem from the runtime (/proc/net/dev of the node or of a sandbox's
// netns, `du` of a container's files and logs, statfs; simulated on the fake runtime); volumes from `du` of their
// directories. usageNanoCores is the rate between two reads, as the kubelet's cadvisor provider computes it.
import { readFileSync } from 'node:fs';
import { freemem, totalmem, uptime } from 'node:os';
import { formatTime as rfc3339, type KubeObject } from '../client/index.js';
import { diskUsage, filesystemOf, NO_USAGE } from './disk-usage.js';
import type { ContainerUsage, DiskUsage, FsInfo, InterfaceStats, Runtime } from './runtime/types.js';

export interface StatsSource {
  nodeName: string;
  pods(): KubeObject[];
  runtime: Runtime;
  /** Where a pod's volume is on disk (runtimes that materialise volumes). */
  volumeDir?: (podUid: string, volume: string) => string;
}

interface Sample { cpuNs: number; at: number }

interface SpecVolume { name: string; emptyDir?: { medium?: string }; configMap?: unknown; secret?: unknown; projected?: unknown; downwardAPI?: unknown }

/** The volumes whose usage is reported (upstream: those with a metrics provider that are the kubelet's own files). */
const MEASURED_VOLUMES = ['emptyDir', 'configMap', 'secret', 'projected', 'downwardAPI'] as const;

/** Upstream's IsLocalEphemeralVolume: what counts toward the pod's ephemeral storage besides its containers. */
const isLocalEphemeral = (v: SpecVolume): boolean => (v.emptyDir !== undefined && v.emptyDir.medium !== 'Memory') || v.configMap !== undefined;

/** The default interface is inlined in NetworkStats, as upstream's (eth0). */
const DEFAULT_INTERFACE = 'eth0';

/** CPU time of the whole machine (all CPUs, busy only), in nanoseconds, from /proc/stat. */
function machineCpuNs(): number {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = f;
    return (user + nice + system + irq + softirq + steal) * 10_000_000;
  } catch {
    return 0;
  }
}

function processCounts(): { maxpid: number; curproc: number } {
  try {
    const maxpid = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8').trim());
    // /proc/loadavg's fourth field: running/total scheduling entities
    const curproc = Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[3]!.split('/')[1]);
    return { maxpid, curproc };
  } catch {
    return { maxpid: 0, curproc: 0 };
  }
}

/** NetworkStats: every interface, the default one also inline. */
const networkStats = (time: string, interfaces: InterfaceStats[]): Record<string, unknown> => {
  const def = interfaces.find((i) => i.name === DEFAULT_INTERFACE);
  return { time, ...def, interfaces };
};

/** FsStats of a filesystem: its size and free space, and what `used` takes of it (the whole filesystem's use without). */
const fsStats = (time: string, fs: FsInfo | undefined, used?: DiskUsage): Record<string, unknown> => ({
  time,
  ...(fs ? { availableBytes: fs.availableBytes, capacityBytes: fs.capacityBytes } : {}),
  ...(used ? { usedBytes: used.bytes } : fs ? { usedBytes: fs.usedBytes } : {}),
  ...(fs ? { inodesFree: fs.inodesFree, inodes: fs.inodes } : {}),
  ...(used ? { inodesUsed: used.inodes } : fs ? { inodesUsed: fs.inodes - fs.inodesFree } : {}),
});

const add = (into: DiskUsage, u: DiskUsage): void => { into.bytes += u.bytes; into.inodes += u.inodes; };

/** The node's CPU time and memory in use: the machine's on the process runtime, the sum of its simulated containers on the fake one. */
const nodeUsage = (runtime: Runtime, usage: Map<string, ContainerUsage>): { cpuNs: number; memory: number } => {
  if (runtime.name !== 'fake') return { cpuNs: machineCpuNs(), memory: totalmem() - freemem() };
  let cpuNs = 0;
  let memory = 0;
  for (const u of usage.values()) { cpuNs += u.cpuCoreNanoSeconds; memory += u.memoryWorkingSetBytes; }
  return { cpuNs, memory };
};

/** Prometheus label value escaping. */
const esc = (v: string): string => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"');

/** The pod cgroup's parent by QoS class, as the kubelet's cgroupfs driver names it. */
const QOS_CGROUP: Record<string, string> = { Guaranteed: '', Burstable: '/burstable', BestEffort: '/besteffort' };

/** Prometheus text families whose samples carry the scrape's time in milliseconds, as the kubelet's collectors write them. */
class PromText {
  readonly lines: string[] = [];
  constructor(private readonly now: number) {}
  family(name: string, help: string, type: string, samples: [string, number][]): void {
    this.lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [labels, value] of samples) this.lines.push(`${name}${labels} ${value} ${this.now}`);
  }
}

export class StatsProvider {
  private readonly previous = new Map<string, Sample>();

  /** The CPU block of a container, pod or node: cumulative time and the rate since the previous read of `key`. */
  private cpu(key: string, cpuNs: number, now: number): Record<string, unknown> {
    const prev = this.previous.get(key);
    this.previous.set(key, { cpuNs, at: now });
    // nanoseconds of CPU per second of wall time (`now` is in ms)
    const rate = prev && now > prev.at ? Math.max(0, Math.round(((cpuNs - prev.cpuNs) / (now - prev.at)) * 1e3)) : 0;
    return { time: rfc3339(now), usageNanoCores: rate, usageCoreNanoSeconds: Math.round(cpuNs) };
  }

  /** The stats/v1alpha1 Summary of a node; without `detail`, CPU and memory alone (what /metrics/resource needs). */
  async summary(src: StatsSource, now = Date.now(), detail = true): Promise<Record<string, unknown>> {
    const time = rfc3339(now);
    const { runtime } = src;
    const usage = runtime.containerUsage(now);
    const containers = runtime.listContainers();
    const fs = detail ? await runtime.filesystem?.() : undefined;
    const pods = (await Promise.all(src.pods().map(async (pod) => {
      const uid = pod.metadata?.uid ?? '';
      const mine = containers.filter((c) => c.podUid === uid && usage.has(c.id));
      let cpuNs = 0;
      let memory = 0;
      const ephemeral = { ...NO_USAGE };
      const stats = await Promise.all(mine.map(async (c) => {
        const u = usage.get(c.id)!;
        cpuNs += u.cpuCoreNanoSeconds;
        memory += u.memoryWorkingSetBytes;
        const disk = detail ? await runtime.containerDiskUsage?.(c.id) : undefined;
        if (disk) { add(ephemeral, disk.rootfs); add(ephemeral, disk.logs); }
        return {
          name: c.name, startTime: rfc3339(c.startedAt ?? c.createdAt), cpu: this.cpu(`c/${c.id}`, u.cpuCoreNanoSeconds, now),
          memory: { time, usageBytes: u.memoryWorkingSetBytes, workingSetBytes: u.memoryWorkingSetBytes, rssBytes: u.memoryWorkingSetBytes },
          ...(disk ? { rootfs: fsStats(time, fs, disk.rootfs), logs: fsStats(time, fs, disk.logs) } : {}),
        };
      }));
      const out: Record<string, unknown> = {
        podRef: { name: pod.metadata?.name ?? '', namespace: pod.metadata?.namespace ?? '', uid },
        startTime: (pod.status?.startTime as string | undefined) ?? time,
        containers: stats,
        cpu: this.cpu(`p/${uid}`, cpuNs, now),
        memory: { time, usageBytes: memory, workingSetBytes: memory, rssBytes: memory },
      };
      if (detail && stats.length) {
        const sandbox = runtime.listPodSandboxes(uid).sort((a, b) => Number(b.state === 'ready') - Number(a.state === 'ready') || b.createdAt - a.createdAt)[0];
        const interfaces = sandbox && runtime.interfaceStats?.(sandbox.id);
        if (interfaces) out.network = networkStats(time, interfaces);
        const volumes = await this.volumes(src, uid, (pod.spec?.volumes ?? []) as SpecVolume[], time, ephemeral);
        if (volumes.length) out.volume = volumes;
        if (runtime.containerDiskUsage) out['ephemeral-storage'] = fsStats(time, fs, ephemeral);
      }
      out.process_stats = { process_count: stats.length };
      return out;
    }))).filter((p) => (p.containers as unknown[]).length > 0);
    const { cpuNs: nodeCpuNs, memory: nodeMemory } = nodeUsage(runtime, usage);
    const node: Record<string, unknown> = {
      nodeName: src.nodeName,
      startTime: rfc3339(now - uptime() * 1000),
      cpu: this.cpu(`n/${src.nodeName}`, nodeCpuNs, now),
      memory: { time, availableBytes: Math.max(0, totalmem() - nodeMemory), usageBytes: nodeMemory, workingSetBytes: nodeMemory, rssBytes: nodeMemory, pageFaults: 0, majorPageFaults: 0 },
    };
    if (detail) {
      const interfaces = runtime.interfaceStats?.();
      if (interfaces) node.network = networkStats(time, interfaces);
      if (fs) {
        node.fs = fsStats(time, fs);
        node.runtime = { imageFs: fsStats(time, fs) };
      }
      node.rlimit = { time, ...processCounts() };
    }
    return { node, pods };
  }

  /** VolumeStats of the pod's own volumes (`du` of their directories); local ephemeral ones are added to `ephemeral`. */
  private async volumes(src: StatsSource, uid: string, volumes: SpecVolume[], time: string, ephemeral: DiskUsage): Promise<Record<string, unknown>[]> {
    const { volumeDir } = src;
    if (!volumeDir) return [];
    const out: Record<string, unknown>[] = [];
    for (const v of volumes) {
      if (!MEASURED_VOLUMES.some((kind) => v[kind] !== undefined)) continue;
      const dir = volumeDir(uid, v.name);
      const [used, fs] = await Promise.all([diskUsage(dir), filesystemOf(dir)]);
      if (!fs) continue; // not set up (yet)
      if (isLocalEphemeral(v)) add(ephemeral, used);
      out.push({ ...fsStats(time, fs, used), name: v.name });
    }
    return out;
  }

  /** The series of /metrics/resource, in Prometheus text with upstream's names, help and millisecond timestamps. */
  async resourceMetrics(src: StatsSource, now = Date.now()): Promise<string> {
    const s = await this.summary(src, now, false);
    const text = new PromText(now);
    const node = s.node as { cpu: { usageCoreNanoSeconds: number }; memory: { workingSetBytes: number } };
    const pods = s.pods as { podRef: { name: string; namespace: string }; containers: { name: string; startTime: string; cpu: { usageCoreNanoSeconds: number }; memory: { workingSetBytes: number } }[]; cpu: { usageCoreNanoSeconds: number }; memory: { workingSetBytes: number } }[];
    const podLabels = (p: (typeof pods)[number]): string => `namespace="${esc(p.podRef.namespace)}",pod="${esc(p.podRef.name)}"`;
    const each = (f: (p: (typeof pods)[number], c: (typeof pods)[number]['containers'][number]) => number): [string, number][] =>
      pods.flatMap((p) => p.containers.map((c): [string, number] => [`{container="${esc(c.name)}",${podLabels(p)}}`, f(p, c)]));
    text.family('container_cpu_usage_seconds_total', '[STABLE] Cumulative cpu time consumed by the container in core-seconds', 'counter', each((_, c) => c.cpu.usageCoreNanoSeconds / 1e9));
    text.family('container_memory_working_set_bytes', '[STABLE] Current working set of the container in bytes', 'gauge', each((_, c) => c.memory.workingSetBytes));
    text.family('container_start_time_seconds', '[STABLE] Start time of the container since unix epoch in seconds', 'gauge', each((_, c) => Date.parse(c.startTime) / 1000));
    text.family('node_cpu_usage_seconds_total', '[STABLE] Cumulative cpu time consumed by the node in core-seconds', 'counter', [['', node.cpu.usageCoreNanoSeconds / 1e9]]);
    text.family('node_memory_working_set_bytes', '[STABLE] Current working set of the node in bytes', 'gauge', [['', node.memory.workingSetBytes]]);
    text.family('pod_cpu_usage_seconds_total', '[STABLE] Cumulative cpu time consumed by the pod in core-seconds', 'counter', pods.map((p) => [`{${podLabels(p)}}`, p.cpu.usageCoreNanoSeconds / 1e9]));
    text.family('pod_memory_working_set_bytes', '[STABLE] Current working set of the pod in bytes', 'gauge', pods.map((p) => [`{${podLabels(p)}}`, p.memory.workingSetBytes]));
    return `${text.lines.join('\n')}\n# HELP scrape_error [ALPHA] 1 if there was an error while getting container metrics, 0 otherwise\n# TYPE scrape_error gauge\nscrape_error 0\n`;
  }

  /**
   * /metrics/cadvisor: cAdvisor's container series as the kubelet exports them (what Prometheus' kubelet job scrapes),
   * with its label set {container, id, image, name, namespace, pod}: the node's root cgroup "/", each pod's cgroup and
   * each running container (id: its cgroupfs path under /kubepods by QoS class; name: the runtime's container id).
   */
  cadvisorMetrics(src: StatsSource, now = Date.now()): string {
    const usage = src.runtime.containerUsage(now);
    const running = src.runtime.listContainers().filter((c) => usage.has(c.id));
    const node = nodeUsage(src.runtime, usage);
    interface Series { labels: Record<string, string>; cpuNs: number; memory: number; start: number }
    const series: Series[] = [{ labels: { container: '', id: '/', image: '', name: '', namespace: '', pod: '' }, cpuNs: node.cpuNs, memory: node.memory, start: now - uptime() * 1000 }];
    for (const pod of src.pods()) {
      const uid = pod.metadata?.uid ?? '';
      const mine = running.filter((c) => c.podUid === uid);
      if (!mine.length) continue;
      const meta = { namespace: pod.metadata?.namespace ?? '', pod: pod.metadata?.name ?? '' };
      const cgroup = `/kubepods${QOS_CGROUP[pod.status?.qosClass as string] ?? '/besteffort'}/pod${uid}`;
      const containers = mine.map((c): Series => {
        const u = usage.get(c.id)!;
        return { labels: { container: c.name, id: `${cgroup}/${c.id}`, image: c.image, name: c.id, ...meta }, cpuNs: u.cpuCoreNanoSeconds, memory: u.memoryWorkingSetBytes, start: c.startedAt ?? c.createdAt };
      });
      const sum = (f: (x: Series) => number): number => containers.reduce((n, x) => n + f(x), 0);
      series.push({ labels: { container: '', id: cgroup, image: '', name: '', ...meta }, cpuNs: sum((x) => x.cpuNs), memory: sum((x) => x.memory), start: Math.min(...containers.map((x) => x.start)) }, ...containers);
    }
    const text = new PromText(now);
    const labels = (x: Series, extra: Record<string, string> = {}): string =>
      `{${Object.entries({ ...x.labels, ...extra }).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}="${esc(v)}"`).join(',')}}`;
    const family = (name: string, help: string, type: string, value: (x: Series) => number, extra?: Record<string, string>): void =>
      text.family(name, help, type, series.map((x) => [labels(x, extra), value(x)]));
    family('container_cpu_usage_seconds_total', 'Cumulative cpu time consumed in seconds.', 'counter', (x) => x.cpuNs / 1e9, { cpu: 'total' });
    family('container_last_seen', 'Last time a container was seen by the exporter', 'gauge', () => Math.floor(now / 1000));
    family('container_memory_rss', 'Size of RSS in bytes.', 'gauge', (x) => x.memory);
    family('container_memory_usage_bytes', 'Current memory usage in bytes, including all memory regardless of when it was accessed', 'gauge', (x) => x.memory);
    family('container_memory_working_set_bytes', 'Current working set in bytes.', 'gauge', (x) => x.memory);
    family('container_start_time_seconds', 'Start time of the container since unix epoch in seconds.', 'gauge', (x) => Math.floor(x.start / 1000));
    return `${text.lines.join('\n')}\n`;
  }
}
