// The PersistentVolume binder against upstream's behaviour: a claim is Pending from its creation (the binder writes
// no status for it, so its first event is recorded once); a released hostPath volume of policy Delete loses its
// directory and object when under /tmp, and is Failed otherwise; Recycle scrubs it with a recycler pod (played here
// by the test, as no kubelet runs); every claim and volume is synced again each --pvclaimbinder-sync-period.
import { mkdtemp, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, CoreEvent, KubeObject } from '../../pkg/client/index.js';
import { eventually, startControllersCluster, stopControllersCluster, type ControllersCluster } from './controllers-support.js';

const CONTROLLERS = ['persistentvolume-binder', 'pvc-protection', 'pv-protection'];
const storageClasses = { group: 'storage.k8s.io', version: 'v1', resource: 'storageclasses', namespaced: false };

const claim = (name: string, spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});

/** A volume bound to a claim that is gone (a uid no claim has): the binder releases it at once. */
const releasedVolume = (name: string, policy: string, hostPath: string): KubeObject => ({
  apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name },
  spec: {
    capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: policy, storageClassName: '',
    hostPath: { path: hostPath }, claimRef: { kind: 'PersistentVolumeClaim', apiVersion: 'v1', namespace: 'default', name: `gone-${name}`, uid: '00000000-0000-0000-0000-000000000001' },
  },
});

const eventsOf = async (c: Client, name: string): Promise<CoreEvent[]> =>
  (await c.events().list({ fieldSelector: `involvedObject.name=${name}` })).items;
const countOf = async (c: Client, name: string, reason: string): Promise<number> =>
  (await eventsOf(c, name)).filter((e) => e.reason === reason).reduce((n, e) => n + (e.count ?? 1), 0);

describe('with the default sync period', () => {
  let h: ControllersCluster;
  // a period no test reaches: only the binder's own reactions are seen
  beforeAll(async () => { h = await startControllersCluster({ controllers: CONTROLLERS, config: { pvClaimBinderSyncPeriodMs: 600_000 } }); }, 30_000);
  afterAll(() => stopControllersCluster(h));

  /**
   * The claim's first event, then another claim's: the binder has one worker, so once the second claim's event is
   * there any sync the first claim's own writes caused has run too.
   */
  async function firstEventCount(name: string, reason: string, spec: Record<string, unknown>): Promise<number> {
    const { c } = h;
    const created = await c.persistentVolumeClaims('default').create(claim(name, spec));
    expect(created.status).toEqual({ phase: 'Pending' });
    await eventually(() => countOf(c, name, reason), (n) => n > 0, `${reason} of ${name}`);
    await c.persistentVolumeClaims('default').create(claim(`${name}-after`, spec));
    await eventually(() => countOf(c, `${name}-after`, reason), (n) => n > 0, `${reason} of ${name}-after`);
    return countOf(c, name, reason);
  }

  it('creates claims Pending and records the first FailedBinding once', async () => {
    expect(await firstEventCount('no-class', 'FailedBinding', { storageClassName: '' })).toBe(1);
    const stored = await h.c.persistentVolumeClaims('default').get('no-class');
    expect(stored.status).toEqual({ phase: 'Pending' });
  });

  it('records the first WaitForFirstConsumer once', async () => {
    await h.c.resource(storageClasses).create({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'later' }, provisioner: 'example.com/x', volumeBindingMode: 'WaitForFirstConsumer' });
    expect(await firstEventCount('wffc', 'WaitForFirstConsumer', { storageClassName: 'later' })).toBe(1);
  });

  it('records the first ExternalProvisioning once, though the binder annotates the claim', async () => {
    await h.c.resource(storageClasses).create({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'ext' }, provisioner: 'example.com/ext' });
    expect(await firstEventCount('ext', 'ExternalProvisioning', { storageClassName: 'ext' })).toBe(1);
    expect((await h.c.persistentVolumeClaims('default').get('ext')).metadata?.annotations).toMatchObject({ 'volume.kubernetes.io/storage-provisioner': 'example.com/ext' });
  });

  it('finds no plugin for kubernetes.io/no-provisioner, as upstream', async () => {
    await h.c.resource(storageClasses).create({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'none' }, provisioner: 'kubernetes.io/no-provisioner' });
    expect(await firstEventCount('static', 'ProvisioningFailed', { storageClassName: 'none' })).toBe(1);
    const events = await eventsOf(h.c, 'static');
    expect(events.map((e) => [e.type, e.reason, e.message])).toEqual([['Warning', 'ProvisioningFailed', 'no volume plugin matched name: kubernetes.io/no-provisioner']]);
  });

  it('deletes a released hostPath volume under /tmp, directory and object', async () => {
    const { c } = h;
    const dir = await mkdtemp('/tmp/mk-pv-delete-');
    await writeFile(join(dir, 'data'), 'x');
    await c.persistentVolumes().create(releasedVolume('pv-tmp', 'Delete', dir));
    await eventually(() => c.persistentVolumes().get('pv-tmp').then(() => true, () => false), (present) => !present, 'pv-tmp to be deleted');
    await expect(stat(dir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('fails a released hostPath volume outside /tmp, with one VolumeFailedDelete', async () => {
    const { c } = h;
    const message = 'host_path deleter only supports /tmp/.+ but received provided /opt/mk-pv-never';
    await c.persistentVolumes().create(releasedVolume('pv-opt', 'Delete', '/opt/mk-pv-never'));
    const pv = await eventually(() => c.persistentVolumes().get('pv-opt'), (v) => v?.status?.phase === 'Failed', 'pv-opt Failed');
    expect(pv.status?.message).toBe(message);
    const events = await eventually(() => eventsOf(c, 'pv-opt'), (e) => e.length > 0, 'pv-opt events');
    expect(events.map((e) => [e.type, e.reason, e.message, e.count])).toEqual([['Warning', 'VolumeFailedDelete', message, 1]]);
  });

  it('recycles a released hostPath volume with a recycler pod, then makes it Available', async () => {
    const { c } = h;
    await c.persistentVolumes().create(releasedVolume('pv-rec', 'Recycle', '/tmp/mk-pv-recycled'));
    const pod = await eventually(() => c.pods('default').get('recycler-for-pv-rec'), (p) => !!p?.metadata?.uid, 'the recycler pod');
    // (the service account admission adds its token volume)
    expect(pod.spec?.volumes?.[0]).toEqual({ name: 'vol', hostPath: { path: '/tmp/mk-pv-recycled', type: '' } });
    expect(pod.spec).toMatchObject({
      activeDeadlineSeconds: 60, restartPolicy: 'Never',
      containers: [{
        name: 'pv-recycler', image: 'registry.k8s.io/build-image/debian-base:bookworm-v1.0.4', command: ['/bin/sh'],
        args: ['-c', 'test -e /scrub && find /scrub -mindepth 1 -delete && test -z "$(ls -A /scrub)" || exit 1'],
      }],
    });
    expect(pod.spec?.containers?.[0]?.volumeMounts?.[0]).toEqual({ name: 'vol', mountPath: '/scrub' });
    // what the kubelet would say about the pod reaches the volume
    await c.events('default').create({
      apiVersion: 'v1', kind: 'Event', metadata: { name: 'recycler-for-pv-rec.started', namespace: 'default' }, type: 'Normal', reason: 'Started',
      message: 'Started container pv-recycler', involvedObject: { kind: 'Pod', namespace: 'default', name: 'recycler-for-pv-rec', uid: pod.metadata!.uid },
    } as CoreEvent);
    await eventually(() => eventsOf(c, 'pv-rec'), (e) => e.some((x) => x.reason === 'RecyclerPod'), 'the pod\'s event on the volume');
    await c.pods('default').updateStatus({ ...pod, status: { phase: 'Succeeded' } });

    const pv = await eventually(() => c.persistentVolumes().get('pv-rec'), (v) => v?.status?.phase === 'Available', 'pv-rec Available');
    // pre-bound by its user: only the old claim's uid goes
    expect(pv.spec?.claimRef).toEqual({ kind: 'PersistentVolumeClaim', apiVersion: 'v1', namespace: 'default', name: 'gone-pv-rec' });
    await eventually(() => c.pods('default').get('recycler-for-pv-rec').then(() => true, () => false), (present) => !present, 'the recycler pod to go');
    const events = (await eventsOf(c, 'pv-rec')).map((e) => [e.type, e.reason, e.message]);
    expect(events).toEqual(expect.arrayContaining([['Normal', 'RecyclerPod', 'Recycler pod: Started container pv-recycler'], ['Normal', 'VolumeRecycled', 'Volume recycled']]));
  });

  it('fails the volume when its recycler pod fails', async () => {
    const { c } = h;
    await c.persistentVolumes().create(releasedVolume('pv-rec-fail', 'Recycle', '/tmp/mk-pv-recycle-fails'));
    const pod = await eventually(() => c.pods('default').get('recycler-for-pv-rec-fail'), (p) => !!p?.metadata?.uid, 'the recycler pod');
    await c.pods('default').updateStatus({ ...pod, status: { phase: 'Failed' } });
    const message = 'Recycle failed: failed to recycle volume: pod failed, pod.Status.Message unknown';
    const pv = await eventually(() => c.persistentVolumes().get('pv-rec-fail'), (v) => v?.status?.phase === 'Failed', 'pv-rec-fail Failed');
    expect(pv.status?.message).toBe(message);
    expect((await eventsOf(c, 'pv-rec-fail')).map((e) => [e.type, e.reason, e.message])).toEqual([['Warning', 'VolumeFailedRecycle', message]]);
  });
});

describe('with a short sync period', () => {
  let h: ControllersCluster;
  beforeAll(async () => { h = await startControllersCluster({ controllers: CONTROLLERS, config: { pvClaimBinderSyncPeriodMs: 300 } }); }, 30_000);
  afterAll(() => stopControllersCluster(h));

  it('syncs an unbound claim again each period', async () => {
    await h.c.persistentVolumeClaims('default').create(claim('waiting', { storageClassName: '' }));
    await eventually(() => countOf(h.c, 'waiting', 'FailedBinding'), (n) => n >= 3, 'FailedBinding to count up');
  });

  it('names the unscheduled pods a WaitForFirstConsumer claim waits for', async () => {
    const { c } = h;
    await c.resource(storageClasses).create({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'wffc' }, provisioner: 'example.com/x', volumeBindingMode: 'WaitForFirstConsumer' });
    await c.persistentVolumeClaims('default').create(claim('consumed', { storageClassName: 'wffc' }));
    await eventually(() => countOf(c, 'consumed', 'WaitForFirstConsumer'), (n) => n > 0, 'WaitForFirstConsumer of consumed');
    await c.pods('default').create({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'consumer' },
      spec: { containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'consumed' } }] },
    });
    const events = await eventually(() => eventsOf(c, 'consumed'), (e) => e.some((x) => x.reason === 'WaitForPodScheduled'), 'WaitForPodScheduled of consumed');
    expect(events.find((e) => e.reason === 'WaitForPodScheduled')?.message).toBe('waiting for pod consumer to be scheduled');
  });

  it('gives a claim a StorageClass made default after it, at a periodic sync', async () => {
    const { c } = h;
    await c.persistentVolumeClaims('default').create(claim('classless'));
    await eventually(() => countOf(c, 'classless', 'FailedBinding'), (n) => n > 0, 'FailedBinding of classless');
    const sc = await c.resource(storageClasses).create({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'made-default' }, provisioner: 'example.com/x' });
    await c.resource(storageClasses).update({ ...sc, metadata: { ...sc.metadata, annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } });
    await eventually(() => c.persistentVolumeClaims('default').get('classless'), (p) => p?.spec?.storageClassName === 'made-default', 'the default class on classless');
  });
});
