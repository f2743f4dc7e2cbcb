// The PersistentVolume binder (upstream pkg/controller/volume/persistentvolume, pv_controller.go): claims are bound
// to matching volumes (claimRef on the volume, spec.volumeName plus pv.kubernetes.io/bind-completed on the claim,
// both phases Bound); a claim of a class with a provisioner is handed to it (volume.kubernetes.io/storage-provisioner,
// event ExternalProvisioning); a claim without a class gets the default StorageClass (retroactive assignment);
// WaitForFirstConsumer claims wait for the scheduler (selected-node or a pre-bound volume). Volumes are Available
// when unclaimed and Released once their claim is gone; then their reclaim policy applies, as an operation apart
// from the sync (upstream's goroutinemap): Delete by the volume's plugin (host-path under /tmp, see
// volume-plugins.ts) or by an external deleter (a provisioner outside kubernetes.io/, ours included), Recycle by a
// scrubbing pod. Every claim and volume is synced again each --pvclaimbinder-sync-period (pv_controller_base.go).
import { Resources, isNotFound, realClock, type KubeObject } from '../../client/index.js';
import { cloneJson } from '../../apimachinery/json-clone.js';
import { isPodTerminal } from '../../../api/core/v1/pod-conditions.js';
import { objOf, workerLoop } from '../shared/controller-utils.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import {
  ANN_BETA_STORAGE_PROVISIONER, ANN_BIND_COMPLETED, ANN_BOUND_BY_CONTROLLER, ANN_PROVISIONED_BY, ANN_SELECTED_NODE,
  ANN_STORAGE_PROVISIONER, NO_PROVISIONER, claimClass, defaultClass, findBestMatch, isPreBoundTo, mismatch,
} from './matching.js';
import { recycleVolumeByWatchingPodUntilCompletion } from './recycler-client.js';
import { ANN_MIGRATED_TO, findDeleter, recyclerPod } from './volume-plugins.js';

interface ClaimRef { kind?: string; apiVersion?: string; namespace?: string; name?: string; uid?: string; resourceVersion?: string }

const claimRefOf = (pv: KubeObject): ClaimRef | undefined => pv.spec?.claimRef as ClaimRef | undefined;
const annotations = (o: KubeObject): Record<string, string> => o.metadata?.annotations ?? {};
const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

interface PodVolume { name: string; persistentVolumeClaim?: { claimName?: string }; ephemeral?: unknown }
/** The claims a pod's volumes name, generic ephemeral ones (POD-VOLUME) included (upstream's pod-by-PVC index). */
const claimsOf = (pod: KubeObject): string[] => ((pod.spec?.volumes ?? []) as PodVolume[])
  .flatMap((v) => (v.persistentVolumeClaim?.claimName ? [v.persistentVolumeClaim.claimName] : v.ephemeral ? [`${pod.metadata!.name}-${v.name}`] : []));

/** util.IsPodTerminated: ended, or being deleted with no container running. */
const isPodTerminated = (pod: KubeObject): boolean => isPodTerminal(pod) || (!!pod.metadata?.deletionTimestamp
  && ((pod.status?.containerStatuses ?? []) as { state?: { running?: unknown } }[]).every((c) => !c.state?.running));

// goroutinemap's exponential backoff of a failed operation: 500 ms, doubling, at most 2m2s
const INITIAL_RETRY_MS = 500;
const MAX_RETRY_MS = 122_000;

export async function startPersistentVolumeBinder(ctx: ClusterControllerContext): Promise<void> {
  const clock = ctx.clock ?? realClock;
  const pvInformer = ctx.informers.informerFor(Resources.persistentVolumes);
  const pvcInformer = ctx.informers.informerFor(Resources.persistentVolumeClaims);
  const classInformer = ctx.informers.informerFor(Resources.storageClasses);
  const pvs = pvInformer.lister();
  const pvcs = pvcInformer.lister();
  const classes = classInformer.lister();
  const pods = ctx.informers.pods().lister();
  const claimLoop = workerLoop(ctx, 'persistentvolume-binder-controller/claims', syncClaim);
  const volumeLoop = workerLoop(ctx, 'persistentvolume-binder-controller/volumes', syncVolume);

  // The claim version a claim's own provisioning step wrote: upstream runs that step apart from the sync and the
  // sync its write causes finds it still in flight, so neither runs it again nor repeats ExternalProvisioning.
  const provisionWrites = new Map<string, string>();

  const onClaim = (claim: KubeObject): void => {
    claimLoop.enqueue(claim);
    if (claim.spec?.volumeName) volumeLoop.queue.add(claim.spec.volumeName);
  };
  const onVolume = (pv: KubeObject): void => {
    volumeLoop.enqueue(pv);
    const ref = claimRefOf(pv);
    if (ref?.namespace && ref.name) claimLoop.queue.add(`${ref.namespace}/${ref.name}`);
    // a volume that may serve a waiting claim: look at the unbound ones again
    if (!ref) for (const c of pvcs.list()) if (!c.spec?.volumeName) claimLoop.enqueue(c);
  };
  pvcInformer.addEventHandler({
    onAdd: onClaim, onUpdate: (_o, c) => onClaim(c),
    onDelete: (o) => { const c = objOf(o); provisionWrites.delete(`${c.metadata!.namespace}/${c.metadata!.name}`); onClaim(c); },
  });
  pvInformer.addEventHandler({ onAdd: onVolume, onUpdate: (_o, v) => onVolume(v), onDelete: (o) => onVolume(objOf(o)) });
  classInformer.addEventHandler({ onAdd: () => { for (const c of pvcs.list()) if (!c.spec?.volumeName) claimLoop.enqueue(c); } });

  const volumes = ctx.client.persistentVolumes();
  const claims = (ns: string | undefined) => ctx.client.persistentVolumeClaims(ns);

  /** updateVolumePhase: a phase already set is left as it is (message included). */
  async function setVolumePhase(pv: KubeObject, phase: string, message?: string): Promise<KubeObject> {
    if (pv.status?.phase === phase) return pv;
    const next = cloneJson(pv);
    // the apiserver stamps lastPhaseTransitionTime when the phase changes (as upstream's controller, which sets none)
    next.status = { ...next.status, phase };
    if (message) next.status.message = message;
    else delete next.status.message;
    return volumes.updateStatus(next, { signal: ctx.signal });
  }

  /** updateVolumePhaseWithEvent: the event only with a change of phase, not at every sync. */
  async function setVolumePhaseWithEvent(pv: KubeObject, phase: string, type: 'Normal' | 'Warning', reason: string, message: string): Promise<KubeObject> {
    if (pv.status?.phase === phase) return pv;
    const updated = await setVolumePhase(pv, phase, message);
    ctx.recorder.event(updated, type, reason, message);
    return updated;
  }

  /** updateClaimStatus(Pending) without a volume: no access modes or capacity either; nothing written when so. */
  async function setClaimPending(claim: KubeObject): Promise<void> {
    const status = claim.status ?? {};
    if (status.phase === 'Pending' && status.accessModes === undefined && status.capacity === undefined) return;
    const { accessModes: _a, capacity: _c, ...rest } = status;
    await claims(claim.metadata!.namespace).updateStatus({ ...cloneJson(claim), status: { ...rest, phase: 'Pending' } }, { signal: ctx.signal });
  }

  async function setClaimLost(claim: KubeObject, reason: string, message: string): Promise<void> {
    if (claim.status?.phase === 'Lost') return;
    ctx.recorder.event(claim, 'Warning', reason, message);
    await claims(claim.metadata!.namespace).updateStatus({ ...cloneJson(claim), status: { ...claim.status, phase: 'Lost' } }, { signal: ctx.signal });
  }

  /** Both halves of a binding, each written only when it differs (upstream's bind()). */
  async function bind(pv: KubeObject, claim: KubeObject): Promise<void> {
    const ref = claimRefOf(pv);
    if (ref?.uid !== claim.metadata!.uid || ref?.name !== claim.metadata!.name || ref?.namespace !== claim.metadata!.namespace) {
      const next = cloneJson(pv);
      next.spec!.claimRef = { kind: 'PersistentVolumeClaim', namespace: claim.metadata!.namespace, name: claim.metadata!.name, uid: claim.metadata!.uid, apiVersion: 'v1', resourceVersion: claim.metadata!.resourceVersion };
      if (!ref) next.metadata!.annotations = { ...annotations(pv), [ANN_BOUND_BY_CONTROLLER]: 'yes' };
      pv = await volumes.update(next, { signal: ctx.signal });
    }
    pv = await setVolumePhase(pv, 'Bound');
    const name = pv.metadata!.name!;
    if (claim.spec?.volumeName !== name || annotations(claim)[ANN_BIND_COMPLETED] !== 'yes') {
      const next = cloneJson(claim);
      const extra: Record<string, string> = claim.spec?.volumeName !== name ? { [ANN_BOUND_BY_CONTROLLER]: 'yes' } : {};
      next.spec!.volumeName = name;
      next.metadata!.annotations = { ...annotations(claim), ...extra, [ANN_BIND_COMPLETED]: 'yes' };
      claim = await claims(claim.metadata!.namespace).update(next, { signal: ctx.signal });
    }
    const status = claim.status ?? {};
    if (status.phase !== 'Bound' || JSON.stringify(status.capacity) !== JSON.stringify(pv.spec?.capacity) || JSON.stringify(status.accessModes) !== JSON.stringify(pv.spec?.accessModes)) {
      await claims(claim.metadata!.namespace).updateStatus({ ...claim, status: { ...status, phase: 'Bound', accessModes: pv.spec?.accessModes, capacity: pv.spec?.capacity } }, { signal: ctx.signal });
    }
  }

  async function syncClaim(key: string): Promise<void> {
    const claim = pvcs.get(key);
    if (!claim || claim.metadata?.deletionTimestamp) return;
    if (annotations(claim)[ANN_BIND_COMPLETED]) await syncBoundClaim(claim);
    else await syncUnboundClaim(claim);
  }

  async function syncBoundClaim(claim: KubeObject): Promise<void> {
    const name = claim.spec?.volumeName as string | undefined;
    if (!name) return setClaimLost(claim, 'ClaimLost', 'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!');
    const pv = pvs.get(name);
    if (!pv) return setClaimLost(claim, 'ClaimLost', 'Bound claim has lost its PersistentVolume. Data on the volume is lost!');
    const ref = claimRefOf(pv);
    if (!ref || ref.uid === claim.metadata!.uid) return bind(pv, claim);
    return setClaimLost(claim, 'ClaimMisbound', 'Two claims are bound to the same volume, this one is bound incorrectly');
  }

  async function syncUnboundClaim(claim: KubeObject): Promise<void> {
    const requested = claim.spec?.volumeName as string | undefined;
    if (requested) { // the user asked for this volume
      const pv = pvs.get(requested);
      if (!pv) return setClaimPending(claim);
      const ref = claimRefOf(pv);
      if (ref && !isPreBoundTo(pv, claim)) return setClaimPending(claim); // bound to another claim
      const why = ref ? undefined : mismatch(pv, claim);
      if (why) {
        ctx.recorder.event(claim, 'Warning', 'VolumeMismatch', `Cannot bind to requested volume "${requested}": ${why}`);
        return setClaimPending(claim);
      }
      return bind(pv, claim);
    }
    const className = claimClass(claim);
    const sc = className ? classes.get(className) : undefined;
    const delayBinding = sc?.volumeBindingMode === 'WaitForFirstConsumer';
    const pv = findBestMatch(claim, pvs.list(), delayBinding);
    if (pv) return bind(pv, claim);
    if (claim.spec?.storageClassName === undefined && !annotations(claim)['volume.beta.kubernetes.io/storage-class']) {
      const def = defaultClass(classes.list());
      if (def) { // retroactive default StorageClass assignment
        await claims(claim.metadata!.namespace).update({ ...cloneJson(claim), spec: { ...claim.spec, storageClassName: def.metadata!.name } }, { signal: ctx.signal });
        return;
      }
    }
    if (delayBinding && !annotations(claim)[ANN_SELECTED_NODE]) {
      waitingForConsumer(claim);
    } else if (className) {
      // the claim goes to its provisioner, its status untouched; the sync its annotation write caused does nothing
      const key = `${claim.metadata!.namespace}/${claim.metadata!.name}`;
      const written = provisionWrites.get(key);
      provisionWrites.delete(key);
      if (written !== undefined && written === claim.metadata?.resourceVersion) return;
      await provisionClaim(claim, className, sc);
      return;
    } else {
      ctx.recorder.event(claim, 'Normal', 'FailedBinding', 'no persistent volumes available for this claim and no storage class is set');
    }
    await setClaimPending(claim);
  }

  /** emitEventForUnboundDelayBindingClaim: whom the claim waits for, the pods not yet scheduled that use it if any. */
  function waitingForConsumer(claim: KubeObject): void {
    const name = claim.metadata!.name!;
    const waiting = pods.namespace(claim.metadata!.namespace!).list()
      .filter((p) => !isPodTerminated(p) && !p.spec?.nodeName && claimsOf(p).includes(name)).map((p) => p.metadata!.name!);
    if (waiting.length === 0) ctx.recorder.event(claim, 'Normal', 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding');
    else ctx.recorder.event(claim, 'Normal', 'WaitForPodScheduled', waiting.length > 1 ? `waiting for pods ${waiting.join(',')} to be scheduled` : `waiting for pod ${waiting[0]} to be scheduled`);
  }

  /**
   * provisionClaim for an external provisioner (provisionClaimOperationExternal): the claim is annotated with it,
   * then the event. kubernetes.io/no-provisioner names no plugin: upstream finds none for it.
   */
  async function provisionClaim(claim: KubeObject, className: string, sc: KubeObject | undefined): Promise<void> {
    if (!sc) {
      ctx.recorder.event(claim, 'Warning', 'ProvisioningFailed', `storageclass.storage.k8s.io "${className}" not found`);
      return;
    }
    const provisioner = sc.provisioner as string;
    if (provisioner === NO_PROVISIONER) {
      ctx.recorder.event(claim, 'Warning', 'ProvisioningFailed', `no volume plugin matched name: ${provisioner}`);
      return;
    }
    let current = claim;
    const ann = annotations(claim);
    if (ann[ANN_STORAGE_PROVISIONER] !== provisioner) {
      const next = cloneJson(claim);
      next.metadata!.annotations = { ...ann, [ANN_BETA_STORAGE_PROVISIONER]: provisioner, [ANN_STORAGE_PROVISIONER]: provisioner };
      try {
        current = await claims(claim.metadata!.namespace).update(next, { signal: ctx.signal });
      } catch (e) {
        if (!ctx.signal.aborted) ctx.recorder.event(claim, 'Warning', 'ProvisioningFailed', `Error saving claim: ${messageOf(e)}`);
        throw e;
      }
      provisionWrites.set(`${claim.metadata!.namespace}/${claim.metadata!.name}`, current.metadata!.resourceVersion!);
    }
    ctx.recorder.event(current, 'Normal', 'ExternalProvisioning', `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`);
  }

  async function claimOf(ref: ClaimRef): Promise<KubeObject | undefined> {
    const cached = pvcs.get(`${ref.namespace}/${ref.name}`);
    if (cached) return cached.metadata?.uid === ref.uid ? cached : undefined;
    try { // the informer may lag a claim created a moment ago
      const live = await claims(ref.namespace).get(ref.name!, { signal: ctx.signal });
      return live.metadata?.uid === ref.uid ? live : undefined;
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }

  async function syncVolume(name: string): Promise<void> {
    const pv = pvs.get(name);
    // a volume being deleted is still Released when its claim goes (pv-protection lets it go then)
    if (!pv) return;
    const ref = claimRefOf(pv);
    if (!ref || !ref.uid) { await setVolumePhase(pv, 'Available'); return; }
    const claim = await claimOf(ref);
    if (!claim) return release(pv);
    if (!claim.spec?.volumeName) { claimLoop.enqueue(claim); return; }
    if (claim.spec.volumeName === name) { await setVolumePhase(pv, 'Bound'); return; }
    // the claim went to another volume: one provisioned for it is not needed, any other is free again
    if (annotations(pv)[ANN_PROVISIONED_BY] && pv.spec?.persistentVolumeReclaimPolicy === 'Delete') return release(pv);
    await unbindVolume(pv);
  }

  /** Released (a Failed volume stays Failed, for its user to see), then the reclaim policy, again at every sync. */
  async function release(pv: KubeObject): Promise<void> {
    const phase = pv.status?.phase;
    const released = phase === 'Released' || phase === 'Failed' ? pv : await setVolumePhase(pv, 'Released');
    await reclaim(released);
  }

  /** unbindVolume: a volume the controller bound loses its claimRef, one pre-bound by its user only the claim's uid. */
  async function unbindVolume(pv: KubeObject): Promise<void> {
    const next = cloneJson(pv);
    if (annotations(pv)[ANN_BOUND_BY_CONTROLLER]) {
      delete next.spec!.claimRef;
      delete next.metadata!.annotations![ANN_BOUND_BY_CONTROLLER];
    } else {
      next.spec!.claimRef = { ...claimRefOf(pv), uid: undefined };
    }
    await setVolumePhase(await volumes.update(next, { signal: ctx.signal }), 'Available');
  }

  /** reclaimVolume: Retain keeps the volume Released; Delete and Recycle run as operations of their own. */
  async function reclaim(pv: KubeObject): Promise<void> {
    // a volume migrated to CSI is its external provisioner's
    if (annotations(pv)[ANN_MIGRATED_TO]) return;
    const id = `${pv.metadata!.name}[${pv.metadata!.uid}]`;
    switch ((pv.spec?.persistentVolumeReclaimPolicy as string | undefined) ?? 'Retain') {
      case 'Retain':
        return;
      case 'Recycle':
        // upstream's recycle operation reports its failures on the volume and never backs off
        runOperation(`recycle-${id}`, () => recycleVolume(pv).catch((e: unknown) => { ctx.logger.info({ err: e, volume: pv.metadata!.name }, 'recycling failed'); }));
        return;
      case 'Delete':
        runOperation(`delete-${id}`, () => deleteVolume(pv));
        return;
      default:
        await setVolumePhaseWithEvent(pv, 'Failed', 'Warning', 'VolumeUnknownReclaimPolicy', 'Volume has unrecognized PersistentVolumeReclaimPolicy');
    }
  }

  const operations = new Map<string, { pending: boolean; retryMs: number; failedAt: number }>();
  /** scheduleOperation: one run of a name at a time, none while a failed one backs off. */
  function runOperation(name: string, op: () => Promise<void>): void {
    const known = operations.get(name);
    if (known && (known.pending || clock.now() - known.failedAt <= known.retryMs)) return;
    operations.set(name, { pending: true, retryMs: known?.retryMs ?? 0, failedAt: known?.failedAt ?? 0 });
    op().then(() => operations.delete(name), (err: unknown) => {
      const retryMs = known?.retryMs ? Math.min(2 * known.retryMs, MAX_RETRY_MS) : INITIAL_RETRY_MS;
      operations.set(name, { pending: false, retryMs, failedAt: clock.now() });
      if (!ctx.signal.aborted) ctx.logger.info({ err, operation: name }, 'volume operation failed');
    });
  }

  /** isVolumeReleased: bound to a claim (uid set) that is gone, or that is bound to another volume. */
  function isVolumeReleased(pv: KubeObject): boolean {
    const ref = claimRefOf(pv);
    if (!ref?.uid) return false;
    const claim = pvcs.get(`${ref.namespace}/${ref.name}`);
    if (claim && claim.metadata?.uid === ref.uid) return !!claim.spec?.volumeName && claim.spec.volumeName !== pv.metadata!.name;
    return true;
  }

  async function readVolume(name: string): Promise<KubeObject | undefined> {
    try {
      return await volumes.get(name, { signal: ctx.signal });
    } catch (e) {
      ctx.logger.debug({ err: e, volume: name }, 'cannot read the volume to reclaim');
      return undefined;
    }
  }

  /** deleteVolumeOperation: the plugin's deleter, then the object; a failure makes the volume Failed and is retried. */
  async function deleteVolume(pv: KubeObject): Promise<void> {
    const name = pv.metadata!.name!;
    const live = await readVolume(name);
    if (!live || !isVolumeReleased(live)) return;
    try {
      const deleter = findDeleter(pv);
      // an external deleter's: nothing to do here
      if (!deleter) return;
      await deleter();
    } catch (e) {
      if (!ctx.signal.aborted) await setVolumePhaseWithEvent(pv, 'Failed', 'Warning', 'VolumeFailedDelete', messageOf(e));
      throw e;
    }
    ctx.logger.info({ volume: name }, 'deleted the volume\'s storage');
    try {
      await volumes.delete(name, { signal: ctx.signal });
    } catch (e) {
      // the next sync deletes it again
      ctx.logger.debug({ err: e, volume: name }, 'cannot delete the volume object');
    }
  }

  /** recycleVolumeOperation: a recycler pod scrubs the volume, which is then Available again. */
  async function recycleVolume(pv: KubeObject): Promise<void> {
    const live = await readVolume(pv.metadata!.name!);
    if (!live || !isVolumeReleased(live)) return;
    const ref = claimRefOf(live)!;
    const users = pods.namespace(ref.namespace!).list()
      .filter((p) => !isPodTerminated(p) && claimsOf(p).includes(ref.name!)).map((p) => `${p.metadata!.namespace}/${p.metadata!.name}`).sort();
    // a claim of that name in the cache is another one (this volume is released): its pods use another volume
    if (users.length > 0 && !pvcs.get(`${ref.namespace}/${ref.name}`)) {
      ctx.recorder.event(pv, 'Normal', 'VolumeFailedRecycle', `Volume is used by pods: ${users.join(',')}`);
      return;
    }
    const pod = recyclerPod(live);
    if (!pod) {
      await setVolumePhaseWithEvent(live, 'Failed', 'Warning', 'VolumeFailedRecycle', 'No recycler plugin found for the volume!');
      return;
    }
    try {
      await recycleVolumeByWatchingPodUntilCompletion(ctx.client, pod, (type, message) => {
        ctx.recorder.event(live, type === 'Warning' ? 'Warning' : 'Normal', 'RecyclerPod', `Recycler pod: ${message}`);
      }, ctx.signal);
    } catch (e) {
      if (ctx.signal.aborted) return;
      await setVolumePhaseWithEvent(live, 'Failed', 'Warning', 'VolumeFailedRecycle', `Recycle failed: ${messageOf(e)}`);
      return;
    }
    ctx.recorder.event(live, 'Normal', 'VolumeRecycled', 'Volume recycled');
    await unbindVolume(live);
  }

  /** resync: every claim and volume again each period (upstream's own, apart from the shared informers'). */
  async function resync(): Promise<void> {
    ctx.informers.start(ctx.signal);
    if (!(await ctx.informers.waitForCacheSync(ctx.signal))) return;
    while (!ctx.signal.aborted) {
      try {
        await clock.sleep(ctx.config.pvClaimBinderSyncPeriodMs, ctx.signal);
      } catch {
        return;
      }
      for (const c of pvcs.list()) claimLoop.enqueue(c);
      for (const v of pvs.list()) volumeLoop.enqueue(v);
    }
  }

  await Promise.all([claimLoop.run(), volumeLoop.run(), resync()]);
}
