import { chmod, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from './mounts.js';
import { podsOnDisk, removePodDir, tearDownPodVolumes } from './pod-dir.js';

/** Mounting takes root (and a kernel that lets it): the tests of mounts below a pod's directory need both. */
const canMount = process.getuid?.() === 0 && process.platform === 'linux';

describe('a pod\'s directory taken down', () => {
  let dir = '';
  let pod = '';
  /** A node path a hostPath volume (or a claim's PV) names: outside the pod's directory. */
  let hostPath = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mk-pod-dir-'));
    pod = join(dir, 'pods', 'u1');
    hostPath = join(dir, 'host-data');
    await mkdir(hostPath);
    await writeFile(join(hostPath, 'keep'), 'the user\'s data\n');
    // an emptyDir with content, a projected volume as the atomic writer lays it out, a container's log and links
    await mkdir(join(pod, 'volumes', 'scratch', 'deep'), { recursive: true });
    await writeFile(join(pod, 'volumes', 'scratch', 'deep', 'f'), 'x');
    const api = join(pod, 'volumes', 'kube-api-access-abcde');
    await mkdir(join(api, '..2026_01_01_00_00_00.1'), { recursive: true });
    await writeFile(join(api, '..2026_01_01_00_00_00.1', 'token'), 'secret.token.here');
    await symlink('..2026_01_01_00_00_00.1', join(api, '..data'));
    await symlink('..data/token', join(api, 'token'));
    await mkdir(join(pod, 'app'), { recursive: true });
    await writeFile(join(pod, 'app', '0.log'), 'log line\n');
    await mkdir(join(pod, 'rootfs', 'app', 'var', 'run'), { recursive: true });
    await symlink(hostPath, join(pod, 'rootfs', 'app', 'data'));
    await symlink(join(pod, 'volumes', 'scratch'), join(pod, 'rootfs', 'app', 'scratch'));
  });
  afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

  it('tears the volumes down (emptyDir content, the service-account token), keeping the logs until the pod is gone', async () => {
    await tearDownPodVolumes(pod);
    expect((await readdir(pod)).sort()).toEqual(['app', 'rootfs']);
    expect(await readFile(join(pod, 'app', '0.log'), 'utf8')).toBe('log line\n');
    await tearDownPodVolumes(pod); // again: nothing left to do
  });

  it('removes a gone pod\'s directory, following none of its links: a hostPath\'s data stays', async () => {
    await removePodDir(pod);
    expect(await readdir(join(dir, 'pods'))).toEqual([]);
    expect(await readFile(join(hostPath, 'keep'), 'utf8')).toBe('the user\'s data\n');
    await removePodDir(pod); // gone already
  });

  it('empties directories their owner made read-only', async () => {
    const ro = join(pod, 'volumes', 'scratch', 'gomodcache');
    await mkdir(join(ro, 'mod'), { recursive: true });
    await writeFile(join(ro, 'mod', 'go.mod'), 'module x\n');
    await chmod(join(ro, 'mod'), 0o555);
    await chmod(ro, 0o555);
    await removePodDir(pod);
    expect(await readdir(join(dir, 'pods'))).toEqual([]);
  });

  it('lists the pods that have a directory, none when there is no pods directory', async () => {
    await writeFile(join(dir, 'pods', 'stray-file'), '');
    expect(await podsOnDisk(join(dir, 'pods'))).toEqual(['u1']);
    expect(await podsOnDisk(join(dir, 'nothing-here'))).toEqual([]);
  });

  describe.runIf(canMount)('with mounts below it (root)', () => {
    const bind = (from: string, to: string): Promise<void> => run('mount', ['--bind', from, to]);

    it('unmounts what is mounted below volumes/ (a memory-backed emptyDir, a bind of a node path) before removing it', async () => {
      await mkdir(join(pod, 'volumes', 'mem'));
      await run('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', join(pod, 'volumes', 'mem')]);
      await writeFile(join(pod, 'volumes', 'mem', 'f'), 'in memory');
      await bind(hostPath, join(pod, 'volumes', 'scratch', 'deep'));
      await tearDownPodVolumes(pod);
      expect((await readdir(pod)).sort()).toEqual(['app', 'rootfs']);
      expect(await readFile(join(hostPath, 'keep'), 'utf8')).toBe('the user\'s data\n');
    });

    it('refuses to remove anything through a mount left outside volumes/: the directory and the mounted data stay', async () => {
      const target = join(pod, 'rootfs', 'app', 'var', 'run');
      await bind(hostPath, target);
      try {
        await expect(removePodDir(pod)).rejects.toThrow(`cannot delete directory ${target}: it is a mount point`);
        expect(await readFile(join(target, 'keep'), 'utf8')).toBe('the user\'s data\n');
        expect(await readFile(join(pod, 'app', '0.log'), 'utf8')).toBe('log line\n');
      } finally {
        await run('umount', [target]);
      }
      expect(await readFile(join(hostPath, 'keep'), 'utf8')).toBe('the user\'s data\n');
      await removePodDir(pod);
      expect(await readdir(join(dir, 'pods'))).toEqual([]);
    });
  });
});
