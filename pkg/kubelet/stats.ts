// The kubelet's resource figures as upstream serves them: /stats/summary (stats/v1alpha1 Summary: the node's CPU,
// memory, filesystem and process limits, and each pod's and container's CPU and memory) and /metrics/resource (the
// Prometheus series metrics-server scrapes). Container figures come from the runtime (ListContainerStats); the node's
// from the machine (/proc/stat, memory, the root dir's filesystem) on the process runtime, and from the sum of its
// simulated containers on the fake one. usageNanoCores is the rate between two reads, as the kubelet's cadvisor
// provider computes it.
import { statfs } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { freemem, totalmem, uptime } from 'node:os';
import { formatTime as rfc3339, type KubeObject } from '../client/index.js';
import type { ContainerUsage, Runtime } from './runtime/types.js';

export interface StatsSource {
  nodeName: string;
  pods(): KubeObject[];
  runtime: Runtime;
  /** The kubelet's root dir, whose filesystem is the node's (process runtime). */
  rootDir?: string;
}

interface Sample { cpuNs: number; at: number }

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

export class StatsProvider {
  private readonly previous = new Map<string, Sample>();

  /** The CPU block of a container, pod or node: cumulative time and the rate since the previous read of `key`. */
  private cpu(key: string, cpuNs: number, now: number): Record<string, unknown> {
    const prev = this.previous.get(key);
    this.previous.set(key, { cpuNs, at: now });
    const rate = prev && now > prev.at ? Math.max(0, Math.round(((cpuNs - prev.cpuNs) / (now - prev.at)) * 1e6)) : 0;
    return { time: rfc3339(now), usageNanoCores: rate, usageCoreNanoSeconds: Math.round(cpuNs) };
  }

  /** The stats/v1alpha1 Summary of a node. */
  async summary(src: StatsSource, now = Date.now()): Promise<Record<string, unknown>> {
    const usage = src.runtime.containerUsage();
    const containers = src.runtime.listContainers();
    const pods = src.pods().map((pod) => {
      const uid = pod.metadata?.uid ?? '';
      const mine = containers.filter((c) => c.podUid === uid && usage.has(c.id));
      let cpuNs = 0;
      let memory = 0;
      const stats = mine.map((c) => {
        const u = usage.get(c.id)!;
        cpuNs += u.cpuCoreNanoSeconds;
        memory += u.memoryWorkingSetBytes;
        return {
          name: c.name, startTime: rfc3339(c.startedAt ?? c.createdAt), cpu: this.cpu(`c/${c.id}`, u.cpuCoreNanoSeconds, now),
          memory: { time: rfc3339(now), usageBytes: u.memoryWorkingSetBytes, workingSetBytes: u.memoryWorkingSetBytes, rssBytes: u.memoryWorkingSetBytes },
        };
      });
      return {
        podRef: { name: pod.metadata?.name ?? '', namespace: pod.metadata?.namespace ?? '', uid },
        startTime: (pod.status?.startTime as string | undefined) ?? rfc3339(now),
        containers: stats,
        cpu: this.cpu(`p/${uid}`, cpuNs, now),
        memory: { time: rfc3339(now), usageBytes: memory, workingSetBytes: memory, rssBytes: memory },
        process_stats: { process_count: stats.length },
      };
    }).filter((p) => p.containers.length > 0);
    const simulated = src.runtime.name === 'fake';
    const nodeCpuNs = simulated ? [...usage.values()].reduce((n, u: ContainerUsage) => n + u.cpuCoreNanoSeconds, 0) : machineCpuNs();
    const nodeMemory = simulated ? [...usage.values()].reduce((n, u) => n + u.memoryWorkingSetBytes, 0) : totalmem() - freemem();
    const node: Record<string, unknown> = {
      nodeName: src.nodeName,
      startTime: rfc3339(now - uptime() * 1000),
      cpu: this.cpu(`n/${src.nodeName}`, nodeCpuNs, now),
      memory: { time: rfc3339(now), availableBytes: Math.max(0, totalmem() - nodeMemory), usageBytes: nodeMemory, workingSetBytes: nodeMemory, rssBytes: nodeMemory, pageFaults: 0, majorPageFaults: 0 },
      rlimit: { time: rfc3339(now), ...processCounts() },
    };
    if (src.rootDir) {
      try {
        const fs = await statfs(src.rootDir);
        const block = { time: rfc3339(now), availableBytes: fs.bavail * fs.bsize, capacityBytes: fs.blocks * fs.bsize, usedBytes: (fs.blocks - fs.bfree) * fs.bsize, inodesFree: fs.ffree, inodes: fs.files, inodesUsed: fs.files - fs.ffree };
        node.fs = block;
        node.runtime = { imageFs: block };
      } catch { /* the root dir is not there yet */ }
    }
    return { node, pods };
  }

  /** The series of /metrics/resource, in Prometheus text with upstream's names, help and millisecond timestamps. */
  async resourceMetrics(src: StatsSource, now = Date.now()): Promise<string> {
    const s = await this.summary(src, now);
    const lines: string[] = [];
    const family = (name: string, help: string, type: string, samples: [string, number][]): void => {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
      for (const [labels, value] of samples) lines.push(`${name}${labels} ${value} ${now}`);
    };
    const node = s.node as { cpu: { usageCoreNanoSeconds: number }; memory: { workingSetBytes: number } };
    const pods = s.pods as { podRef: { name: string; namespace: string }; containers: { name: string; startTime: string; cpu: { usageCoreNanoSeconds: number }; memory: { workingSetBytes: number } }[]; cpu: { usageCoreNanoSeconds: number }; memory: { workingSetBytes: number } }[];
    const esc = (v: string): string => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
    const podLabels = (p: (typeof pods)[number]): string => `namespace="${esc(p.podRef.namespace)}",pod="${esc(p.podRef.name)}"`;
    const each = (f: (p: (typeof pods)[number], c: (typeof pods)[number]['containers'][number]) => number): [string, number][] =>
      pods.flatMap((p) => p.containers.map((c): [string, number] => [`{container="${esc(c.name)}",${podLabels(p)}}`, f(p, c)]));
    family('container_cpu_usage_seconds_total', '[STABLE] Cumulative cpu time consumed by the container in core-seconds', 'counter', each((_, c) => c.cpu.usageCoreNanoSeconds / 1e9));
    family('container_memory_working_set_bytes', '[STABLE] Current working set of the container in bytes', 'gauge', each((_, c) => c.memory.workingSetBytes));
    family('container_start_time_seconds', '[STABLE] Start time of the container since unix epoch in seconds', 'gauge', each((_, c) => Date.parse(c.startTime) / 1000));
    family('node_cpu_usage_seconds_total', '[STABLE] Cumulative cpu time consumed by the node in core-seconds', 'counter', [['', node.cpu.usageCoreNanoSeconds / 1e9]]);
    family('node_memory_working_set_bytes', '[STABLE] Current working set of the node in bytes', 'gauge', [['', node.memory.workingSetBytes]]);
    family('pod_cpu_usage_seconds_total', '[STABLE] Cumulative cpu time consumed by the pod in core-seconds', 'counter', pods.map((p) => [`{${podLabels(p)}}`, p.cpu.usageCoreNanoSeconds / 1e9]));
    family('pod_memory_working_set_bytes', '[STABLE] Current working set of the pod in bytes', 'gauge', pods.map((p) => [`{${podLabels(p)}}`, p.memory.workingSetBytes]));
    lines.push('# HELP scrape_error [ALPHA] 1 if there was an error while getting container metrics, 0 otherwise', '# TYPE scrape_error gauge', 'scrape_error 0');
    return `${lines.join('\n')}\n`;
  }
}
