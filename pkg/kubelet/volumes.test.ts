import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../client/index.js';
import { VolumeManager } from './volumes.js';

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
    expect((await manager().setUp(pod([{ name: 'd', downwardAPI: { items: bad } }]), dir)).failures)
      .toEqual(['MountVolume.SetUp failed for volume "d" : container nope not found']);
  });
});

describe('volumes that fail', () => {
  let dir = '';
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'mk-volumes-')); });
  afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

  const pod: KubeObject = {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'u1' },
    spec: {
      containers: [{ name: 'app' }],
      volumes: [
        { name: 'a', configMap: { name: 'missing-a' } }, { name: 'b', secret: { secretName: 'missing-b' } },
        { name: 'opt', configMap: { name: 'late', optional: true } }, { name: 'scratch', emptyDir: {} },
      ],
    },
  };

  it('fail each on its own: every failure told, the others set up, each retried after its own back-off (500 ms doubling)', async () => {
    let now = 0;
    const objects: Record<string, KubeObject> = {};
    const m = new VolumeManager({ get: (_k, _ns, name) => Promise.resolve(objects[name]), now: () => now });
    let r = await m.setUp(pod, dir);
    expect(r.failures).toEqual(['MountVolume.SetUp failed for volume "a" : configmap "missing-a" not found', 'MountVolume.SetUp failed for volume "b" : secret "missing-b" not found']);
    expect([...r.paths.keys()]).toEqual(['opt', 'scratch']);
    expect(r.retryAt).toBe(500);
    // the optional ConfigMap appears: brought up to date though the volumes before it still fail
    objects.late = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late' }, data: { k: 'v' } };
    now = 100;
    r = await m.setUp(pod, dir, r.paths);
    expect(r.failures).toEqual([]); // a and b back off
    expect(await readFile(join(dir, 'volumes', 'opt', 'k'), 'utf8')).toBe('v');
    objects['missing-a'] = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'missing-a' }, data: {} };
    now = 500;
    r = await m.setUp(pod, dir, r.paths);
    expect(r.failures).toEqual(['MountVolume.SetUp failed for volume "b" : secret "missing-b" not found']);
    expect([...r.paths.keys()].sort()).toEqual(['a', 'opt', 'scratch']);
    expect(r.retryAt).toBe(1500); // b's second failure waits 1 s
  });
});
