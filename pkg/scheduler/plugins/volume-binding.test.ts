// VolumeBinding's PreBind waits on the informer's copies, which lag behind what it wrote: an informer copy older
// than the written claim is "not yet", never "the annotation was reset" (upstream's checkBindings compares
// resourceVersions); a claim whose annotation is really gone or changed sends the pod back with upstream's words.
import { describe, expect, it } from 'vitest';
import { FakeClock, type Client, type KubeObject, type Lister } from '../../client/index.js';
import { SchedulerCache } from '../cache.js';
import { CycleState, type Handle } from '../framework/interface.js';
import type { Pod } from '../types.js';
import { checkBindings, newerThan, volumeBinding } from './volume-binding.js';

const SELECTED = 'volume.kubernetes.io/selected-node';
const lister = (get: (key: string) => KubeObject | undefined, all: () => KubeObject[] = () => []): Lister<KubeObject> =>
  ({ get, list: all, namespace: () => ({ list: all, get }) }) as unknown as Lister<KubeObject>;
const claim = (rv: string, annotations?: Record<string, string>, volumeName?: string): KubeObject => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim',
  metadata: { name: 'data1', namespace: 'default', uid: 'c1', resourceVersion: rv, ...(annotations ? { annotations } : {}) },
  spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'wffc', resources: { requests: { storage: '1Gi' } }, ...(volumeName ? { volumeName } : {}) },
});
const pv: KubeObject = { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv1', resourceVersion: '20' }, spec: { claimRef: { uid: 'c1' } } };

const handleWith = (pvcs: Lister<KubeObject>, patched?: KubeObject): Handle => {
  const cache = new SchedulerCache(new FakeClock(0));
  cache.addNode({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, status: { allocatable: { cpu: '1', memory: '1Gi', pods: '10' } } });
  const client = { persistentVolumeClaims: () => ({ patch: async () => patched }) } as unknown as Client;
  const sc = { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'wffc' }, provisioner: 'mini-kube.io/hostpath', volumeBindingMode: 'WaitForFirstConsumer' };
  return {
    client, cache,
    listers: { pvcs, pvs: lister((k) => (k === 'pv1' ? pv : undefined)), storageClasses: lister(() => sc as KubeObject) },
  } as unknown as Handle;
};

describe('VolumeBinding PreBind', () => {
  it('compares resourceVersions numerically', () => {
    expect(newerThan(claim('11'), claim('9'))).toBe(true);
    expect(newerThan(claim('9'), claim('11'))).toBe(false);
    expect(newerThan(claim('11'), claim('11'))).toBe(false);
  });

  it('keeps waiting while the informer has not seen the selected-node annotation it wrote, then binds', async () => {
    const written = claim('11', { [SELECTED]: 'n1' });
    // the informer's copy: the stale one (no annotation) for a few polls, then the provisioned and bound claim
    let polls = 0;
    const pvcs = lister(() => (++polls < 4 ? claim('10') : claim('15', { [SELECTED]: 'n1', 'pv.kubernetes.io/bind-completed': 'yes' }, 'pv1')));
    const plugin = volumeBinding({ bindTimeoutSeconds: 30 }, handleWith(pvcs, written));
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', uid: 'p' }, spec: { containers: [], volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data1' } }] } } as Pod;
    const state = new CycleState();
    expect(plugin.preFilter(state, pod, [] as never)).toBeNull();
    expect(plugin.reserve(state, pod, 'n1')).toBeNull();
    expect(await plugin.preBind(state, pod, 'n1')).toBeNull();
    expect(polls).toBeGreaterThanOrEqual(4);
  });

  it('fails with upstream\'s reasons when the annotation is really gone or changed', () => {
    const written = claim('11', { [SELECTED]: 'n1' });
    expect(() => checkBindings(handleWith(lister(() => claim('12'))), 'default', 'n1', [], [written])).toThrow('selectedNode annotation reset for PVC "data1"');
    expect(() => checkBindings(handleWith(lister(() => claim('12', { other: 'x' }))), 'default', 'n1', [], [written])).toThrow('provisioning failed for PVC "data1"');
    expect(checkBindings(handleWith(lister(() => claim('12', { [SELECTED]: 'n1' }))), 'default', 'n1', [], [written])).toBe(false);
  });

  it('waits for a statically bound volume\'s claimRef to reach the informer before judging it', () => {
    const stale = lister(() => claim('5'));
    const h = handleWith(stale);
    // the PV we wrote is newer (rv 21) than the informer's (rv 20): not yet
    expect(checkBindings(h, 'default', 'n1', [{ pv: { ...pv, metadata: { name: 'pv1', resourceVersion: '21' } }, claim: 'data1' }], [])).toBe(false);
    expect(checkBindings(h, 'default', 'n1', [{ pv, claim: 'data1' }], [])).toBe(false);
    const bound = handleWith(lister(() => claim('6', { 'pv.kubernetes.io/bind-completed': 'yes' }, 'pv1')));
    expect(checkBindings(bound, 'default', 'n1', [{ pv, claim: 'data1' }], [])).toBe(true);
  });
});
