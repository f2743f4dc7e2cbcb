import { mkdtemp, stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../client/index.js';
import { deleteHostPath, findDeleter, recyclerPod, recyclerTimeout } from './volume-plugins.js';

const pv = (spec: Record<string, unknown>, annotations?: Record<string, string>): KubeObject => ({
  apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv1', annotations }, spec: { capacity: { storage: '1Gi' }, ...spec },
});

describe('the deleters of the controller-manager\'s volume plugins', () => {
  it('deletes hostPath volumes, leaves external ones alone and names why others cannot be', () => {
    expect(findDeleter(pv({ hostPath: { path: '/tmp/x' } }))).toBeTypeOf('function');
    expect(findDeleter(pv({ hostPath: { path: '/tmp/x' } }, { 'pv.kubernetes.io/provisioned-by': 'kubernetes.io/host-path' }))).toBeTypeOf('function');
    // a provisioner outside kubernetes.io/ (ours included), CSI and migrated volumes: an external deleter's
    expect(findDeleter(pv({ hostPath: { path: '/tmp/x' } }, { 'pv.kubernetes.io/provisioned-by': 'mini-kube.io/hostpath' }))).toBeUndefined();
    expect(findDeleter(pv({ csi: { driver: 'd', volumeHandle: 'h' } }))).toBeUndefined();
    expect(findDeleter(pv({ hostPath: { path: '/tmp/x' } }, { 'pv.kubernetes.io/migrated-to': 'd' }))).toBeUndefined();

    expect(() => findDeleter(pv({ nfs: { server: 's', path: '/' } }))).toThrow('error getting deleter volume plugin for volume "pv1": no deletable volume plugin matched');
    expect(() => findDeleter(pv({ local: { path: '/mnt' } }))).toThrow('error getting deleter volume plugin for volume "pv1": no deletable volume plugin matched');
    expect(() => findDeleter(pv({ iscsi: { targetPortal: 'p', iqn: 'i', lun: 0 } }))).toThrow('error getting deleter volume plugin for volume "pv1": no volume plugin matched');
    expect(() => findDeleter(pv({ nfs: { server: 's', path: '/' } }, { 'pv.kubernetes.io/provisioned-by': 'kubernetes.io/aws-ebs' }))).toThrow(/^no volume plugin matched name: kubernetes.io\/aws-ebs$/);
    expect(() => findDeleter(pv({ nfs: { server: 's', path: '/' } }, { 'pv.kubernetes.io/provisioned-by': 'kubernetes.io/host-path' })))
      .toThrow('failed to create deleter for volume "pv1": spec.PersistentVolumeSource.HostPath is nil');
  });

  it('removes only what matches /tmp/.+, anywhere in the path', async () => {
    await expect(deleteHostPath('/opt/ssr-pv4')).rejects.toThrow('host_path deleter only supports /tmp/.+ but received provided /opt/ssr-pv4');
    await expect(deleteHostPath('/tmp/')).rejects.toThrow('host_path deleter only supports /tmp/.+ but received provided /tmp/');
    await expect(deleteHostPath('/tmp/.')).rejects.toThrow('RemoveAll /tmp/.: invalid argument');
    const dir = await mkdtemp('/tmp/mk-deleter-');
    await deleteHostPath(dir);
    await expect(stat(dir)).rejects.toMatchObject({ code: 'ENOENT' });
    // gone already: nothing to do, as os.RemoveAll
    await deleteHostPath(dir);
  });
});

describe('the recyclers', () => {
  it('give the pod the minimum deadline, or the increment per whole Gi', () => {
    expect(recyclerTimeout(60, 30, pv({ capacity: { storage: '1Gi' } }))).toBe(60);
    expect(recyclerTimeout(60, 30, pv({ capacity: { storage: '5Gi' } }))).toBe(150);
    expect(recyclerTimeout(60, 30, pv({ capacity: { storage: '3500Mi' } }))).toBe(90);
  });

  it('scrub hostPath and nfs volumes only', () => {
    expect(recyclerPod(pv({ capacity: { storage: '10Gi' }, nfs: { server: 'srv', path: '/export' } }))?.spec)
      .toMatchObject({ activeDeadlineSeconds: 300, volumes: [{ name: 'vol', nfs: { server: 'srv', path: '/export' } }] });
    expect(recyclerPod(pv({ hostPath: { path: '/tmp/x', type: 'Directory' } }))?.spec?.volumes).toEqual([{ name: 'vol', hostPath: { path: '/tmp/x' } }]);
    expect(recyclerPod(pv({ local: { path: '/mnt' } }))).toBeUndefined();
    expect(recyclerPod(pv({ csi: { driver: 'd', volumeHandle: 'h' } }))).toBeUndefined();
  });
});
