// /stats/summary's shapes (stats/v1alpha1) over the fake runtime, with volume directories on disk: the node's
// network, filesystems and rlimit; a pod's network, volumes (du: blocks and inodes) and ephemeral storage (its
// containers' rootfs and logs plus its local ephemeral volumes); a container's rootfs and logs.
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock, type KubeObject } from '../client/index.js';
import { diskUsage } from './disk-usage.js';
import { FakeRuntime } from './runtime/fake.js';
import { StatsProvider } from './stats.js';

let dir = '';
afterEach(async () => { if (dir) await rm(dir, { recursive: true, force: true }); });

describe('StatsProvider.summary', () => {
  it('reports networks, filesystems, volumes, ephemeral storage, rootfs and logs', async () => {
    dir = await mkdtemp(join(tmpdir(), 'stats-'));
    const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
    const runtime = new FakeRuntime({ clock });
    const pod: KubeObject = {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'u1' },
      spec: { containers: [{ name: 'c', image: 'nginx' }], volumes: [{ name: 'cache', emptyDir: {} }, { name: 'cfg', configMap: { name: 'x' } }, { name: 'host', hostPath: { path: '/tmp' } }, { name: 'mem', emptyDir: { medium: 'Memory' } }] },
    };
    const sb = await runtime.runPodSandbox({ name: 'p', namespace: 'ns', uid: 'u1', attempt: 0 });
    await runtime.pullImage('nginx');
    const id = await runtime.createContainer(sb, { name: 'c', attempt: 0, image: 'nginx' });
    await runtime.startContainer(id);
    await clock.advance(10_000);
    const volumeDir = (uid: string, name: string): string => join(dir, uid, name);
    await mkdir(join(volumeDir('u1', 'cache'), 'sub'), { recursive: true });
    await writeFile(join(volumeDir('u1', 'cache'), 'sub', 'a'), Buffer.alloc(10_000, 1));
    await mkdir(volumeDir('u1', 'cfg'), { recursive: true });
    await writeFile(join(volumeDir('u1', 'cfg'), 'k'), 'v');
    await symlink('k', join(volumeDir('u1', 'cfg'), 'link'));
    await mkdir(volumeDir('u1', 'mem'), { recursive: true });

    const s = await new StatsProvider().summary({ nodeName: 'n1', pods: () => [pod], runtime, volumeDir }, clock.now()) as any;
    const t = '2026-01-01T00:00:10Z';
    expect(s.node.network).toEqual({ time: t, name: 'eth0', rxBytes: 20_000, rxErrors: 0, txBytes: 10_000, txErrors: 0, interfaces: [{ name: 'eth0', rxBytes: 20_000, rxErrors: 0, txBytes: 10_000, txErrors: 0 }] });
    expect(s.node.fs).toMatchObject({ time: t, capacityBytes: 100 * 2 ** 30, inodes: 6_553_600 });
    expect(s.node.fs.usedBytes).toBeGreaterThan(1_000_000); // the image
    expect(s.node.runtime.imageFs).toEqual(s.node.fs);
    expect(s.node.rlimit).toMatchObject({ time: t, maxpid: expect.any(Number), curproc: expect.any(Number) });

    const [p] = s.pods;
    expect(p.network.name).toBe('eth0');
    const [cache, cfg] = [await diskUsage(volumeDir('u1', 'cache')), await diskUsage(volumeDir('u1', 'cfg'))];
    expect(cache.inodes).toBe(3); // the dir, sub/ and a
    expect(cache.bytes).toBeGreaterThanOrEqual(10_000);
    expect(cfg.inodes).toBe(3); // the dir, k and the symlink (not followed)
    expect(p.volume.map((v: { name: string }) => v.name)).toEqual(['cache', 'cfg', 'mem']); // hostPath has no metrics
    expect(p.volume[0]).toMatchObject({ name: 'cache', usedBytes: cache.bytes, inodesUsed: 3, capacityBytes: expect.any(Number), availableBytes: expect.any(Number), inodes: expect.any(Number), inodesFree: expect.any(Number) });
    const [c] = p.containers;
    const logBytes = Buffer.byteLength((await runtime.logs(id, { timestamps: true })).text); // the CRI lines as kept
    expect(c.logs).toMatchObject({ time: t, usedBytes: logBytes, inodesUsed: 1, capacityBytes: 100 * 2 ** 30 });
    expect(c.rootfs).toMatchObject({ usedBytes: 0, inodesUsed: 0 });
    // the containers' rootfs and logs, the emptyDir on disk and the configMap; not the Memory emptyDir
    expect(p['ephemeral-storage']).toMatchObject({ usedBytes: logBytes + cache.bytes + cfg.bytes, inodesUsed: 1 + 3 + 3 });
    expect(Object.keys(p)).toEqual(['podRef', 'startTime', 'containers', 'cpu', 'memory', 'network', 'volume', 'ephemeral-storage', 'process_stats']);
  });

  it('reports usageNanoCores as the CPU time per second between two reads', async () => {
    const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
    const runtime = new FakeRuntime({ clock });
    const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'u1' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    const sb = await runtime.runPodSandbox({ name: 'p', namespace: 'ns', uid: 'u1', attempt: 0 });
    await runtime.pullImage('nginx');
    await runtime.startContainer(await runtime.createContainer(sb, { name: 'c', attempt: 0, image: 'nginx' }));
    const stats = new StatsProvider();
    const source = { nodeName: 'n1', pods: () => [pod], runtime, volumeDir: (uid: string, name: string) => join(tmpdir(), 'none', uid, name) };
    await clock.advance(1_000);
    await stats.summary(source, clock.now());
    await clock.advance(2_000);
    const s = await stats.summary(source, clock.now()) as any;
    // a simulated container uses 10 ms of CPU a second: 10 millicores
    expect(s.pods[0].containers[0].cpu).toMatchObject({ usageNanoCores: 10_000_000, usageCoreNanoSeconds: 30_000_000 });
    expect(s.node.cpu.usageNanoCores).toBe(10_000_000);
  });
});

describe('StatsProvider.cadvisorMetrics', () => {
  it('exports the root, pod and container cgroups with cAdvisor\'s names and labels', async () => {
    const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
    const runtime = new FakeRuntime({ clock });
    const pod: KubeObject = {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'u1' },
      spec: { containers: [{ name: 'c', image: 'nginx' }] }, status: { qosClass: 'Burstable' },
    };
    const sb = await runtime.runPodSandbox({ name: 'p', namespace: 'ns', uid: 'u1', attempt: 0 });
    await runtime.pullImage('nginx');
    const id = await runtime.createContainer(sb, { name: 'c', attempt: 0, image: 'nginx' });
    await runtime.startContainer(id);
    await clock.advance(10_000);
    const text = new StatsProvider().cadvisorMetrics({ nodeName: 'n1', pods: () => [pod], runtime }, clock.now());
    const at = clock.now();
    const image = runtime.listContainers()[0]!.image;
    const lines = text.split('\n');
    expect(lines).toContain('# TYPE container_cpu_usage_seconds_total counter');
    expect(lines).toContain(`container_cpu_usage_seconds_total{container="c",cpu="total",id="/kubepods/burstable/podu1/${id}",image="${image}",name="${id}",namespace="ns",pod="p"} 0.1 ${at}`);
    expect(lines).toContain(`container_memory_working_set_bytes{container="",id="/kubepods/burstable/podu1",image="",name="",namespace="ns",pod="p"} 4194304 ${at}`);
    expect(lines.some((l) => l.startsWith('container_memory_working_set_bytes{container="",id="/",image="",name="",namespace="",pod=""} '))).toBe(true);
    expect(lines).toContain(`container_start_time_seconds{container="c",id="/kubepods/burstable/podu1/${id}",image="${image}",name="${id}",namespace="ns",pod="p"} ${Date.parse('2026-01-01T00:00:00Z') / 1000} ${at}`);
  });
});
