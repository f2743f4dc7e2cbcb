// The resizer of mini-kube.io/hostpath volumes, run beside their provisioner as kubernetes-csi's external-resizer
// runs beside a CSI driver (its expandAndRecover, with RecoverVolumeExpansionFailure as in 1.32): a bound claim whose
// request grew past status.capacity is marked Resizing (allocatedResources the new size, allocatedResourceStatuses
// ControllerResizeInProgress; event Resizing "External resizer is resizing volume <pv>"), its volume's capacity is
// grown, and the claim's status.capacity follows with the resize conditions cleared (event VolumeResizeSuccessful
// "Resize volume succeeded"). A hostPath directory has no filesystem of its own to grow, so, like a driver without
// node expansion, no FileSystemResizePending step is left to the kubelet.
import { Resources, type KubeObject } from '../../client/index.js';
import { cloneJson } from '../../apimachinery/json-clone.js';
import { formatTimeOf, workerLoop } from '../shared/controller-utils.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { ANN_PROVISIONED_BY, storageQuantity } from './matching.js';

const RESIZE_CONDITIONS = ['Resizing', 'FileSystemResizePending'];
const CONTROLLER_RESIZE_IN_PROGRESS = 'ControllerResizeInProgress';

interface Condition { type: string; status: string; lastTransitionTime?: string; [k: string]: unknown }

/** Upstream's MergeResizeConditionsOfPVC: other conditions kept, the resize ones replaced (keeping an unchanged one's time). */
const mergeResizeConditions = (current: Condition[] | undefined, resize: Condition[]): Condition[] => {
  const kept = (current ?? []).filter((c) => !RESIZE_CONDITIONS.includes(c.type));
  const same = (c: Condition): Condition => (current ?? []).find((o) => o.type === c.type && o.status === c.status) ?? c;
  return [...kept, ...resize.map(same)];
};

export async function startHostPathResizer(ctx: ClusterControllerContext, provisioner: string): Promise<void> {
  const pvcInformer = ctx.informers.informerFor(Resources.persistentVolumeClaims);
  const pvcs = pvcInformer.lister();
  const pvs = ctx.informers.informerFor(Resources.persistentVolumes).lister();
  const loop = workerLoop(ctx, 'hostpath-provisioner/resizer', resize);
  pvcInformer.addEventHandler({ onAdd: (c) => loop.enqueue(c), onUpdate: (_o, c) => loop.enqueue(c) });
  const claims = (ns: string | undefined) => ctx.client.persistentVolumeClaims(ns);

  async function resize(key: string): Promise<void> {
    let claim = pvcs.get(key);
    if (!claim?.spec?.volumeName || claim.status?.phase !== 'Bound' || claim.metadata?.deletionTimestamp) return;
    let pv = pvs.get(claim.spec.volumeName);
    const ref = pv?.spec?.claimRef as { namespace?: string; uid?: string } | undefined;
    if (!pv || pv.metadata?.annotations?.[ANN_PROVISIONED_BY] !== provisioner) return;
    if (ref?.namespace !== claim.metadata?.namespace || ref?.uid !== claim.metadata?.uid) return;
    const wanted = claim.spec?.resources?.requests?.storage as string | undefined;
    if (!wanted || storageQuantity(claim.spec?.resources?.requests) <= storageQuantity(claim.status?.capacity)) return;

    // 1. the claim is resizing to `wanted` (written once: a retry finds it so already)
    const status = claim.status ?? {};
    if (status.allocatedResources?.storage !== wanted || status.allocatedResourceStatuses?.storage !== CONTROLLER_RESIZE_IN_PROGRESS) {
      const next = cloneJson(claim);
      next.status = {
        ...status,
        conditions: mergeResizeConditions(status.conditions, [{ type: 'Resizing', status: 'True', lastProbeTime: null, lastTransitionTime: formatTimeOf(ctx.clock) }]),
        allocatedResources: { ...status.allocatedResources, storage: wanted },
        allocatedResourceStatuses: { ...status.allocatedResourceStatuses, storage: CONTROLLER_RESIZE_IN_PROGRESS },
      };
      claim = await claims(claim.metadata!.namespace).updateStatus(next, { signal: ctx.signal });
    }
    ctx.recorder.event(claim, 'Normal', 'Resizing', `External resizer is resizing volume ${pv.metadata!.name}`);

    // 2. the volume grows (a directory: nothing to do on disk but to record its new size)
    if (storageQuantity(pv.spec?.capacity) < storageQuantity({ storage: wanted })) {
      const next = cloneJson(pv);
      next.spec = { ...next.spec, capacity: { ...next.spec?.capacity, storage: wanted } };
      pv = await ctx.client.persistentVolumes().update(next, { signal: ctx.signal });
    }

    // 3. no node expansion needed: the claim has its new capacity
    const done = cloneJson(claim);
    const { storage: _inProgress, ...otherStatuses } = (claim.status?.allocatedResourceStatuses ?? {}) as Record<string, string>;
    done.status = {
      ...claim.status,
      capacity: { ...claim.status?.capacity, storage: wanted },
      conditions: mergeResizeConditions(claim.status?.conditions, []),
      allocatedResourceStatuses: otherStatuses,
    };
    if (!Object.keys(otherStatuses).length) delete done.status.allocatedResourceStatuses;
    if (!done.status.conditions.length) delete done.status.conditions;
    await claims(claim.metadata!.namespace).updateStatus(done, { signal: ctx.signal });
    ctx.logger.info({ claim: key, volume: pv.metadata!.name, size: wanted }, 'resized volume');
    ctx.recorder.event(claim, 'Normal', 'VolumeResizeSuccessful', 'Resize volume succeeded');
  }

  await loop.run();
}
