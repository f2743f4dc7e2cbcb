import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { linkMounts } from '../volumes.js';
import { removePodDir, tearDownPodVolumes } from './pod-dir.js';

// runc makes a nested mount's target inside the outer volume's bind mount, so a hostPath at /data with another
// volume at /data/sub leaves an empty directory `sub` in the node's directory; our links must leave no more.
describe('a mount nested in a hostPath volume', () => {
  let dir = '';
  let pod = '';
  let host = '';
  let volumes = new Map<string, string>();
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mk-mount-points-'));
    pod = join(dir, 'pods', 'u1');
    host = join(dir, 'host-data');
    await mkdir(host);
    await writeFile(join(host, 'keep'), 'data\n');
    const scratch = join(pod, 'volumes', 'scratch');
    const conf = join(pod, 'volumes', 'conf');
    await mkdir(scratch, { recursive: true });
    await mkdir(conf, { recursive: true });
    await writeFile(join(conf, 'app.conf'), 'x=1\n');
    volumes = new Map([['data', host], ['scratch', scratch], ['conf', conf]]);
  });
  afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

  const layOut = (rootfs: string) => linkMounts(rootfs, [
    { name: 'data', mountPath: '/data' },
    { name: 'scratch', mountPath: '/data/sub' },
    { name: 'conf', mountPath: '/data/a/b/conf.d' },
  ], volumes);

  it('shows the nested volumes through the outer one while the pod runs', async () => {
    const rootfs = join(pod, 'rootfs', 'app');
    await layOut(rootfs);
    expect(await readFile(join(rootfs, 'data', 'a', 'b', 'conf.d', 'app.conf'), 'utf8')).toBe('x=1\n');
    await writeFile(join(rootfs, 'data', 'sub', 'f'), 'y');
    expect(await readFile(join(volumes.get('scratch') ?? '', 'f'), 'utf8')).toBe('y');
  });

  it('leaves only the empty mount points runc leaves once the volumes are torn down (a restart lays them out again)', async () => {
    const rootfs = join(pod, 'rootfs', 'app');
    await layOut(rootfs);
    await layOut(rootfs);
    await tearDownPodVolumes(pod);
    await removePodDir(pod);
    expect((await readdir(host)).sort()).toEqual(['a', 'keep', 'sub']);
    for (const p of [join(host, 'sub'), join(host, 'a', 'b', 'conf.d')]) {
      expect((await lstat(p)).isDirectory()).toBe(true);
      expect(await readdir(p)).toEqual([]);
    }
    expect(await readFile(join(host, 'keep'), 'utf8')).toBe('data\n');
  });

  it('leaves an empty file for a subPath file copied in from an atomically written volume', async () => {
    const api = join(pod, 'volumes', 'api');
    await mkdir(join(api, '..2026_01_01_00_00_00.1'), { recursive: true });
    await writeFile(join(api, '..2026_01_01_00_00_00.1', 'app.conf'), 'x=2\n');
    await symlink('..2026_01_01_00_00_00.1', join(api, '..data'));
    await symlink('..data/app.conf', join(api, 'app.conf'));
    volumes.set('api', api);
    const rootfs = join(pod, 'rootfs', 'app');
    await linkMounts(rootfs, [{ name: 'data', mountPath: '/data' }, { name: 'api', mountPath: '/data/app.conf', subPath: 'app.conf' }], volumes);
    expect(await readFile(join(host, 'app.conf'), 'utf8')).toBe('x=2\n');
    await removePodDir(pod);
    expect((await lstat(join(host, 'app.conf'))).isFile()).toBe(true);
    expect(await readFile(join(host, 'app.conf'), 'utf8')).toBe('');
  });
});
