// VolumeZone (a bound PV's zone label decides), NodeVolumeLimits (CSINode allocatable counts per CSI driver, a shared
// volume counted once) and VolumeRestrictions (ReadWriteOncePod claims, GCE PD disk conflicts), with upstream's
// FailedScheduling wording, and the pods retried when what blocked them goes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Resources, type Client, type KubeObject } from '../../pkg/client/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { adminClient, createNode, eventsFor, eventually, podObject, startScheduler, waitBound, type RunningScheduler } from './scheduler-support.js';

let api: TestApiServer;
let client: Client;
let sched: RunningScheduler;

const pv = (name: string, o: { zone?: string; csiHandle?: string } = {}): KubeObject => ({
  apiVersion: 'v1', kind: 'PersistentVolume',
  metadata: { name, ...(o.zone ? { labels: { 'topology.kubernetes.io/zone': o.zone } } : {}) },
  spec: {
    capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain', storageClassName: '',
    claimRef: { kind: 'PersistentVolumeClaim', namespace: 'default', name: `claim-${name}` },
    ...(o.csiHandle ? { csi: { driver: 'csi.example.com', volumeHandle: o.csiHandle } } : { hostPath: { path: `/mnt/${name}` } }),
  },
});

/** A PV and its claim `claim-<pv>`, bound to each other. */
const boundClaim = async (name: string, o: { zone?: string; csiHandle?: string; accessModes?: string[] } = {}): Promise<string> => {
  const vol = pv(name, o);
  if (o.accessModes) vol.spec!.accessModes = o.accessModes;
  await client.persistentVolumes().create(vol);
  await client.persistentVolumeClaims('default').create({
    apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: `claim-${name}` },
    spec: { accessModes: o.accessModes ?? ['ReadWriteOnce'], storageClassName: '', resources: { requests: { storage: '1Gi' } }, volumeName: name },
  });
  return `claim-${name}`;
};

const withVolumes = (name: string, volumes: KubeObject[], spec: Record<string, unknown> = {}): KubeObject =>
  podObject(name, { spec: { volumes, ...spec } });
const claimVolume = (claim: string, vol = 'data'): KubeObject => ({ name: vol, persistentVolumeClaim: { claimName: claim } });

const failedScheduling = (name: string): Promise<string> =>
  eventually(async () => (await eventsFor(client, name)).find((e) => e.reason === 'FailedScheduling')?.message as string | undefined, 15_000, `FailedScheduling of ${name}`);

beforeAll(async () => {
  api = await startTestApiServer();
  client = await adminClient(api);
  await createNode(client, 'za', { labels: { 'topology.kubernetes.io/zone': 'a' } });
  await createNode(client, 'zb', { labels: { 'topology.kubernetes.io/zone': 'b' } });
  for (const n of ['za', 'zb']) {
    await client.resource(Resources.csiNodes).create({
      apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', metadata: { name: n },
      spec: { drivers: [{ name: 'csi.example.com', nodeID: n, allocatable: { count: 1 } }] },
    });
  }
  sched = startScheduler(client);
});

afterAll(async () => {
  await sched?.stop();
  await client?.close();
  await api?.close();
});

describe('volume plugins', () => {
  it('VolumeZone: places a pod in its bound volume\'s zone, and reports a zone no node is in', async () => {
    await client.pods('default').create(withVolumes('in-b', [claimVolume(await boundClaim('pv-b', { zone: 'b' }))]));
    expect(await waitBound(client, 'in-b')).toBe('zb');
    await client.pods('default').create(withVolumes('in-c', [claimVolume(await boundClaim('pv-c', { zone: 'c' }))]));
    expect(await failedScheduling('in-c')).toBe('0/2 nodes are available: 2 node(s) had no available volume zone. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.');
  });

  it('NodeVolumeLimits: one CSI volume per node, a shared volume counted once, a pod retried when a volume is detached', async () => {
    const c1 = await boundClaim('csi-1', { csiHandle: 'h1' });
    await client.pods('default').create(withVolumes('csi-a', [claimVolume(c1)]));
    const first = await waitBound(client, 'csi-a');
    await client.pods('default').create(withVolumes('csi-b', [claimVolume(await boundClaim('csi-2', { csiHandle: 'h2' }))]));
    expect(await waitBound(client, 'csi-b')).toBe(first === 'za' ? 'zb' : 'za');
    await client.pods('default').create(withVolumes('csi-c', [claimVolume(await boundClaim('csi-3', { csiHandle: 'h3' }))]));
    expect(await failedScheduling('csi-c')).toBe('0/2 nodes are available: 2 node(s) exceed max volume count. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.');
    // the same volume as csi-a: already attached there, so it fits beside it
    await client.pods('default').create(withVolumes('csi-shared', [claimVolume(c1)]));
    expect(await waitBound(client, 'csi-shared')).toBe(first);
    await client.pods('default').delete('csi-b', { gracePeriodSeconds: 0 });
    expect(await waitBound(client, 'csi-c')).toBe(first === 'za' ? 'zb' : 'za');
  });

  it('VolumeRestrictions: a ReadWriteOncePod claim in use keeps another pod out until its user goes', async () => {
    const solo = await boundClaim('pv-solo', { accessModes: ['ReadWriteOncePod'] });
    await client.pods('default').create(withVolumes('solo-1', [claimVolume(solo)]));
    await waitBound(client, 'solo-1');
    await client.pods('default').create(withVolumes('solo-2', [claimVolume(solo)]));
    expect(await failedScheduling('solo-2')).toBe('0/2 nodes are available: 2 node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.');
    await client.pods('default').delete('solo-1', { gracePeriodSeconds: 0 });
    await waitBound(client, 'solo-2');
  });

  it('VolumeRestrictions: two pods may not mount the same GCE PD read-write on one node', async () => {
    const disk = { name: 'disk', gcePersistentDisk: { pdName: 'disk-1', fsType: 'ext4' } };
    await client.pods('default').create(withVolumes('disk-1', [disk], { nodeSelector: { 'topology.kubernetes.io/zone': 'a' } }));
    expect(await waitBound(client, 'disk-1')).toBe('za');
    await client.pods('default').create(withVolumes('disk-2', [disk], { nodeSelector: { 'topology.kubernetes.io/zone': 'a' } }));
    expect(await failedScheduling('disk-2')).toBe('0/2 nodes are available: 1 node(s) didn\'t match Pod\'s node affinity/selector, 1 node(s) had no available disk. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.');
  });
});
