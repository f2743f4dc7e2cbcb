// cgroup v2: requests and limits become CRI resources as upstream computes them and cgroup files as runc writes
// them; the pod/container hierarchy over a fake cgroup directory; refusal where cgroup v2 is not usable.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cgroupFiles, Cgroups, cpuShares, linuxResources, sharesToWeight } from './cgroups.js';

describe('cgroup v2 limits', () => {
  let dir = '';
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'cgroup-')); });
  afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

  it('converts requests and limits as upstream and runc do', () => {
    expect(linuxResources({ requests: { cpu: '250m' }, limits: { cpu: '500m', memory: '64Mi' } }))
      .toEqual({ cpuShares: 256, cpuQuota: 50_000, cpuPeriod: 100_000, memoryLimitBytes: 64 * 1024 * 1024 });
    expect(linuxResources({ limits: { cpu: '2' } })).toMatchObject({ cpuShares: 2048, cpuQuota: 200_000 });
    expect(linuxResources({ limits: { cpu: '1m' } })).toMatchObject({ cpuQuota: 1_000 }); // at least 1 ms
    expect(linuxResources()).toEqual({ cpuShares: 2 });
    expect(cpuShares(1)).toBe(2);
    expect([sharesToWeight(2), sharesToWeight(1024), sharesToWeight(262_144)]).toEqual([1, 39, 10_000]);
    expect(cgroupFiles({ cpuShares: 1024, cpuQuota: 50_000, cpuPeriod: 100_000, memoryLimitBytes: 1 << 20 }))
      .toEqual({ 'cpu.max': '50000 100000', 'cpu.weight': '39', 'memory.max': '1048576' });
    expect(cgroupFiles({ cpuShares: 2 })).toEqual({ 'cpu.max': 'max 100000', 'cpu.weight': '1', 'memory.max': 'max' });
  });

  it('refuses what is not a writable cgroup2 mount with cpu and memory', async () => {
    expect(await new Cgroups(dir).unavailable()).toBe(`${dir} is not a cgroup v2 mount`);
    await writeFile(join(dir, 'cgroup.controllers'), 'cpuset io pids\n');
    expect(await new Cgroups(dir).unavailable()).toBe(`cgroup v2 controllers cpu, memory are not available at ${dir}`);
  });

  it('creates kubepods/pod<uid>/<container> with the controllers enabled above it', async () => {
    await writeFile(join(dir, 'cgroup.controllers'), 'cpuset cpu io memory pids\n');
    await writeFile(join(dir, 'cgroup.subtree_control'), '');
    const cg = new Cgroups(dir);
    expect(await cg.unavailable()).toBeUndefined();
    expect(await readFile(join(dir, 'cgroup.subtree_control'), 'utf8')).toBe('+cpu +memory');
    const c = await cg.createContainer('u1', 'abc', linuxResources({ limits: { cpu: '100m', memory: '32Mi' } }));
    expect(c).toBe(join(dir, 'kubepods', 'podu1', 'abc'));
    expect(await readFile(join(c, 'cpu.max'), 'utf8')).toBe('10000 100000');
    expect(await readFile(join(c, 'memory.max'), 'utf8')).toBe(String(32 * 1024 * 1024));
    expect(await readFile(join(dir, 'kubepods', 'podu1', 'cgroup.subtree_control'), 'utf8')).toBe('+cpu +memory');
  });
});
