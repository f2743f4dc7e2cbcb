// Storage object in-use protection, with the pvc-protection, pv-protection and binder controllers in this process
// and the real kubectl: a claim a scheduled pod uses stays Terminating until the pod is gone, a Bound volume until
// its claim is; the admission plugin gives new claims and volumes the finalizers, a claim naming no class the default.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../pkg/client/index.js';
import type { TestApiServer } from '../support/apiserver.js';
import { eventually, exists, startControllersCluster, stopControllersCluster } from './controllers-support.js';

let s: TestApiServer;
let c: Client;
let cm: { stop(): Promise<void> };

beforeAll(async () => ({ s, c, cm } = await startControllersCluster({ controllers: ['pvc-protection', 'pv-protection', 'persistentvolume-binder'] })), 30_000);
afterAll(() => stopControllersCluster({ s, c, cm }));

describe('storage object in-use protection', () => {
  it('keeps a claim a pod uses, and its Bound volume, until nothing uses them', async () => {
    await c.persistentVolumes().create({
      apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv-a' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/pv-a' }, storageClassName: '' },
    });
    const pvc = await c.persistentVolumeClaims('default').create({
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'claim-a' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: '', volumeName: 'pv-a' },
    });
    expect(pvc.metadata?.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    expect((await c.persistentVolumes().get('pv-a')).metadata?.finalizers).toEqual(['kubernetes.io/pv-protection']);
    await eventually(() => c.persistentVolumes().get('pv-a'), (pv) => pv.status?.phase === 'Bound', 'pv-a Bound');
    await c.pods('default').create({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'user' },
      spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'claim-a' } }] },
    });

    // an unused claim and volume, deleted after: once they are gone, each controller (one worker, in order) has
    // looked at the used ones too, and kept them
    await c.persistentVolumeClaims('default').create({
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'claim-free' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'none' },
    });
    await c.persistentVolumes().create({
      apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv-free' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/pv-free' }, storageClassName: 'none' },
    });
    expect((await s.kubectl('delete', 'pvc', 'claim-a', '--wait=false')).code).toBe(0);
    expect((await s.kubectl('delete', 'pv', 'pv-a', '--wait=false')).code).toBe(0);
    expect((await s.kubectl('delete', 'pvc', 'claim-free', '--timeout=15s')).code).toBe(0);
    expect((await s.kubectl('delete', 'pv', 'pv-free', '--timeout=15s')).code).toBe(0);
    expect((await s.kubectl('get', 'pvc', 'claim-a', '--no-headers')).stdout).toMatch(/^claim-a\s+Terminating\s/);
    expect((await s.kubectl('get', 'pv', 'pv-a', '--no-headers')).stdout).toMatch(/\bTerminating\b/);
    expect((await c.persistentVolumeClaims('default').get('claim-a')).metadata?.finalizers).toEqual(['kubernetes.io/pvc-protection']);

    await c.pods('default').delete('user', { gracePeriodSeconds: 0 });
    await eventually(() => exists(s, '/api/v1/namespaces/default/persistentvolumeclaims/claim-a'), (e) => !e, 'claim-a to go');
    await eventually(() => exists(s, '/api/v1/persistentvolumes/pv-a'), (e) => !e, 'pv-a to go once released');
  });

  it('lets a claim no scheduled pod uses go at once', async () => {
    await c.persistentVolumeClaims('default').create({
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'claim-b' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'none' },
    });
    // a pod not yet scheduled does not hold it (the kubelet would refuse to start it with its claim going)
    await c.pods('default').create({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'waiting' },
      spec: { containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'claim-b' } }] },
    });
    const r = await s.kubectl('delete', 'pvc', 'claim-b', '--timeout=15s');
    expect(r.code, r.stderr).toBe(0);
  });

  it('gives a claim that names no class the default StorageClass at creation', async () => {
    await c.resource({ group: 'storage.k8s.io', version: 'v1', resource: 'storageclasses', namespaced: false }).create({
      apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fast', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, provisioner: 'example.com/none',
    });
    const created = await c.persistentVolumeClaims('default').create({
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'claim-c' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    expect(created.spec.storageClassName).toBe('fast');
    const grow = await s.kubectl('patch', 'pvc', 'claim-c', '-p', '{"spec":{"resources":{"requests":{"storage":"2Gi"}}}}');
    expect(grow.code).not.toBe(0);
    // the claim is not bound: its spec is immutable (validation runs before the resize admission plugin, as upstream)
    expect(grow.stderr).toContain('The PersistentVolumeClaim "claim-c" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims');
  });
});
