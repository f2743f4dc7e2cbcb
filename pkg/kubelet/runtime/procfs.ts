// Processes by pid, for what outlives the kubelet (shims, pause processes): after a restart there is no
// ChildProcess to wait on, only /proc.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InterfaceStats } from './types.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The kernel's PF_EXITING in a task's flags: it has begun to exit. */
const PF_EXITING = 0x4;

/**
 * Whether a process is there and not a zombie (a kubelet restart leaves no parent relation to ask instead); with
 * `notExiting`, nor one that has begun to exit (/proc/PID/stat's flags, its 9th field).
 */
const processThere = (pid: number, notExiting: boolean): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, , , , , , flags] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return state !== 'Z' && state !== 'X' && !(notExiting && (Number(flags) & PF_EXITING) !== 0);
  } catch {
    try { process.kill(pid, 0); return true; } catch { return false; }
  }
};

/** Whether a process is there and not a zombie. */
export const processAlive = (pid: number): boolean => processThere(pid, false);

/**
 * Whether a process is there and has not begun to exit: the init of a PID namespace (a pod's pause) killed stays in
 * its exit until every process of its namespace is reaped, which their parents (outside it) may do first.
 */
export const processRunning = (pid: number): boolean => processThere(pid, true);

/** Waits until the process is gone (or `ms` passed). */
export const waitGone = async (pid: number, ms: number): Promise<void> => {
  const deadline = Date.now() + ms;
  while (processAlive(pid) && Date.now() < deadline) await sleep(10);
};

/**
 * Whether the process has a handler of its own for `signal` (/proc/PID/status SigCgt): what decides whether a
 * signal sent from outside reaches the init of a PID namespace. A process gone (or unreadable) handles nothing.
 */
export function handlesSignal(pid: number, signal: number): boolean {
  try {
    const caught = /^SigCgt:\s*([0-9a-f]+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return caught !== undefined && (BigInt(`0x${caught}`) & (1n << BigInt(signal - 1))) !== 0n;
  } catch {
    return false;
  }
}

const TICK_NS = 10_000_000; // USER_HZ is 100 on Linux
const PAGE_BYTES = 4096;

/** A single-threaded process's CPU time to the nanosecond (/proc/PID/schedstat), where the kernel keeps it. */
const schedNs = (pid: string): number | undefined => {
  try { return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]); } catch { return undefined; }
};

/**
 * CPU time (ns) and resident memory (bytes) of every process group in `groups`, summed over its processes: a
 * container's process leads its own group, and what it starts stays in it (without cgroups, the closest to a
 * container's accounting, which also keeps the time of exited processes: here, those their parents reaped). One pass
 * over /proc for all groups. Clock ticks are 10 ms, so an idle process would show no CPU at all (and metrics-server
 * drops a container whose cumulative CPU is 0): a single-threaded one is read to the nanosecond instead.
 */
export function processGroupUsage(groups: ReadonlySet<number>): Map<number, { cpuNs: number; rssBytes: number }> {
  const out = new Map<number, { cpuNs: number; rssBytes: number }>();
  if (!groups.size) return out;
  for (const { pid, f } of processStats()) {
    // utime(14) stime(15) cutime(16) cstime(17) ... num_threads(20) ... rss(24)
    const pgrp = Number(f[2]);
    if (!groups.has(pgrp)) continue;
    const u = out.get(pgrp) ?? { cpuNs: 0, rssBytes: 0 };
    const ticks = (Number(f[11]) + Number(f[12])) * TICK_NS;
    const own = f[17] === '1' ? Math.max(ticks, schedNs(pid) ?? 0) : ticks;
    u.cpuNs += own + (Number(f[13]) + Number(f[14])) * TICK_NS;
    u.rssBytes += Number(f[21]) * PAGE_BYTES;
    out.set(pgrp, u);
  }
  return out;
}

/**
 * Every process's /proc/PID/stat, as the fields after its command (which may hold spaces): state(3) ppid(4) pgrp(5)
 * session(6) ..., numbered as proc(5) numbers them from 1 (f[0] is the 3rd).
 */
function* processStats(): Generator<{ pid: string; f: string[] }> {
  let pids: string[];
  try { pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d)); } catch { return; }
  for (const pid of pids) {
    let stat: string;
    try { stat = readFileSync(`/proc/${pid}/stat`, 'utf8'); } catch { continue; }
    yield { pid, f: stat.slice(stat.lastIndexOf(')') + 2).split(' ') };
  }
}

/**
 * SIGKILLs all that `leader` started, `leader` being a process spawned detached (the leader of a session and a group
 * of its own): its descendants, and every process of its session or of a session one of them leads (`script` and
 * setsid make one for a terminal, a shell there runs its jobs in groups of their own, and a process whose parent
 * exited stays in its session). A container's PID namespace takes them all with it; here they are the host's. Each
 * group found is killed whole, so that a child forked meanwhile goes too. Never this process's own group or session.
 */
export function killSessionTree(leader: number): void {
  const procs = [...processStats()].map(({ pid, f }) => ({ pid: Number(pid), ppid: Number(f[1]), pgrp: Number(f[2]), sid: Number(f[3]) }));
  const self = procs.find((p) => p.pid === process.pid);
  const children = new Map<number, number[]>();
  for (const p of procs) {
    const siblings = children.get(p.ppid);
    if (siblings) siblings.push(p.pid);
    else children.set(p.ppid, [p.pid]);
  }
  const tree = new Set<number>();
  for (const stack = [leader]; stack.length;) {
    const pid = stack.pop()!;
    if (tree.has(pid)) continue;
    tree.add(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  const sessions = new Set([leader, ...procs.filter((p) => tree.has(p.pid) && p.sid === p.pid).map((p) => p.pid)]);
  if (self) sessions.delete(self.sid);
  const groups = new Set([leader, ...procs.filter((p) => tree.has(p.pid) || sessions.has(p.sid)).map((p) => p.pgrp)]);
  if (self) groups.delete(self.pgrp);
  const kill = (target: number): void => { try { process.kill(target, 'SIGKILL'); } catch { /* gone */ } };
  for (const g of groups) kill(-g);
  for (const pid of tree) if (pid !== process.pid) kill(pid);
}

/** CPU time (ns) and working set (bytes: memory.current less inactive file pages, as cadvisor) of a cgroup v2 group. */
export function cgroupUsage(dir: string): { cpuNs: number; rssBytes: number } | undefined {
  try {
    const usec = /^usage_usec (\d+)/m.exec(readFileSync(join(dir, 'cpu.stat'), 'utf8'))?.[1];
    const current = Number(readFileSync(join(dir, 'memory.current'), 'utf8'));
    const inactive = Number(/^inactive_file (\d+)/m.exec(readFileSync(join(dir, 'memory.stat'), 'utf8'))?.[1] ?? 0);
    if (usec === undefined || !Number.isFinite(current)) return undefined;
    return { cpuNs: Number(usec) * 1000, rssBytes: Math.max(0, current - inactive) };
  } catch {
    return undefined;
  }
}

/** Interfaces cadvisor leaves out of a network's stats: loopback and the host ends of containers' veths and bridges. */
const IGNORED_INTERFACES = /^(lo|veth|docker|nerdctl)/;

/** The interfaces of /proc/net/dev (or a process's /proc/PID/net/dev: its network namespace's); none if unreadable. */
export function netDev(path = '/proc/net/dev'): InterfaceStats[] {
  let text: string;
  try { text = readFileSync(path, 'utf8'); } catch { return []; }
  // "  eth0: rxBytes rxPackets rxErrs rxDrop rxFifo rxFrame rxCompressed rxMulticast txBytes txPackets txErrs ..."
  return text.split('\n').slice(2).flatMap((line) => {
    const colon = line.indexOf(':');
    if (colon < 0) return [];
    const name = line.slice(0, colon).trim();
    if (IGNORED_INTERFACES.test(name)) return [];
    const f = line.slice(colon + 1).trim().split(/\s+/).map(Number);
    return [{ name, rxBytes: f[0] ?? 0, rxErrors: f[2] ?? 0, txBytes: f[8] ?? 0, txErrors: f[10] ?? 0 }];
  });
}
