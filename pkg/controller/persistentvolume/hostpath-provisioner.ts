// A dynamic provisioner for StorageClasses with provisioner `mini-kube.io/hostpath`, in the manner of
// rancher's local-path-provisioner driven by the external-provisioner library: a claim the binder handed to it
// (volume.kubernetes.io/storage-provisioner) gets a PersistentVolume `pvc-<claim uid>` pre-bound to it, a hostPath
// directory `<dir>/pvc-<uid>_<namespace>_<name>` (DirectoryOrCreate: the kubelet creates it on first mount) pinned to
// the selected node under WaitForFirstConsumer; a Released volume of policy Delete loses its directory and object.
// mini-kube's nodes share one machine, so the directory is removed from here. A claim grown past its capacity is
// expanded by its resizer (hostpath-resizer.ts).
import { rm } from 'node:fs/promises';
import { join, relative, isAbsolute } from 'node:path';
import { Resources, isAlreadyExists, isNotFound, type KubeObject } from '../../client/index.js';
import { objOf, workerLoop } from '../shared/controller-utils.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { startHostPathResizer } from './hostpath-resizer.js';
import {
  ANN_BETA_STORAGE_PROVISIONER, ANN_PROVISIONED_BY, ANN_SELECTED_NODE, ANN_STORAGE_PROVISIONER, claimClass, requestedStorage,
} from './matching.js';

export const HOSTPATH_PROVISIONER = 'mini-kube.io/hostpath';

const isInside = (dir: string, path: string): boolean => {
  const rel = relative(dir, path);
  return !!rel && !rel.startsWith('..') && !isAbsolute(rel);
};

export async function startHostPathProvisioner(ctx: ClusterControllerContext): Promise<void> {
  const baseDir = ctx.config.hostPathProvisionerDir;
  const pvcInformer = ctx.informers.informerFor(Resources.persistentVolumeClaims);
  const pvInformer = ctx.informers.informerFor(Resources.persistentVolumes);
  const classInformer = ctx.informers.informerFor(Resources.storageClasses);
  const pvcs = pvcInformer.lister();
  const pvs = pvInformer.lister();
  const classes = classInformer.lister();
  const claimLoop = workerLoop(ctx, 'hostpath-provisioner/claims', provision);
  const volumeLoop = workerLoop(ctx, 'hostpath-provisioner/volumes', reclaim);
  pvcInformer.addEventHandler({ onAdd: (c) => claimLoop.enqueue(c), onUpdate: (_o, c) => claimLoop.enqueue(c) });
  pvInformer.addEventHandler({ onAdd: (v) => volumeLoop.enqueue(v), onUpdate: (_o, v) => volumeLoop.enqueue(v), onDelete: (o) => volumeLoop.enqueue(objOf(o)) });

  async function provision(key: string): Promise<void> {
    const claim = pvcs.get(key);
    if (!claim || claim.metadata?.deletionTimestamp || claim.spec?.volumeName) return;
    const ann = claim.metadata?.annotations ?? {};
    if ((ann[ANN_STORAGE_PROVISIONER] ?? ann[ANN_BETA_STORAGE_PROVISIONER]) !== HOSTPATH_PROVISIONER) return;
    const sc = classes.get(claimClass(claim));
    if (sc?.provisioner !== HOSTPATH_PROVISIONER) return;
    const node = ann[ANN_SELECTED_NODE];
    if (sc.volumeBindingMode === 'WaitForFirstConsumer' && !node) return;
    const { namespace, name, uid } = claim.metadata!;
    const pvName = `pvc-${uid}`;
    if (pvs.get(pvName)) return;
    ctx.recorder.event(claim, 'Normal', 'Provisioning', `External provisioner is provisioning volume for claim "${namespace}/${name}"`);
    const path = join(baseDir, `${pvName}_${namespace}_${name}`);
    const pv: KubeObject = {
      apiVersion: 'v1', kind: 'PersistentVolume',
      metadata: { name: pvName, annotations: { [ANN_PROVISIONED_BY]: HOSTPATH_PROVISIONER } },
      spec: {
        capacity: { storage: requestedStorage(claim) ?? '0' },
        accessModes: claim.spec?.accessModes ?? ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: sc.reclaimPolicy ?? 'Delete',
        storageClassName: sc.metadata!.name,
        volumeMode: claim.spec?.volumeMode ?? 'Filesystem',
        ...(sc.mountOptions ? { mountOptions: sc.mountOptions } : {}),
        claimRef: { kind: 'PersistentVolumeClaim', apiVersion: 'v1', namespace, name, uid, resourceVersion: claim.metadata!.resourceVersion },
        hostPath: { path, type: 'DirectoryOrCreate' },
        ...(node ? { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] } } } : {}),
      },
    };
    try {
      await ctx.client.persistentVolumes().create(pv, { signal: ctx.signal });
    } catch (e) {
      if (!isAlreadyExists(e)) {
        ctx.recorder.event(claim, 'Warning', 'ProvisioningFailed', `failed to provision volume with StorageClass "${sc.metadata!.name}": ${(e as Error).message}`);
        throw e;
      }
    }
    ctx.logger.info({ claim: key, volume: pvName, path }, 'provisioned volume');
    ctx.recorder.event(claim, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${pvName}`);
  }

  async function reclaim(name: string): Promise<void> {
    const pv = pvs.get(name);
    if (!pv || pv.metadata?.annotations?.[ANN_PROVISIONED_BY] !== HOSTPATH_PROVISIONER) return;
    if (pv.status?.phase !== 'Released' || pv.spec?.persistentVolumeReclaimPolicy !== 'Delete') return;
    const path = pv.spec?.hostPath?.path as string | undefined;
    if (path && isInside(baseDir, path)) await rm(path, { recursive: true, force: true });
    try {
      await ctx.client.persistentVolumes().delete(name, { preconditions: { uid: pv.metadata!.uid }, signal: ctx.signal });
      ctx.logger.info({ volume: name, path }, 'deleted released volume');
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }

  // and its resizer, as a CSI driver's external-resizer beside its external-provisioner
  await Promise.all([claimLoop.run(), volumeLoop.run(), startHostPathResizer(ctx, HOSTPATH_PROVISIONER)]);
}
