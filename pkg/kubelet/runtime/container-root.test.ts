import { describe, expect, it } from 'vitest';
import { hostPathOf, rootOperations, type HostView } from './container-root.js';

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
});
