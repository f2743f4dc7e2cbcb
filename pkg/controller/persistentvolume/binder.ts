// The PersistentVolume binder (upstream pkg/controller/volume/persistentvolume, pv_controller.go): claims are bound
// to matching volumes (claimRef on the volume, spec.volumeName plus pv.kubernetes.io/bind-completed on the claim,
// both phases Bound); a claim of a class with a provisioner is handed to it (volume.kubernetes.io/storage-provisioner,
// event ExternalProvisioning); a claim without a class gets the default StorageClass (retroactive assignment);
// WaitForFirstConsumer claims wait for the scheduler (selected-node or a pre-bound volume). Volumes are Available
// when unclaimed and Released once their claim is gone; then their reclaim policy applies (Delete of dynamically
// provisioned volumes is the provisioner's job).
import { Resources, isNotFound, type KubeObject } from '../../client/index.js';
import { objOf, workerLoop } from '../shared/controller-utils.js';
import type { ControllerContext } from '../shared/types.js';
import {
  ANN_BETA_STORAGE_PROVISIONER, ANN_BIND_COMPLETED, ANN_BOUND_BY_CONTROLLER, ANN_PROVISIONED_BY, ANN_SELECTED_NODE,
  ANN_STORAGE_PROVISIONER, NO_PROVISIONER, claimClass, defaultClass, findBestMatch, isPreBoundTo, mismatch,
} from './matching.js';
import { cloneJson } from '../../apimachinery/json-clone.js';

interface ClaimRef { kind?: string; apiVersion?: string; namespace?: string; name?: string; uid?: string; resourceVersion?: string }

const claimRefOf = (pv: KubeObject): ClaimRef | undefined => pv.spec?.claimRef as ClaimRef | undefined;
const annotations = (o: KubeObject): Record<string, string> => o.metadata?.annotations ?? {};

export async function startPersistentVolumeBinder(ctx: ControllerContext): Promise<void> {
  const pvInformer = ctx.informers.informerFor(Resources.persistentVolumes);
  const pvcInformer = ctx.informers.informerFor(Resources.persistentVolumeClaims);
  const classInformer = ctx.informers.informerFor(Resources.storageClasses);
  const pvs = pvInformer.lister();
  const pvcs = pvcInformer.lister();
  const classes = classInformer.lister();
  const claimLoop = workerLoop(ctx, 'persistentvolume-binder-controller/claims', syncClaim);
  const volumeLoop = workerLoop(ctx, 'persistentvolume-binder-controller/volumes', syncVolume);

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
  pvcInformer.addEventHandler({ onAdd: onClaim, onUpdate: (_o, c) => onClaim(c), onDelete: (o) => onClaim(objOf(o)) });
  pvInformer.addEventHandler({ onAdd: onVolume, onUpdate: (_o, v) => onVolume(v), onDelete: (o) => onVolume(objOf(o)) });
  classInformer.addEventHandler({ onAdd: () => { for (const c of pvcs.list()) if (!c.spec?.volumeName) claimLoop.enqueue(c); } });

  const volumes = ctx.client.persistentVolumes();
  const claims = (ns: string | undefined) => ctx.client.persistentVolumeClaims(ns);

  async function setVolumePhase(pv: KubeObject, phase: string, message?: string): Promise<KubeObject> {
    if (pv.status?.phase === phase && (message === undefined || pv.status?.message === message)) return pv;
    const next = cloneJson(pv);
    // the apiserver stamps lastPhaseTransitionTime when the phase changes (as upstream's controller, which sets none)
    next.status = { ...next.status, phase };
    if (message) next.status.message = message;
    else delete next.status.message;
    return volumes.updateStatus(next, { signal: ctx.signal });
  }

  async function setClaimPending(claim: KubeObject): Promise<void> {
    if (claim.status?.phase === 'Pending') return;
    await claims(claim.metadata!.namespace).updateStatus({ ...cloneJson(claim), status: { ...claim.status, phase: 'Pending' } }, { signal: ctx.signal });
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
    let current = claim;
    if (delayBinding && !annotations(claim)[ANN_SELECTED_NODE]) {
      ctx.recorder.event(claim, 'Normal', 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding');
    } else if (className) {
      current = await provisionClaim(claim, className, sc);
    } else {
      ctx.recorder.event(claim, 'Normal', 'FailedBinding', 'no persistent volumes available for this claim and no storage class is set');
    }
    await setClaimPending(current);
  }

  /** Hands the claim to its class's provisioner (upstream's provisionClaim for external provisioners). */
  async function provisionClaim(claim: KubeObject, className: string, sc: KubeObject | undefined): Promise<KubeObject> {
    if (!sc) {
      ctx.recorder.event(claim, 'Warning', 'ProvisioningFailed', `storageclass.storage.k8s.io "${className}" not found`);
      return claim;
    }
    const provisioner = sc.provisioner as string;
    if (provisioner === NO_PROVISIONER) {
      ctx.recorder.event(claim, 'Normal', 'FailedBinding', 'no persistent volumes available for this claim and no storage class is set');
      return claim;
    }
    ctx.recorder.event(claim, 'Normal', 'ExternalProvisioning', `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`);
    const ann = annotations(claim);
    if (ann[ANN_STORAGE_PROVISIONER] === provisioner && ann[ANN_BETA_STORAGE_PROVISIONER] === provisioner) return claim;
    const next = cloneJson(claim);
    next.metadata!.annotations = { ...ann, [ANN_STORAGE_PROVISIONER]: provisioner, [ANN_BETA_STORAGE_PROVISIONER]: provisioner };
    return claims(claim.metadata!.namespace).update(next, { signal: ctx.signal });
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
    if (!claim) {
      if (pv.status?.phase === 'Released' || pv.status?.phase === 'Failed') return;
      const released = await setVolumePhase(pv, 'Released');
      await reclaim(released);
      return;
    }
    if (!claim.spec?.volumeName) { claimLoop.enqueue(claim); return; }
    if (claim.spec.volumeName === name) { await setVolumePhase(pv, 'Bound'); return; }
    // the claim went to another volume: this one is free again
    const next = cloneJson(pv);
    if (annotations(pv)[ANN_BOUND_BY_CONTROLLER]) {
      delete next.spec!.claimRef;
      delete next.metadata!.annotations![ANN_BOUND_BY_CONTROLLER];
    } else {
      next.spec!.claimRef = { ...ref, uid: undefined };
    }
    await setVolumePhase(await volumes.update(next, { signal: ctx.signal }), 'Available');
  }

  /** Retain keeps the volume Released; Delete of a provisioned volume is left to its provisioner. */
  async function reclaim(pv: KubeObject): Promise<void> {
    const policy = (pv.spec?.persistentVolumeReclaimPolicy as string | undefined) ?? 'Retain';
    if (policy === 'Retain' || annotations(pv)[ANN_PROVISIONED_BY]) return;
    const message = policy === 'Delete'
      ? `error getting deleter volume plugin for volume "${pv.metadata!.name}": no deletable volume plugin matched`
      : `No recycler plugin found for the volume!`;
    ctx.recorder.event(pv, 'Warning', policy === 'Delete' ? 'VolumeFailedDelete' : 'VolumeFailedRecycle', message);
    await setVolumePhase(pv, 'Failed', message);
  }

  await Promise.all([claimLoop.run(), volumeLoop.run()]);
}
