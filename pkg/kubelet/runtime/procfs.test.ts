import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { cgroupUsage, killSessionTree, processAlive, processGroupUsage, processRunning } from './procfs.js';

const linux = process.platform === 'linux';
/** PID namespaces (unshare, nsenter) need root. */
const root = linux && process.getuid?.() === 0;

/** /proc/PID/stat's fields after the command: state, ppid, pgrp, session, ... */
const statFields = (pid: number): string[] => { const stat = readFileSync(`/proc/${pid}/stat`, 'utf8'); return stat.slice(stat.lastIndexOf(')') + 2).split(' '); };

/** A process leading its own group, as a container's does; resolves once it has printed `ready`. */
const groupLeader = async (script: string) => {
  const child = spawn('sh', ['-c', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise<void>((resolve) => child.stdout.on('data', (d: Buffer) => { if (d.toString().includes('ready')) resolve(); }));
  return { pid: child.pid!, stop: () => process.kill(-child.pid!, 'SIGKILL') };
};

describe.runIf(linux)('processGroupUsage', () => {
  it('gives an idle process some CPU time, not the 0 of whole clock ticks', async () => {
    // no exec: a process caught mid-execve has no memory mapped yet (rss 0)
    const p = await groupLeader('echo ready; sleep 30');
    try {
      const u = processGroupUsage(new Set([p.pid])).get(p.pid)!;
      expect(u.cpuNs).toBeGreaterThan(0);
      expect(u.rssBytes).toBeGreaterThan(0);
    } finally { p.stop(); }
  });

  it('keeps the time of the children the group reaped', async () => {
    // the child spins ~0.1-0.5 s and is waited for before `ready`
    const p = await groupLeader('sh -c \'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done\'; echo ready; sleep 30');
    try {
      expect(processGroupUsage(new Set([p.pid])).get(p.pid)!.cpuNs).toBeGreaterThanOrEqual(50_000_000);
    } finally { p.stop(); }
  });
});

describe.runIf(linux)('killSessionTree', () => {
  /** Runs `script` detached (leading a session), resolving with the pids it prints on its first line. */
  const started = async (script: string): Promise<{ leader: number; pids: number[] }> => {
    const child = spawn('sh', ['-c', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    const line = await new Promise<string>((resolve) => { let out = ''; child.stdout.on('data', (d: Buffer) => { out += d.toString(); if (out.includes('\n')) resolve(out.split('\n')[0]!); }); });
    return { leader: child.pid!, pids: line.trim().split(/\s+/).map(Number) };
  };
  const gone = async (pids: number[]): Promise<boolean> => {
    for (const deadline = Date.now() + 5_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
      if (pids.every((p) => !processAlive(p))) return true;
    }
    return false;
  };

  it('kills the leader, a child that made a session of its own, and one in a group of its own', async () => {
    // setsid makes its sleep lead a new session (it is not a group leader); python moves itself to a group of its own
    const { leader, pids } = await started('setsid sleep 301 & a=$!; python3 -c "import os, time; os.setpgid(0, 0); time.sleep(302)" & b=$!; echo $a $b; wait');
    const ids = (pid: number): string[] => statFields(pid).slice(2, 4);
    try {
      // moved away: the session of the one, the group of the other, are not the leader's (python may take seconds to start on a busy machine)
      await vi.waitFor(() => expect(pids.map((p) => ids(p))).toEqual([[String(pids[0]), String(pids[0])], [String(pids[1]), String(leader)]]), { timeout: 15_000 });
      killSessionTree(leader);
      expect(await gone([leader, ...pids])).toBe(true);
    } finally { for (const p of [leader, ...pids]) { try { process.kill(p, 'SIGKILL'); } catch { /* gone */ } } }
  });

  it('kills what the leader left in its session after it exited', async () => {
    const { leader, pids } = await started('sleep 303 & echo $!');
    try {
      expect(await gone([leader])).toBe(true);
      expect(processAlive(pids[0]!)).toBe(true);
      killSessionTree(leader);
      expect(await gone(pids)).toBe(true);
    } finally { for (const p of pids) { try { process.kill(p, 'SIGKILL'); } catch { /* gone */ } } }
  });
});

describe('cgroupUsage', () => {
  it('reads a cgroup v2 group as cadvisor does: usage_usec, memory.current less inactive_file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cgroup-'));
    try {
      await writeFile(join(dir, 'cpu.stat'), 'usage_usec 1500\nuser_usec 1000\nsystem_usec 500\n');
      await writeFile(join(dir, 'memory.current'), '10485760\n');
      await writeFile(join(dir, 'memory.stat'), 'anon 4096\nfile 8192\nactive_file 1024\ninactive_file 2097152\n');
      expect(cgroupUsage(dir)).toEqual({ cpuNs: 1_500_000, rssBytes: 10485760 - 2097152 });
      expect(cgroupUsage(join(dir, 'gone'))).toBeUndefined();
    } finally { await rm(dir, { recursive: true, force: true }); }
  });
});

describe.runIf(root)('processRunning', () => {
  const children = async (pid: number): Promise<number[]> => {
    for (let i = 0; i < 500; i++) {
      const kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);
      if (kids.length) return kids;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`${pid} has no child`);
  };

  it('counts the init of a PID namespace gone once it has begun to exit: it waits there until every process of its namespace is reaped', async () => {
    // a namespace whose init is a sleep, and a process entered into it whose parent (nsenter, outside) is stopped
    const holder = spawn('unshare', ['--pid', '--fork', '--', 'sleep', '100'], { stdio: 'ignore' });
    const [init] = await children(holder.pid!);
    const entered = spawn('nsenter', [`--target=${init}`, '--pid', '--', 'sleep', '100'], { stdio: 'ignore' });
    await children(entered.pid!);
    try {
      expect(processRunning(init!)).toBe(true);
      process.kill(entered.pid!, 'SIGSTOP');
      // stopped before the kill, or it may still reap its child's zombie, and the init ends at once
      await vi.waitFor(() => expect(statFields(entered.pid!)[0]).toBe('T'));
      process.kill(init!, 'SIGKILL');
      // the kernel kills the entered sleep, whose zombie the stopped nsenter does not reap: the init cannot end
      await vi.waitFor(() => expect(processRunning(init!)).toBe(false));
      expect(processAlive(init!)).toBe(true);
    } finally {
      process.kill(entered.pid!, 'SIGCONT');
      holder.kill('SIGKILL');
    }
    await vi.waitFor(() => expect(processAlive(init!)).toBe(false));
  });
});
