import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../client/index.js';
import { VolumeError, VolumeManager } from './volumes.js';

describe('downwardAPI volumes', () => {
  let dir = '';
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'mk-volumes-')); });
  afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

  const manager = () => new VolumeManager({ get: () => Promise.reject(new Error('no objects here')), node: { cpu: '2', memory: '4Gi', ephemeralStorage: '50Gi' } });
  const pod = (volumes: unknown[]): KubeObject => ({
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'u1' },
    spec: { volumes, containers: [{ name: 'app', resources: { limits: { cpu: '500m', memory: '64Mi' }, requests: { cpu: '250m' } } }] },
  });
  const items = [
    { path: 'cpu_limit', resourceFieldRef: { containerName: 'app', resource: 'limits.cpu', divisor: '1m' } },
    { path: 'cpu_request', resourceFieldRef: { containerName: 'app', resource: 'requests.cpu', divisor: '1m' } },
    { path: 'mem_limit', resourceFieldRef: { containerName: 'app', resource: 'limits.memory', divisor: '1Mi' } },
    { path: 'eph_limit', resourceFieldRef: { containerName: 'app', resource: 'limits.ephemeral-storage', divisor: '1Gi' } },
    { path: 'name', fieldRef: { fieldPath: 'metadata.name' } },
  ];
  const read = (vol: string, f: string) => readFile(join(dir, 'volumes', vol, f), 'utf8');

  it('writes resourceFieldRef items as the container\'s resources, unset limits the node\'s allocatable', async () => {
    await manager().setUp(pod([{ name: 'd', downwardAPI: { items } }, { name: 'pr', projected: { sources: [{ downwardAPI: { items } }] } }]), dir);
    for (const vol of ['d', 'pr']) {
      expect(await read(vol, 'cpu_limit')).toBe('500');
      expect(await read(vol, 'cpu_request')).toBe('250');
      expect(await read(vol, 'mem_limit')).toBe('64');
      expect(await read(vol, 'eph_limit')).toBe('50');
      expect(await read(vol, 'name')).toBe('p');
    }
  });

  it('fails the mount for a container the pod does not have', async () => {
    const bad = [{ path: 'x', resourceFieldRef: { containerName: 'nope', resource: 'limits.cpu' } }];
    await expect(manager().setUp(pod([{ name: 'd', downwardAPI: { items: bad } }]), dir))
      .rejects.toThrow(new VolumeError('MountVolume.SetUp failed for volume "d" : container nope not found'));
  });
});
