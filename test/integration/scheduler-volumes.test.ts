// VolumeBinding basics: a bound claim's volume node affinity decides the node; an unbound WaitForFirstConsumer
// claim is provisioned on the chosen node (volume.kubernetes.io/selected-node) or bound to a fitting local volume,
// and the pod is bound to its node only once the PV controller has bound its claims; an unbound Immediate claim
// keeps the pod pending; a missing claim is reported.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, KubeObject } from '../../pkg/client/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { adminClient, createNode, eventsFor, eventually, podObject, startScheduler, waitBound, type RunningScheduler } from './scheduler-support.js';

let api: TestApiServer;
let client: Client;
let sched: RunningScheduler;
const storageClasses = { group: 'storage.k8s.io', version: 'v1', resource: 'storageclasses', namespaced: false } as const;

const localPv = (name: string, node: string, cls: string, claim?: { name: string; uid?: string }): KubeObject => ({
  apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name },
  spec: {
    capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], storageClassName: cls, local: { path: `/mnt/${name}` },
    persistentVolumeReclaimPolicy: 'Retain',
    ...(claim ? { claimRef: { kind: 'PersistentVolumeClaim', namespace: 'default', name: claim.name } } : {}),
    nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] } },
  },
});

const pvc = (name: string, cls: string, volumeName?: string): KubeObject => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], storageClassName: cls, resources: { requests: { storage: '1Gi' } }, ...(volumeName ? { volumeName } : {}) },
});

const withClaim = (name: string, claim: string): KubeObject => podObject(name, { spec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: claim } }] } });

beforeAll(async () => {
  api = await startTestApiServer({ controllers: ['serviceaccount', 'persistentvolume-binder'] });
  client = await adminClient(api);
  for (const n of ['v1', 'v2', 'v3']) await createNode(client, n);
  await client.resource(storageClasses).create({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'local' }, provisioner: 'kubernetes.io/no-provisioner', volumeBindingMode: 'WaitForFirstConsumer' });
  await client.resource(storageClasses).create({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'dynamic' }, provisioner: 'example.com/csi', volumeBindingMode: 'WaitForFirstConsumer' });
  await client.resource(storageClasses).create({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'immediate' }, provisioner: 'example.com/csi', volumeBindingMode: 'Immediate' });
  sched = startScheduler(client);
});

afterAll(async () => {
  await sched?.stop();
  await client?.close();
  await api?.close();
});

describe('volume binding', () => {
  it('follows a bound claim to its volume\'s node', async () => {
    await client.persistentVolumes().create(localPv('pv-bound', 'v2', 'local', { name: 'claim-bound' }));
    await client.persistentVolumeClaims('default').create(pvc('claim-bound', 'local', 'pv-bound'));
    await client.pods('default').create(withClaim('uses-bound', 'claim-bound'));
    expect(await waitBound(client, 'uses-bound')).toBe('v2');
  });

  it('binds a WaitForFirstConsumer claim to a local volume on the chosen node', async () => {
    await client.persistentVolumes().create(localPv('pv-free', 'v3', 'local'));
    await client.persistentVolumeClaims('default').create(pvc('claim-local', 'local'));
    await client.pods('default').create(withClaim('uses-local', 'claim-local'));
    expect(await waitBound(client, 'uses-local')).toBe('v3');
    const pv = await client.persistentVolumes().get('pv-free');
    expect(pv.spec?.claimRef).toMatchObject({ namespace: 'default', name: 'claim-local' });
  });

  it('marks a claim for provisioning on the chosen node, and binds the pod there once the volume is provisioned', async () => {
    await client.persistentVolumeClaims('default').create(pvc('claim-dyn', 'dynamic'));
    await client.pods('default').create(withClaim('uses-dyn', 'claim-dyn'));
    const claim = await eventually(async () => {
      const c = await client.persistentVolumeClaims('default').get('claim-dyn');
      return c.metadata?.annotations?.['volume.kubernetes.io/selected-node'] ? c : undefined;
    }, 15_000, 'selected-node');
    const node = claim.metadata!.annotations!['volume.kubernetes.io/selected-node'];
    // no provisioner runs example.com/csi: the pod waits in PreBind, unbound
    expect((await client.pods('default').get('uses-dyn')).spec?.nodeName).toBeUndefined();
    // what the external provisioner would do: a volume on that node for the claim
    await client.persistentVolumes().create({ ...localPv('pv-dyn', node, 'dynamic', { name: 'claim-dyn', uid: claim.metadata!.uid }), metadata: { name: 'pv-dyn', annotations: { 'pv.kubernetes.io/provisioned-by': 'example.com/csi' } } });
    expect(await waitBound(client, 'uses-dyn')).toBe(node);
    // the informer's lag behind the annotation it wrote is no failure: the pod was never sent back
    expect((await eventsFor(client, 'uses-dyn')).filter((e) => e.reason === 'FailedScheduling').map((e) => e.message)).toEqual([]);
  });

  it('keeps a pod with an unbound Immediate claim or a missing claim pending, with upstream\'s reasons', async () => {
    await client.persistentVolumeClaims('default').create(pvc('claim-imm', 'immediate'));
    await client.pods('default').create(withClaim('uses-imm', 'claim-imm'));
    const ev = await eventually(async () => (await eventsFor(client, 'uses-imm')).find((e) => e.reason === 'FailedScheduling'), 10_000, 'FailedScheduling');
    expect(ev.message).toBe('0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.');
    await client.pods('default').create(withClaim('uses-missing', 'nope'));
    const ev2 = await eventually(async () => (await eventsFor(client, 'uses-missing')).find((e) => e.reason === 'FailedScheduling'), 10_000, 'FailedScheduling');
    expect(ev2.message).toMatch(/^0\/3 nodes are available: persistentvolumeclaim "nope" not found\./);
  });
});
