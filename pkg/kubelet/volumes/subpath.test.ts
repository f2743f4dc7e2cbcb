import { mkdtemp, chmod, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContainerConfigError } from '../env.js';
import { makeSubPath, subPathOf } from './subpath.js';

describe('subPathExpr (upstream ExpandContainerVolumeMounts and makeMounts)', () => {
  const env = [{ name: 'POD_NAME', value: 'web-0' }, { name: 'EMPTY', value: '' }, { name: 'Logging:Level', value: 'debug' }];
  it('expands the container\'s variables; subPath is taken as it is', () => {
    expect(subPathOf({ name: 'v', subPathExpr: 'logs/$(POD_NAME)/$(Logging:Level)' }, env)).toBe('logs/web-0/debug');
    expect(subPathOf({ name: 'v', subPath: 'a/$(POD_NAME)' }, env)).toBe('a/$(POD_NAME)');
    expect(subPathOf({ name: 'v' }, env)).toBe('');
  });
  it('fails on variables unset or empty, named in order', () => {
    expect(() => subPathOf({ name: 'v', subPathExpr: '$(ZED)/$(EMPTY)/$(POD_NAME)' }, env)).toThrow(new ContainerConfigError('missing value for EMPTY, ZED'));
  });
  it('refuses an absolute path and backsteps', () => {
    expect(() => subPathOf({ name: 'v', subPathExpr: '/$(POD_NAME)' }, env)).toThrow('error SubPath `/web-0` must not be an absolute path');
    expect(() => subPathOf({ name: 'v', subPathExpr: 'a/../$(POD_NAME)' }, env)).toThrow("unable to provision SubPath `a/../web-0`: must not contain '..'");
  });
});

describe('a missing subPath', () => {
  let dir = '';
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'mk-subpath-')); });
  afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

  it('is made in the volume with the volume\'s permissions', async () => {
    await chmod(dir, 0o777);
    await makeSubPath(dir, 'a/b', 'v', 'c');
    for (const p of ['a', 'a/b']) expect((await stat(join(dir, p))).mode & 0o777).toBe(0o777);
  });
  it('that cannot be made fails the container in words that do not tell the node\'s paths', async () => {
    await expect(makeSubPath(join(dir, 'gone'), 'x', 'v', 'c')).rejects.toThrow(new ContainerConfigError('failed to create subPath directory for volumeMount "v" of container "c"'));
  });
});
