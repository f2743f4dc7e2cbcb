// The StatefulSet controller (upstream pkg/controller/statefulset): pods `<set>-<ordinal>` with stable hostnames
// and PVCs `<claim>-<set>-<ordinal>` from volumeClaimTemplates; OrderedReady (one at a time, each Running, Ready and
// available (minReadySeconds) before the next, deleting from the highest ordinal) or Parallel; RollingUpdate from
// the highest ordinal down to the partition, or OnDelete; ControllerRevisions; status with currentRevision /
// updateRevision; rollingUpdate.maxUnavailable behind the alpha MaxUnavailableStatefulSet gate (off: one at a time,
// as upstream); persistentVolumeClaimRetentionPolicy through the claims' owners (whenDeleted: Delete, the set;
// whenScaled: Delete, the pod once scaled away), so the garbage collector removes them.
import type { KubeObject, OwnerReference } from '../../../api/types.js';
import { labelSelectorAsSelector } from '../../apimachinery/labels.js';
import { Resources, isAlreadyExists, isNotFound, realClock } from '../../client/index.js';
import { controllerRef, getControllerOf, keyOf, objOf, withoutEmpty, workerLoop } from '../shared/controller-utils.js';
import { isPodAvailable, podFromTemplate, type Pod } from '../shared/controller-utils-pods.js';
import { completeRollingUpdate, isHealthy, isTerminal, isTerminating, replicaCounts, runningAndReady, type ReplicaCounts } from './status.js';
import { claimObjects } from '../shared/controller-utils-refs.js';
import type { ControllerContext } from '../shared/types.js';
import { scaled } from '../deployment/util.js';
import { CONTROLLER_REVISION_HASH, HISTORY_HASH_LABEL, ensureRevision, revisionsOf, templateOf, truncateHistory, type Revision } from '../controllerhistory/history.js';
import { cloneJson } from '../../apimachinery/json-clone.js';

const POD_NAME = 'statefulset.kubernetes.io/pod-name';
const POD_INDEX = 'apps.kubernetes.io/pod-index';

const ordinalOf = (set: KubeObject, p: Pod): number | undefined => {
  const name = p.metadata!.name!;
  const prefix = `${set.metadata!.name}-`;
  if (!name.startsWith(prefix) || !/^\d+$/.test(name.slice(prefix.length))) return undefined;
  return Number(name.slice(prefix.length));
};

export async function startStatefulSetController(ctx: ControllerContext): Promise<void> {
  const clock = ctx.clock ?? realClock;
  const setInformer = ctx.informers.informerFor(Resources.statefulSets);
  const podInformer = ctx.informers.pods();
  const revInformer = ctx.informers.informerFor(Resources.controllerRevisions);
  const pvcInformer = ctx.informers.informerFor(Resources.persistentVolumeClaims);
  const sets = setInformer.lister();
  const pods = podInformer.lister();
  const revs = revInformer.lister();
  const pvcs = pvcInformer.lister();
  const loop = workerLoop(ctx, 'statefulset-controller', sync);

  const setOf = (p: KubeObject): KubeObject | undefined => {
    const ref = getControllerOf(p);
    if (ref?.kind !== 'StatefulSet') return undefined;
    const s = sets.get(`${p.metadata!.namespace}/${ref.name}`);
    return s?.metadata?.uid === ref.uid ? s : undefined;
  };
  const onPod = (p: KubeObject): void => {
    const s = setOf(p);
    if (s) { loop.enqueue(s); return; }
    if (getControllerOf(p)) return;
    for (const x of sets.namespace(p.metadata!.namespace!).list()) if (labelSelectorAsSelector(x.spec?.selector).matches(p.metadata?.labels)) loop.enqueue(x);
  };
  setInformer.addEventHandler({ onAdd: (s) => loop.enqueue(s), onUpdate: (_o, s) => loop.enqueue(s), onDelete: (o) => void objOf(o) });
  podInformer.addEventHandler({ onAdd: onPod, onUpdate: (_o, p) => onPod(p), onDelete: (o) => onPod(objOf(o)) });
  revInformer.addEventHandler({ onDelete: (o) => { const s = setOf(objOf(o)); if (s) loop.enqueue(s); } });

  async function sync(key: string): Promise<void> {
    const cached = sets.get(key);
    if (!cached) return;
    const set = cloneJson(cached);
    const ns = set.metadata!.namespace!;
    const name = set.metadata!.name!;
    const selector = labelSelectorAsSelector(set.spec?.selector);
    if (selector.empty) return;
    const canAdopt = async (): Promise<boolean> => {
      const fresh = await ctx.client.statefulSets(ns).get(name);
      return fresh.metadata?.uid === set.metadata?.uid && !fresh.metadata?.deletionTimestamp;
    };
    const owned = await claimObjects(pods.namespace(ns).list(), {
      owner: set, ownerApiVersion: 'apps/v1', ownerKind: 'StatefulSet', selector, client: ctx.client.pods(ns), canAdopt,
      filter: (p) => ordinalOf(set, p) !== undefined,
    });
    if (set.metadata?.deletionTimestamp) return;

    // revisions
    let history = revisionsOf(set, revs);
    const { revision: update, collisionCount } = await ensureRevision(ctx.client, set, { apiVersion: 'apps/v1', kind: 'StatefulSet', hashLabel: HISTORY_HASH_LABEL }, history);
    history = [...history.filter((r) => r.metadata!.name !== update.metadata!.name), update];
    const current: Revision = history.find((r) => r.metadata!.name === set.status?.currentRevision) ?? update;
    const updateName = update.metadata!.name!;
    const currentName = current.metadata!.name!;

    const start: number = set.spec?.ordinals?.start ?? 0;
    const replicas: number = set.spec?.replicas ?? 1;
    const parallel = set.spec?.podManagementPolicy === 'Parallel';
    const strategy = set.spec?.updateStrategy?.type ?? 'RollingUpdate';
    const partition: number = set.spec?.updateStrategy?.rollingUpdate?.partition ?? 0;
    const slots = new Map<number, Pod>();
    const condemned: Pod[] = [];
    for (const p of owned) {
      const o = ordinalOf(set, p)!;
      if (o >= start && o < start + replicas) slots.set(o, p); else condemned.push(p);
    }
    condemned.sort((a, b) => ordinalOf(set, b)! - ordinalOf(set, a)!);
    for (const p of slots.values()) await updateClaimOwners(set, p, false);
    for (const p of condemned) await updateClaimOwners(set, p, true);

    const revisionFor = (ordinal: number): Revision => {
      if (strategy === 'RollingUpdate' && ordinal < start + partition) return current;
      return update;
    };
    const minReady: number = set.spec?.minReadySeconds ?? 0;
    const nowMs = clock.now();
    const available = (p: Pod): boolean => isPodAvailable(p, minReady, nowMs);
    const monotonic = !parallel;
    const deletePod = async (p: Pod): Promise<void> => {
      await ctx.client.pods(ns).delete(p.metadata!.name!, { preconditions: { uid: p.metadata!.uid } }).catch((e: unknown) => { if (!isNotFound(e)) throw e; });
      ctx.recorder.event(set, 'Normal', 'SuccessfulDelete', `delete Pod ${p.metadata!.name} in StatefulSet ${name} successful`);
    };
    // pods deleted for the rolling update no longer count as current (upstream decrements the status)
    let deletedForUpdate = 0;
    let stepError: unknown;
    try {
      await (async (): Promise<void> => {
        // 1. each replica in ordinal order (upstream processReplica): a terminal pod is deleted, its replacement made on
        // a later sync; a missing one is created. OrderedReady goes no further than a pod that is terminating, or not
        // Running and Ready, or not yet available (ready for minReadySeconds).
        for (let o = start; o < start + replicas; o++) {
          const p = slots.get(o);
          if (p && isTerminal(p)) {
            if (!isTerminating(p)) await deletePod(p);
            if (monotonic) return;
            continue;
          }
          if (!p) {
            await createPod(set, o, revisionFor(o));
            if (monotonic) return;
            continue;
          }
          if (monotonic && (isTerminating(p) || !runningAndReady(p) || !available(p))) return;
        }
        // 2. scale down from the highest ordinal (upstream processCondemned). OrderedReady waits for a terminating pod to
        // go, and deletes a pod that is not Running, Ready and available only when it is the first unhealthy one.
        const replicaUnhealthy = Array.from({ length: replicas }, (_, i) => slots.get(start + i)).some((p) => !p || !isHealthy(p));
        const firstUnhealthy = replicaUnhealthy ? undefined : [...condemned].reverse().find((p) => !isHealthy(p));
        for (const p of condemned) {
          if (isTerminating(p)) { if (monotonic) return; continue; }
          if (monotonic && p !== firstUnhealthy && (!runningAndReady(p) || !available(p))) return;
          await deletePod(p);
          if (monotonic) return;
        }
        // 3. rolling update from the highest ordinal down to the partition; a missing pod counts as unhealthy
        if (strategy !== 'RollingUpdate') return;
        const outdated = (p: Pod | undefined): p is Pod => !!p && p.metadata?.labels?.[CONTROLLER_REVISION_HASH] !== updateName && !isTerminating(p);
        if (ctx.featureGates?.MaxUnavailableStatefulSet !== true) {
          // one at a time: delete the highest outdated pod, or wait for the highest unhealthy one
          for (let o = start + replicas - 1; o >= start + partition; o--) {
            const p = slots.get(o);
            if (outdated(p)) { await deletePod(p); deletedForUpdate++; return; }
            if (!p || !isHealthy(p)) return;
          }
          return;
        }
        // maxUnavailable at a time: as many outdated pods as unhealthy ones leave room for
        const maxUnavailable = Math.max(1, scaled(set.spec?.updateStrategy?.rollingUpdate?.maxUnavailable, replicas, false, '1'));
        const unhealthy = Array.from({ length: replicas }, (_, i) => slots.get(start + i)).filter((p) => !p || !isHealthy(p)).length;
        for (let o = start + replicas - 1; o >= start + partition && deletedForUpdate < maxUnavailable - unhealthy; o--) {
          const p = slots.get(o);
          if (outdated(p)) { await deletePod(p); deletedForUpdate++; }
        }
      })();
    } catch (err) {
      stepError = err;
    }

    // status, written even when a step failed (upstream performUpdate): counts over every pod of the set as listed
    const counts = replicaCounts(owned, minReady, nowMs, currentName, updateName);
    const st: Record<string, any> = {
      observedGeneration: set.metadata?.generation,
      ...counts,
      currentReplicas: counts.currentReplicas - deletedForUpdate,
      currentRevision: currentName,
      updateRevision: updateName,
      collisionCount,
    };
    completeRollingUpdate(set, st as ReplicaCounts);
    // StatefulSetStatus: replicas and availableReplicas always written, these omitempty
    const written = withoutEmpty(st, ['observedGeneration', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'currentRevision', 'updateRevision']);
    if (JSON.stringify({ ...set.status, conditions: undefined }) !== JSON.stringify({ ...written, conditions: undefined })) {
      await ctx.client.statefulSets(ns).updateStatus({ ...set, status: { ...written, ...(set.status?.conditions ? { conditions: set.status.conditions } : {}) } });
    }
    const inUse = new Set([currentName, updateName, ...owned.map((p) => p.metadata?.labels?.[CONTROLLER_REVISION_HASH] as string)]);
    await truncateHistory(ctx.client, history, inUse, set.spec?.revisionHistoryLimit ?? 10);
    if (stepError) throw stepError;
    // looked at again once pods may have become available (upstream syncStatefulSet)
    if (minReady > 0 && st.availableReplicas !== replicas) loop.enqueueAfter(key, minReady * 1000);
  }

  /** The owners a claim of `pod` must have under the set's retention policy (upstream updateClaimOwnerRefForSetAndPod). */
  function wantedClaimOwners(set: KubeObject, pod: Pod | undefined, scaledDown: boolean): OwnerReference[] {
    const policy = set.spec?.persistentVolumeClaimRetentionPolicy ?? {};
    if (pod && scaledDown && policy.whenScaled === 'Delete') return [controllerRef(pod, 'v1', 'Pod')];
    return policy.whenDeleted === 'Delete' ? [controllerRef(set, 'apps/v1', 'StatefulSet')] : [];
  }

  /** Points the pod's claims at the owners the policy wants (the set's and the pod's refs replaced, others kept). */
  async function updateClaimOwners(set: KubeObject, pod: Pod, scaledDown: boolean): Promise<void> {
    const ns = set.metadata!.namespace!;
    const ours = new Set([set.metadata!.uid, pod.metadata!.uid]);
    const wanted = wantedClaimOwners(set, pod, scaledDown);
    for (const t of (set.spec?.volumeClaimTemplates ?? []) as KubeObject[]) {
      const claim = pvcs.get(`${ns}/${t.metadata!.name}-${pod.metadata!.name}`);
      if (!claim) continue;
      const refs = (claim.metadata?.ownerReferences ?? []) as OwnerReference[];
      // a claim another controller owns is left to it (upstream hasUnexpectedController)
      if (refs.some((r) => r.controller && !ours.has(r.uid))) continue;
      const next = [...refs.filter((r) => !ours.has(r.uid)), ...wanted];
      if (next.map((r) => r.uid).join() === refs.map((r) => r.uid).join()) continue;
      const updated = cloneJson(claim);
      updated.metadata!.ownerReferences = next.length ? next : undefined;
      await ctx.client.persistentVolumeClaims(ns).update(updated).catch((e: unknown) => { if (!isNotFound(e)) throw e; });
    }
  }

  async function createPod(set: KubeObject, ordinal: number, rev: Revision): Promise<void> {
    const ns = set.metadata!.namespace!;
    const setName = set.metadata!.name!;
    const podName = `${setName}-${ordinal}`;
    // PVCs first (upstream createPersistentVolumeClaims)
    const claims = (set.spec?.volumeClaimTemplates ?? []) as KubeObject[];
    for (const t of claims) {
      const claimName = `${t.metadata!.name}-${podName}`;
      if (pvcs.get(`${ns}/${claimName}`)) continue;
      const owners = wantedClaimOwners(set, undefined, false);
      try {
        await ctx.client.persistentVolumeClaims(ns).create({
          apiVersion: 'v1', kind: 'PersistentVolumeClaim',
          metadata: {
            name: claimName, namespace: ns,
            labels: { ...(t.metadata?.labels ?? {}), ...(set.spec?.selector?.matchLabels ?? {}) },
            ...(t.metadata?.annotations ? { annotations: t.metadata.annotations } : {}),
            ...(owners.length ? { ownerReferences: owners } : {}),
          },
          spec: cloneJson(t.spec ?? {}),
        });
        ctx.recorder.event(set, 'Normal', 'SuccessfulCreate', `create Claim ${claimName} Pod ${podName} in StatefulSet ${setName} success`);
      } catch (err) {
        if (!isAlreadyExists(err)) {
          ctx.recorder.event(set, 'Warning', 'FailedCreate', `create Claim ${claimName} for Pod ${podName} in StatefulSet ${setName} failed error: ${(err as Error).message}`);
          throw err;
        }
      }
    }
    const pod = podFromTemplate(templateOf(rev), controllerRef(set, 'apps/v1', 'StatefulSet'), {
      name: podName, labels: { [CONTROLLER_REVISION_HASH]: rev.metadata!.name!, [POD_NAME]: podName, [POD_INDEX]: String(ordinal) },
    });
    pod.spec.hostname = podName;
    if (set.spec?.serviceName) pod.spec.subdomain = set.spec.serviceName;
    const volumes = ((pod.spec.volumes ?? []) as { name: string }[]).filter((v) => !claims.some((c) => c.metadata!.name === v.name));
    for (const c of claims) volumes.push({ name: c.metadata!.name!, persistentVolumeClaim: { claimName: `${c.metadata!.name}-${podName}` } } as { name: string });
    if (volumes.length) pod.spec.volumes = volumes;
    try {
      await ctx.client.pods(ns).create(pod);
      ctx.recorder.event(set, 'Normal', 'SuccessfulCreate', `create Pod ${podName} in StatefulSet ${setName} successful`);
    } catch (err) {
      // A pod of that name already there (ours, not yet in the cache, or a replaced set's on its way out, whose deletion
      // enqueues nobody) fails the sync, which is retried with backoff, as upstream's: without the event.
      if (!isAlreadyExists(err)) ctx.recorder.event(set, 'Warning', 'FailedCreate', `create Pod ${podName} in StatefulSet ${setName} failed error: ${(err as Error).message}`);
      throw err;
    }
  }

  await loop.run();
}

export const statefulSetKey = keyOf;
