// The volume expand controller (upstream pkg/controller/volume/expand, expand_controller.go): a bound claim whose
// storage request grew past its status.capacity is resized by a volume plugin, or, when no in-tree plugin expands
// its volume (always, here: hostPath, local and CSI volumes are expanded by an external resizer), recorded as
// Normal ExternalExpanding "waiting for an external controller to expand this PVC". A claim is looked at when it is
// added and when its request or its capacity grows, as upstream's enqueue rules.
import { Resources, type KubeObject } from '../../client/index.js';
import { objOf, workerLoop } from '../shared/controller-utils.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { storageQuantity } from './matching.js';

export async function startExpandController(ctx: ClusterControllerContext): Promise<void> {
  const pvcInformer = ctx.informers.informerFor(Resources.persistentVolumeClaims);
  const pvInformer = ctx.informers.informerFor(Resources.persistentVolumes);
  const pvcs = pvcInformer.lister();
  const pvs = pvInformer.lister();
  const loop = workerLoop(ctx, 'persistentvolume-expander-controller', sync);

  const enqueueBound = (claim: KubeObject): void => { if (claim.status?.phase === 'Bound') loop.enqueue(claim); };
  pvcInformer.addEventHandler({
    onAdd: enqueueBound,
    onUpdate: (old, claim) => {
      const grew = (f: (c: KubeObject) => unknown): boolean => storageQuantity(f(claim)) > storageQuantity(f(old));
      if (grew((c) => c.spec?.resources?.requests) || grew((c) => c.status?.capacity)) enqueueBound(claim);
    },
    onDelete: (o) => enqueueBound(objOf(o)),
  });
  function sync(key: string): Promise<void> {
    check(key);
    return Promise.resolve();
  }

  function check(key: string): void {
    const claim = pvcs.get(key);
    if (!claim?.spec?.volumeName) return;
    const pv = pvs.get(claim.spec.volumeName);
    const ref = pv?.spec?.claimRef as { namespace?: string; uid?: string } | undefined;
    if (!pv || ref?.namespace !== claim.metadata?.namespace || ref?.uid !== claim.metadata?.uid) return;
    if (storageQuantity(claim.spec?.resources?.requests) <= storageQuantity(claim.status?.capacity)) return;
    // no in-tree plugin of ours expands volumes: an external resizer (for mini-kube.io/hostpath, hostpath-resizer.ts) does
    ctx.recorder.event(claim, 'Normal', 'ExternalExpanding', 'waiting for an external controller to expand this PVC');
  }

  await loop.run();
}
