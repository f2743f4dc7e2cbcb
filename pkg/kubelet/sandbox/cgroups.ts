// cgroup v2 limits for sandboxed pods, as upstream's kubelet (cgroupfs driver) and runc set them: a cgroup per pod,
// kubepods/pod<uid>, and one per container below it. The kubelet turns requests and limits into CRI's Linux
// resources (shares 1024 per CPU requested, at least 2; a CFS quota per 100 ms period from the CPU limit, at least
// 1 ms; the memory limit in bytes) and the runtime writes them as cgroup v2 files (cpu.weight converted from the
// shares as runc does, cpu.max, memory.max). Only where /sys/fs/cgroup is a writable cgroup2 mount offering cpu
// and memory.
import { access, appendFile, constants, mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseQuantity, quantityMilliValue, quantityValue } from '../../apimachinery/quantity.js';
import type { LinuxContainerResources } from '../runtime/types.js';

export const CPU_PERIOD_US = 100_000;
const MIN_SHARES = 2;
const MAX_SHARES = 262_144;
const MIN_QUOTA_US = 1_000;

/** upstream's milliCPUToShares. */
export const cpuShares = (milli: number): number =>
  (milli <= 0 ? MIN_SHARES : Math.min(MAX_SHARES, Math.max(MIN_SHARES, Math.floor((milli * 1024) / 1000))));

/** upstream's milliCPUToQuota (0: no quota). */
export const cpuQuota = (milli: number, periodUs = CPU_PERIOD_US): number =>
  (milli <= 0 ? 0 : Math.max(MIN_QUOTA_US, Math.floor((milli * periodUs) / 1000)));

/** runc's conversion of cgroup v1 shares to a cgroup v2 weight (1..10000). */
export const sharesToWeight = (shares: number): number => 1 + Math.floor(((shares - 2) * 9999) / 262_142);

const amount = (q: string | undefined, milli: boolean): number => {
  if (q === undefined) return 0;
  try { const v = parseQuantity(q); return milli ? quantityMilliValue(v) : quantityValue(v); } catch { return 0; }
};

/** The Linux resources of a container spec (upstream's calculateLinuxResources): a CPU limit alone also sets the shares. */
export const linuxResources = (r: { requests?: Record<string, string>; limits?: Record<string, string> } = {}): LinuxContainerResources => {
  const request = amount(r.requests?.cpu, true);
  const limit = amount(r.limits?.cpu, true);
  const memory = amount(r.limits?.memory, false);
  return {
    cpuShares: cpuShares(request === 0 && limit > 0 ? limit : request),
    ...(limit > 0 ? { cpuQuota: cpuQuota(limit), cpuPeriod: CPU_PERIOD_US } : {}),
    ...(memory > 0 ? { memoryLimitBytes: memory } : {}),
  };
};

/** The files a container's cgroup gets. */
export const cgroupFiles = (r: LinuxContainerResources): Record<string, string> => ({
  'cpu.max': r.cpuQuota ? `${r.cpuQuota} ${r.cpuPeriod ?? CPU_PERIOD_US}` : `max ${r.cpuPeriod ?? CPU_PERIOD_US}`,
  'cpu.weight': String(sharesToWeight(r.cpuShares ?? MIN_SHARES)),
  'memory.max': r.memoryLimitBytes ? String(r.memoryLimitBytes) : 'max',
});

export class Cgroups {
  constructor(readonly root = '/sys/fs/cgroup') {}

  /** Why cgroups cannot be used here, or undefined when they can. */
  async unavailable(): Promise<string | undefined> {
    const controllers = await readFile(join(this.root, 'cgroup.controllers'), 'utf8').catch(() => undefined);
    if (controllers === undefined) return `${this.root} is not a cgroup v2 mount`;
    const have = controllers.trim().split(/\s+/);
    const missing = ['cpu', 'memory'].filter((c) => !have.includes(c));
    if (missing.length) return `cgroup v2 controllers ${missing.join(', ')} are not available at ${this.root}`;
    try { await access(join(this.root, 'cgroup.subtree_control'), constants.W_OK); } catch { return `${this.root} is not writable`; }
    try {
      await this.enable(this.root);
    } catch (e) { return `cannot enable cpu and memory below ${this.root}: ${(e as Error).message}`; }
    return undefined;
  }

  podPath(podUid: string): string { return join(this.root, 'kubepods', `pod${podUid}`); }

  containerPath(podUid: string, containerId: string): string { return join(this.podPath(podUid), containerId); }

  /** Creates kubepods/pod<uid>/<container> with the container's limits; returns its directory. */
  async createContainer(podUid: string, containerId: string, r: LinuxContainerResources): Promise<string> {
    const kubepods = join(this.root, 'kubepods');
    const pod = this.podPath(podUid);
    for (const dir of [kubepods, pod]) {
      await mkdir(dir, { recursive: true });
      await this.enable(dir);
    }
    const dir = this.containerPath(podUid, containerId);
    await mkdir(dir, { recursive: true });
    for (const [file, value] of Object.entries(cgroupFiles(r))) await writeFile(join(dir, file), value);
    return dir;
  }

  /** Removes a cgroup once its processes are gone (the kernel refuses while any is left). */
  async remove(dir: string): Promise<void> {
    await rmdir(dir).catch((e: NodeJS.ErrnoException) => { if (e.code !== 'ENOENT') throw e; });
  }

  /** Removes the pod's cgroup and any container cgroup left below it. */
  async removePod(podUid: string): Promise<void> {
    const pod = this.podPath(podUid);
    const entries = await readdir(pod, { withFileTypes: true }).catch(() => []);
    for (const e of entries) if (e.isDirectory()) await this.remove(join(pod, e.name));
    await this.remove(pod);
  }

  private async enable(dir: string): Promise<void> {
    const current = await readFile(join(dir, 'cgroup.subtree_control'), 'utf8').catch(() => '');
    const want = ['cpu', 'memory'].filter((c) => !current.split(/\s+/).includes(c));
    if (want.length) await appendFile(join(dir, 'cgroup.subtree_control'), want.map((c) => `+${c}`).join(' '));
  }
}
