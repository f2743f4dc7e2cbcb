// Pod sandboxes for the process runtime when the kubelet runs as root on Linux: per pod a network namespace on the
// node's bridge with an address from the podCIDR (host-local IPAM), a pause process holding new PID, IPC and UTS
// namespaces (hostname = the pod's), and /etc/resolv.conf, /etc/hosts, /etc/hostname of its own; the pod's
// containers run in all of these (nsenter into the pause's PID/IPC/UTS namespaces, then `ip netns exec`, which
// also binds /etc/netns/<ns>/* over /etc/*), each in its cgroup v2 with its limits when cgroups are usable.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { waitGone } from '../runtime/procfs.js';
import { wrapperArgv } from '../runtime/wrapper-shell.js';
import type { DnsConfig, HostsEntries, LinuxContainerResources } from '../runtime/types.js';
import type { Cgroups } from './cgroups.js';
import { hostsFile, resolvConf } from './dns.js';
import { parseCidr } from './cidr.js';
import { HostLocalIpam } from './ipam.js';
import { detach, netnsName, netnsPids, NodeBridge } from './netns.js';

export interface PodSandboxesOptions {
  /** The node's pod range (--pod-cidr); without it, setPodCidr() gives it once the Node's spec.podCIDR is set. */
  podCidr?: string;
  logger: Logger;
  /** Set when cgroup v2 is usable. */
  cgroups?: Cgroups;
  /**
   * Where the address reservations of each bridge live, host-wide as CNI's host-local keeps them: nodes of two
   * clusters on one machine with the same pod range share its bridge, so they must share its addresses.
   */
  networksDir?: string;
}

/** A reservation this young may belong to a sandbox another kubelet is still creating. */
const RECLAIM_AFTER_MS = 60_000;

export interface SandboxSpec {
  id: string;
  podUid: string;
  hostname: string;
  dns?: DnsConfig;
  hosts?: HostsEntries;
  /** The pod's directory (the sandbox's /etc files go in <podDir>/etc). */
  podDir: string;
}

/**
 * The pause, PID 1 of the pod's PID namespace, as a shell: as upstream's pause it reaps the orphans the pod's
 * processes leave (the shell's wait collects any child, adopted ones too) and exits on SIGTERM; a shell and a sleep
 * where a Node process (~7 MB private, ~50 ms of CPU to start) left zombies. Its `$0` names it in ps.
 */
const PAUSE = ['sh', '-c', 'trap "exit 0" TERM INT; while :; do sleep 2147483647 & wait $!; done', 'pause'];

export interface PodSandbox {
  id: string;
  podUid: string;
  ip: string;
  netns: string;
  /** The pause process as the host sees it (PID 1 of the pod's PID namespace). */
  pausePid: number;
  /** The pause's wrapper (`unshare`), whose process group holds the pause; a pid, as it outlives a kubelet restart. */
  holderPid: number;
  etcDir: string;
}

/** Where `ip netns exec` finds the files it binds over /etc for a namespace. */
const ETC_NETNS = '/etc/netns';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The children of a process (the kernel's list, /proc/PID/task/PID/children). */
export const childPids = async (pid: number): Promise<number[]> =>
  (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '')).split(/\s+/).filter(Boolean).map(Number);

/**
 * The process a wrapper (nsenter, unshare) forked to run the real program, waiting for it up to `ms`; a wrapper
 * entering a PID namespace must fork, and waits for that child, whose exit status it passes on.
 */
export const forkedChild = async (pid: number, ms = 0): Promise<number | undefined> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const [child] = await childPids(pid);
    if (child !== undefined || Date.now() >= deadline) return child;
    await sleep(5);
  }
};

export class PodSandboxes {
  private network?: { ipam: HostLocalIpam; bridge: NodeBridge; podCidr: string };

  constructor(private readonly o: PodSandboxesOptions) {
    if (o.podCidr) this.setPodCidr(o.podCidr);
  }

  /** The node's pod range, once known (upstream's kubelet updatePodCIDR); a later, different one is ignored. */
  setPodCidr(podCidr: string): void {
    if (this.network) {
      if (this.network.podCidr !== podCidr) this.o.logger.warn({ podCidr, kept: this.network.podCidr }, 'the node\'s podCIDR changed; pods keep addresses from the first');
      return;
    }
    const bridge = new NodeBridge(parseCidr(podCidr), this.o.logger);
    // one directory per bridge, so that every node on the range (of any cluster here) takes addresses from it
    const ipam = new HostLocalIpam(join(this.o.networksDir ?? '/var/lib/mini-kube/networks', bridge.name), podCidr);
    this.network = { ipam, bridge, podCidr };
    this.o.logger.info({ podCidr }, 'pod sandboxes take addresses from the node\'s podCIDR');
  }

  get ipam(): HostLocalIpam { return this.ready().ipam; }

  get bridge(): NodeBridge { return this.ready().bridge; }

  private ready(): { ipam: HostLocalIpam; bridge: NodeBridge; podCidr: string } {
    if (!this.network) throw new Error('network is not ready: the node has no podCIDR yet');
    return this.network;
  }

  get cgroups(): Cgroups | undefined { return this.o.cgroups; }

  /**
   * Frees what sandboxes of an earlier run left: a reservation whose namespace holds no process any more (a
   * kubelet that crashed leaves its containers running: their addresses stay taken).
   */
  async reclaim(): Promise<void> {
    for (const [ip, id] of await this.ipam.list()) {
      const ns = netnsName(id);
      if (Date.now() - ((await this.ipam.reservedAt(ip)) ?? 0) < RECLAIM_AFTER_MS || (await netnsPids(ns)).length) continue;
      await this.teardownNetwork(id);
      this.o.logger.info({ ip, netns: ns }, 'released the address of a sandbox of an earlier run');
    }
  }

  /** RunPodSandbox: address, namespace, /etc files, then the pause process. */
  async create(s: SandboxSpec): Promise<PodSandbox> {
    const ip = await this.ipam.allocate(s.id);
    try {
      const netns = await this.bridge.attach(s.id, ip);
      const etcDir = join(s.podDir, 'etc');
      await mkdir(etcDir, { recursive: true });
      const files: Record<string, string> = { hosts: hostsFile(ip, s.hostname, s.hosts), hostname: `${s.hostname}\n` };
      if (s.dns) files['resolv.conf'] = resolvConf(s.dns);
      const bindDir = join(ETC_NETNS, netns);
      await mkdir(bindDir, { recursive: true });
      for (const [name, text] of Object.entries(files)) {
        await writeFile(join(etcDir, name), text);
        await rm(join(bindDir, name), { force: true });
        await symlink(join(etcDir, name), join(bindDir, name));
      }
      // the new UTS namespace gets the pod's hostname before the pause program replaces the shell
      const holder = spawn('ip', ['netns', 'exec', netns, 'unshare', '--pid', '--ipc', '--uts', '--fork', '--kill-child', '--',
        'sh', '-c', 'printf %s "$0" > /proc/sys/kernel/hostname && exec "$@"', s.hostname, ...PAUSE], { detached: true, stdio: 'ignore' });
      holder.on('error', () => undefined); // reported by its exit
      holder.unref();
      const pausePid = await this.waitForPause(holder);
      return { id: s.id, podUid: s.podUid, ip, netns, pausePid, holderPid: holder.pid!, etcDir };
    } catch (e) {
      await this.teardownNetwork(s.id).catch(() => undefined);
      throw e;
    }
  }

  /**
   * The argv running `argv` in the sandbox: in its cgroup (the shell moves itself there before anything forks),
   * in the pause's PID/IPC/UTS namespaces, then in its network namespace with its /etc files.
   */
  wrap(sb: PodSandbox, argv: string[], cgroupDir?: string): string[] {
    const inPod = ['nsenter', `--target=${sb.pausePid}`, '--pid', '--ipc', '--uts', '--', 'ip', 'netns', 'exec', sb.netns, ...argv];
    return cgroupDir ? wrapperArgv('echo $$ > "$0/cgroup.procs" && exec "$@"', cgroupDir, ...inPod) : inPod;
  }

  /** StopPodSandbox: the pause (and with it every process of the pod's PID namespace) goes, then the network. */
  async stop(sb: PodSandbox): Promise<void> {
    try { process.kill(-sb.holderPid, 'SIGKILL'); } catch { /* gone */ }
    await waitGone(sb.holderPid, 10_000);
    await this.teardownNetwork(sb.id);
  }

  /** A cgroup for a container of the sandbox, when cgroups are usable. */
  async containerCgroup(sb: PodSandbox, containerId: string, r: LinuxContainerResources): Promise<string | undefined> {
    if (!this.o.cgroups) return undefined;
    try {
      return await this.o.cgroups.createContainer(sb.podUid, containerId, r);
    } catch (err) {
      this.o.logger.warn({ err, pod: sb.podUid }, 'cannot create the container\'s cgroup; it runs without limits');
      return undefined;
    }
  }

  private async teardownNetwork(id: string): Promise<void> {
    await detach(id);
    await rm(join(ETC_NETNS, netnsName(id)), { recursive: true, force: true });
    await this.ipam.release(id);
  }

  /** The pause's PID once it runs the pause program (after the hostname is set), or why it did not start. */
  private async waitForPause(holder: ChildProcess): Promise<number> {
    const deadline = Date.now() + 10_000;
    const pauseCmdline = `${PAUSE.join('\0')}\0`;
    while (Date.now() < deadline) {
      if (holder.exitCode !== null || holder.signalCode !== null) throw new Error(`pause process exited (${holder.exitCode ?? holder.signalCode})`);
      const pid = await forkedChild(holder.pid!);
      if (pid !== undefined && (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')) === pauseCmdline) return pid;
      await sleep(5);
    }
    try { process.kill(-holder.pid!, 'SIGKILL'); } catch { /* gone */ }
    throw new Error('pause process did not start within 10s');
  }
}
