import { chmod, mkdir, mkdtemp, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostPathOf, rootFstab, rootOperations, type HostView } from './container-root.js';

/** A host with these existing paths (and /var/run a link to /run). */
const host = (existing: string[]): HostView => ({
  resolve: async (path) => {
    const real = path.replace(/^\/var\/run(?=\/|$)/, '/run');
    const parts = real.split('/').filter(Boolean);
    for (let n = parts.length; n > 0; n--) {
      const prefix = `/${parts.slice(0, n).join('/')}`;
      if (existing.includes(prefix)) return { path: real, existing: prefix };
    }
    return { path: real, existing: '/' };
  },
});

const vol = (name: string): string => `/var/lib/kubelet/pods/u/volumes/${name}`;

describe('container roots', () => {
  it('binds each volume at its container path, parents first ("/" mirrored for /data); read-only ones also over themselves first', async () => {
    const ops = await rootOperations([
      { containerPath: '/data/cache', hostPath: vol('cache') },
      { containerPath: '/data', hostPath: vol('data') },
      { containerPath: '/etc/config', hostPath: vol('cfg'), readOnly: true },
      { containerPath: '/srv/www', hostPath: '/srv/site' },
    ], '/', host(['/etc', '/srv', '/srv/www']));
    expect(ops).toEqual({ cwd: '/', ops: [
      'm', '/', 'm', '/etc',
      'r', vol('cfg'), vol('cfg'),
      'b', vol('data'), '/data', 'b', vol('cache'), '/data/cache', 'r', vol('cfg'), '/etc/config', 'b', '/srv/site', '/srv/www',
    ] });
  });

  it('mirrors the directory a path is to be made in, once, parents first; not when the path is there or made in a volume', async () => {
    const h = host(['/run', '/run/user', '/tmp', '/tmp/x']);
    expect(await rootOperations([
      { containerPath: '/run/user/1/a', hostPath: vol('a') },
      { containerPath: '/var/run/secrets/kubernetes.io/serviceaccount', hostPath: vol('token'), readOnly: true },
      { containerPath: '/run/other', hostPath: vol('b') },
    ], '/tmp', h)).toEqual({ cwd: '/tmp', ops: [
      'm', '/run', 'm', '/run/user',
      'r', vol('token'), vol('token'),
      'b', vol('b'), '/run/other', 'b', vol('a'), '/run/user/1/a', 'r', vol('token'), '/run/secrets/kubernetes.io/serviceaccount',
    ] });
    expect((await rootOperations([{ containerPath: '/tmp/x', hostPath: vol('a') }], '/', h)).ops).toEqual(['b', vol('a'), '/tmp/x']);
    // /tmp/x/y is made inside the volume mounted at /tmp/x: nothing to mirror
    expect((await rootOperations([{ containerPath: '/tmp/x/y/z', hostPath: vol('b') }, { containerPath: '/tmp/x', hostPath: vol('a') }], '/', h)).ops)
      .toEqual(['b', vol('a'), '/tmp/x', 'b', vol('b'), '/tmp/x/y/z']);
  });

  it('makes a missing working dir in a mirror too (its links resolved), or in the volume it is in', async () => {
    const h = host(['/run', '/tmp']);
    expect(await rootOperations([], '/var/run/app/work', h)).toEqual({ cwd: '/run/app/work', ops: ['m', '/run'] });
    expect(await rootOperations([], '/app', h)).toEqual({ cwd: '/app', ops: ['m', '/'] });
    expect(await rootOperations([], '/tmp', h)).toEqual({ cwd: '/tmp', ops: [] });
    expect(await rootOperations([{ containerPath: '/tmp/data', hostPath: vol('d') }], '/tmp/data/work', h))
      .toEqual({ cwd: '/tmp/data/work', ops: ['m', '/tmp', 'b', vol('d'), '/tmp/data'] });
  });

  it('a private /tmp: made empty after the mirrors, the kept directories under it bound back, no mirror inside it', async () => {
    const h = host(['/run', '/tmp', '/tmp/x']);
    const keep = { keep: ['/tmp/kubelet', '/usr/bin'] };
    expect(await rootOperations([
      { containerPath: '/tmp/x/data', hostPath: vol('d') },
      { containerPath: '/run/app', hostPath: vol('a'), readOnly: true },
    ], '/tmp/work', h, keep)).toEqual({ cwd: '/tmp/work', ops: [
      'm', '/run', 't', 'b', '/tmp/kubelet', '/tmp/kubelet',
      'r', vol('a'), vol('a'),
      'r', vol('a'), '/run/app', 'b', vol('d'), '/tmp/x/data',
    ] });
    // a volume mounted at /tmp is the container's /tmp
    expect((await rootOperations([{ containerPath: '/tmp', hostPath: vol('t') }], '/', h, keep)).ops).toEqual(['b', vol('t'), '/tmp']);
  });

  it('finds a command on a volume at its host path', () => {
    const mounts = [{ containerPath: '/scripts', hostPath: vol('s') }, { containerPath: '/scripts/bin', hostPath: vol('b') }];
    expect(hostPathOf('/scripts/run.sh', mounts)).toBe(`${vol('s')}/run.sh`);
    expect(hostPathOf('/scripts/bin/tool', mounts)).toBe(`${vol('b')}/tool`);
    expect(hostPathOf('/scriptsx/tool', mounts)).toBe('/scriptsx/tool');
    expect(hostPathOf('sh', mounts)).toBe('sh');
  });

  it('writes one fstab: mirrors and /tmp prepared on the host, the mount point of a file made where it will be', async () => {
    const work = await mkdtemp(join(tmpdir(), 'root-fstab-'));
    try {
      // a host directory to mirror: a directory, a file, a link; a volume directory and a file volume with a space
      const host = join(work, 'host');
      await mkdir(join(host, 'sub'), { recursive: true });
      await writeFile(join(host, 'file'), '');
      await symlink('/dev/shm', join(host, 'link'));
      await chmod(host, 0o750);
      const vol = join(work, 'vol');
      await mkdir(vol);
      const token = join(work, 'the token');
      await writeFile(token, 't');
      const root = join(work, 'r');
      // (the test's host directory is under /tmp: its mirror comes after the root's /tmp here, as none is made in it)
      const fstab = await rootFstab(root, ['t', 'm', host, 'r', vol, vol, 'b', vol, `${host}/data`, 'r', token, `${host}/new/token`, 'r', token, '/tmp/token', 'r', token, '/etc/hosts', 'p']);
      const top = join(root, 'root');
      const [mirror, tmp] = [join(root, 'mirror-1'), join(root, 'tmp')];
      expect(fstab).toBe(join(root, 'mounts.fstab'));
      expect((await readFile(fstab, 'utf8')).split('\n')).toEqual([
        `/ ${top} none rbind 0 0`,
        `${tmp} ${top}/tmp none bind,X-mount.mkdir 0 0`,
        `${mirror} ${top}${host} none bind,unbindable 0 0`,
        `${host}/file ${top}${host}/file none bind,nofail 0 0`,
        `${host}/sub ${top}${host}/sub none rbind,nofail 0 0`,
        `${vol} ${top}${vol} none bind,ro,X-mount.mkdir 0 0`,
        `${vol} ${top}${host}/data none bind,X-mount.mkdir 0 0`,
        `${work}/the\\040token ${top}${host}/new/token none bind,ro 0 0`,
        `${work}/the\\040token ${top}/tmp/token none bind,ro 0 0`,
        `${work}/the\\040token ${top}/etc/hosts none bind,ro 0 0`,
        `proc ${top}/proc proc defaults 0 0`,
        '',
      ]);
      // the mirror as the host directory (its mode, its entries), the file mount points in the mirror and the /tmp
      expect((await stat(mirror)).mode & 0o7777).toBe(0o750);
      expect((await stat(tmp)).mode & 0o7777).toBe(0o1777);
      expect((await readdir(mirror)).sort()).toEqual(['file', 'link', 'new', 'sub']);
      expect(await readlink(join(mirror, 'link'))).toBe('/dev/shm');
      expect((await stat(join(mirror, 'new', 'token'))).isFile()).toBe(true);
      expect((await stat(join(tmp, 'token'))).isFile()).toBe(true);
      // written again for another run of the same attempt
      expect(await rootFstab(root, ['m', host])).toBe(fstab);
      expect(await readdir(root)).toEqual(expect.arrayContaining(['mirror-1', 'mounts.fstab', 'root']));
      expect(await readdir(root)).toHaveLength(3);
      // a mirror of "/" is the root itself: no bind of the host's "/" under it
      const slash = await readFile(await rootFstab(join(work, 'r2'), ['m', '/']), 'utf8');
      expect(slash.split('\n')[0]).toBe(`${join(work, 'r2', 'mirror-1')} ${join(work, 'r2', 'root')} none bind,unbindable 0 0`);
      expect(slash).toContain(`/usr ${join(work, 'r2', 'root')}/usr none rbind,nofail 0 0`);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
