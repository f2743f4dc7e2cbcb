// The storage protection controllers (upstream pkg/controller/volume/pvcprotection and pvprotection): a claim being
// deleted keeps its kubernetes.io/pvc-protection finalizer while a scheduled pod that is not shut down uses it
// (looked up in the informer's cache, then, before letting go, in a live list: the cache may lag); a volume being
// deleted keeps kubernetes.io/pv-protection while it is Bound. Objects made before the admission plugin added the
// finalizers get them here.
import { isPodTerminal } from '../../../api/core/v1/pod-conditions.js';
import { PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER } from '../../../api/core/v1/storage-objects.js';
import { Resources, isConflict, isNotFound, type KubeObject } from '../../client/index.js';
import { objOf, workerLoop, type WorkerLoop } from '../shared/controller-utils.js';
import type { ControllerContext } from '../shared/types.js';

const hasFinalizer = (o: KubeObject, f: string): boolean => (o.metadata?.finalizers ?? []).includes(f);
/** Being deleted and still held by `f` (IsDeletionCandidate). */
const isDeletionCandidate = (o: KubeObject, f: string): boolean => !!o.metadata?.deletionTimestamp && hasFinalizer(o, f);
/** Not being deleted and not yet held by `f` (NeedToAddFinalizer). */
const needsFinalizer = (o: KubeObject, f: string): boolean => !o.metadata?.deletionTimestamp && !hasFinalizer(o, f);

const withFinalizers = (o: KubeObject, finalizers: string[]): KubeObject => ({ ...o, metadata: { ...o.metadata, finalizers } });

interface Volume { name: string; persistentVolumeClaim?: { claimName?: string }; ephemeral?: unknown }
const volumesOf = (pod: KubeObject): Volume[] => (pod.spec?.volumes ?? []) as Volume[];
/** A generic ephemeral volume's claim is named POD-VOLUME. */
const ephemeralClaim = (pod: KubeObject, v: Volume): string => `${pod.metadata!.name}-${v.name}`;

/** The claims a pod's volumes name: its persistentVolumeClaim volumes, and its generic ephemeral ones. */
const claimsOf = (pod: KubeObject): string[] =>
  volumesOf(pod).flatMap((v) => (v.persistentVolumeClaim?.claimName ? [v.persistentVolumeClaim.claimName] : v.ephemeral ? [ephemeralClaim(pod, v)] : []));

/** The kubelet is done with it, or it was force-deleted: a zero grace period (podIsShutDown). */
const isShutDown = (pod: KubeObject): boolean => !!pod.metadata?.deletionTimestamp && pod.metadata.deletionGracePeriodSeconds === 0;


/**
 * Only a scheduled pod counts: the kubelet will not start a pod whose claim is being deleted. A pod's own ephemeral
 * claim counts only while the pod is not shut down, and only if it is the pod's (its controller).
 */
function podUsesClaim(pod: KubeObject, claim: KubeObject): boolean {
  if (!pod.spec?.nodeName) return false;
  const name = claim.metadata!.name!;
  return volumesOf(pod).some((v) => {
    if (v.persistentVolumeClaim?.claimName === name) return true;
    return !!v.ephemeral && !isShutDown(pod) && ephemeralClaim(pod, v) === name
      && (claim.metadata?.ownerReferences ?? []).some((r) => r.controller && r.uid === pod.metadata?.uid);
  });
}

/**
 * Keeps `f` on an object: removed once the object is being deleted and nothing uses it, added to one made before
 * the admission plugin added it. A conflict comes back later; an object gone is done.
 */
async function protect(loop: WorkerLoop, key: string, o: KubeObject, f: string, inUse: () => Promise<boolean>, update: (o: KubeObject) => Promise<unknown>): Promise<void> {
  try {
    if (isDeletionCandidate(o, f)) {
      if (!(await inUse())) await update(withFinalizers(o, o.metadata!.finalizers!.filter((x) => x !== f)));
    } else if (needsFinalizer(o, f)) {
      await update(withFinalizers(o, [...(o.metadata?.finalizers ?? []), f]));
    }
  } catch (e) {
    if (isNotFound(e)) return;
    if (isConflict(e)) { loop.queue.addRateLimited(key); return; }
    throw e;
  }
}

export async function startPvcProtectionController(ctx: ControllerContext): Promise<void> {
  const claims = ctx.informers.informerFor(Resources.persistentVolumeClaims);
  const pods = ctx.informers.pods();
  const claimLister = claims.lister();
  const podLister = pods.lister();
  const loop = workerLoop(ctx, 'persistentvolumeclaim-protection-controller', async (key) => {
    const claim = claimLister.get(key);
    if (!claim) return;
    const client = ctx.client.persistentVolumeClaims(claim.metadata!.namespace);
    await protect(loop, key, claim, PVC_PROTECTION_FINALIZER, () => inUse(claim), (o) => client.update(o, { signal: ctx.signal }));
  });

  claims.addEventHandler({ onAdd: (c) => loop.enqueue(c), onUpdate: (_o, c) => loop.enqueue(c) });
  /** A pod that can no longer hold a claim (deleted, ended, never scheduled): look at its claims again. */
  const onPod = (pod: KubeObject, deleted: boolean): void => {
    if (!deleted && !isPodTerminal(pod) && pod.spec?.nodeName) return;
    for (const name of claimsOf(pod)) loop.queue.add(`${pod.metadata!.namespace}/${name}`);
  };
  pods.addEventHandler({
    onAdd: (p) => onPod(p, false),
    // a pod replaced under its name (another uid) may have held claims the new one does not name
    onUpdate: (old, p) => { onPod(p, false); if (old.metadata?.uid !== p.metadata?.uid) onPod(old, true); },
    onDelete: (o) => onPod(objOf(o), true),
  });

  async function inUse(claim: KubeObject): Promise<boolean> {
    const ns = claim.metadata!.namespace!;
    if (podLister.namespace(ns).list().some((p) => podUsesClaim(p, claim))) return true;
    // none in the cache, which may not have the newest pods yet: ask the apiserver before letting the claim go
    const live = await ctx.client.pods(ns).list({ signal: ctx.signal });
    const used = live.items.some((p) => podUsesClaim(p, claim));
    if (!used) ctx.logger.info({ claim: `${ns}/${claim.metadata!.name}` }, 'removing the protection finalizer of a claim no pod uses');
    return used;
  }

  await loop.run();
}

export async function startPvProtectionController(ctx: ControllerContext): Promise<void> {
  const volumes = ctx.informers.informerFor(Resources.persistentVolumes);
  const lister = volumes.lister();
  const client = ctx.client.persistentVolumes();
  const loop = workerLoop(ctx, 'persistentvolume-protection-controller', async (name) => {
    const pv = lister.get(name);
    // a volume is in use while a claim is bound to it (the binder keeps the phase)
    if (pv) await protect(loop, name, pv, PV_PROTECTION_FINALIZER, async () => pv.status?.phase === 'Bound', (o) => client.update(o, { signal: ctx.signal }));
  });
  volumes.addEventHandler({ onAdd: (v) => loop.enqueue(v), onUpdate: (_o, v) => loop.enqueue(v) });
  await loop.run();
}
