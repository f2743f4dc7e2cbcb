// Volume expansion, with the binder, the hostpath provisioner (and its resizer) and the expand controller in this
// process and the real kubectl: a claim of an expandable class patched to a bigger request is reported as waiting for
// an external controller (ExternalExpanding); a mini-kube.io/hostpath claim is then resized as external-resizer does
// (Resizing, the volume's capacity, the claim's status.capacity, VolumeResizeSuccessful); another provisioner's is left
// to its own resizer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Resources, type Client, type KubeObject } from '../../pkg/client/index.js';
import type { TestApiServer } from '../support/apiserver.js';
import { eventually, startControllersCluster, stopControllersCluster } from './controllers-support.js';

let s: TestApiServer;
let c: Client;
let cm: { stop(): Promise<void> };

beforeAll(async () => ({ s, c, cm } = await startControllersCluster({ controllers: ['persistentvolume-binder', 'hostpath-provisioner', 'persistentvolume-expander'] })), 30_000);
afterAll(() => stopControllersCluster({ s, c, cm }));

const claim = (name: string, cls: string): KubeObject => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: 'default' },
  spec: { accessModes: ['ReadWriteOnce'], storageClassName: cls, resources: { requests: { storage: '1Gi' } } },
});
const reasons = async (name: string): Promise<string[]> =>
  (await c.events('default').list({ fieldSelector: `involvedObject.name=${name},involvedObject.kind=PersistentVolumeClaim` })).items.map((e) => e.reason as string);
const grow = async (name: string): Promise<void> => {
  const r = await s.kubectl('patch', 'pvc', name, '-p', '{"spec":{"resources":{"requests":{"storage":"2Gi"}}}}');
  expect(r.stderr).toBe('');
};
const bound = (name: string): Promise<KubeObject> =>
  eventually(() => c.persistentVolumeClaims('default').get(name), (p) => p.status?.phase === 'Bound', `${name} Bound`);

describe('volume expansion', () => {
  it('resizes a mini-kube.io/hostpath claim, and leaves another provisioner\'s to its resizer', async () => {
    const classes = c.resource(Resources.storageClasses);
    for (const [name, provisioner] of [['hostpath-x', 'mini-kube.io/hostpath'], ['csi-x', 'csi.example.com']]) {
      await classes.create({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name }, provisioner, allowVolumeExpansion: true });
    }
    // another driver's volume, provisioned (here: by hand) and bound
    await c.persistentVolumes().create({
      apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv-csi', annotations: { 'pv.kubernetes.io/provisioned-by': 'csi.example.com' } },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], storageClassName: 'csi-x', csi: { driver: 'csi.example.com', volumeHandle: 'v1' } },
    });
    await c.persistentVolumeClaims('default').create(claim('other', 'csi-x'));
    await c.persistentVolumeClaims('default').create(claim('data', 'hostpath-x'));
    await bound('other');
    const before = await bound('data');
    expect(before.status?.capacity).toEqual({ storage: '1Gi' });

    // the other driver's first: once the hostpath claim is resized, the resizer has looked at it too (one worker, in order)
    await grow('other');
    await eventually(() => reasons('other'), (r) => r.includes('ExternalExpanding'), 'ExternalExpanding for the other driver\'s claim');
    await grow('data');
    const resized = await eventually(() => c.persistentVolumeClaims('default').get('data'), (p) => p.status?.capacity?.storage === '2Gi', 'the claim\'s new capacity');
    expect(resized.status?.conditions).toBeUndefined();
    expect(resized.status?.allocatedResources).toEqual({ storage: '2Gi' });
    expect(resized.status?.allocatedResourceStatuses).toBeUndefined();
    expect((await c.persistentVolumes().get(resized.spec!.volumeName!)).spec?.capacity).toEqual({ storage: '2Gi' });
    expect((await s.kubectl('get', 'pvc', 'data', '-o', 'custom-columns=CAPACITY:.status.capacity.storage', '--no-headers')).stdout.trim()).toBe('2Gi');
    expect((await s.kubectl('get', 'pvc', 'data', '--no-headers')).stdout).toMatch(/^data\s+Bound\s+\S+\s+2Gi\s+RWO\s+hostpath-x\s/);
    const events = await eventually(() => reasons('data'), (r) => r.includes('VolumeResizeSuccessful'), 'VolumeResizeSuccessful');
    expect(events).toEqual(expect.arrayContaining(['ExternalExpanding', 'Resizing', 'VolumeResizeSuccessful']));
    const described = (await s.kubectl('describe', 'pvc', 'data')).stdout;
    expect(described).toContain('waiting for an external controller to expand this PVC');
    expect(described).toContain('External resizer is resizing volume pvc-');
    expect(described).toContain('Resize volume succeeded');

    const other = await c.persistentVolumeClaims('default').get('other');
    expect(other.status?.capacity).toEqual({ storage: '1Gi' });
    expect(await reasons('other')).not.toContain('Resizing');
  });
});
