// One sync of one Deployment (upstream sync.go, rolling.go, recreate.go, progress.go): the new ReplicaSet and its
// revision, the rollout step of the strategy, proportional scaling, history cleanup and the status.
import type { KubeObject } from '../../../api/types.js';
import { isAlreadyExists, isNotFound, type Clock, type Lister } from '../../client/index.js';
import { computeHash, controllerRef, deepEqual, formatTimeOf, getCondition, removeCondition, withoutEmpty, type Condition } from '../shared/controller-utils.js';
import type { ControllerContext } from '../shared/types.js';
import {
  DESIRED_REPLICAS, MAX_INT32, MAX_REPLICAS, POD_TEMPLATE_HASH, REVISION, REVISION_HISTORY, activeReplicaSets, appendRevisionHistory, byCreation, copyAnnotations,
  equalIgnoreHash, findNewReplicaSet, hasProgressDeadline, isRolling, maxRevision, maxSurge, maxUnavailable,
  newCondition, replicasOf, revisionOf, setCondition, setReplicasAnnotations, sumSpec, sumStatus, type RS,
} from './util.js';
import { cloneJson } from '../../apimachinery/json-clone.js';

export class Rollout {
  private newRS: RS | undefined;
  private oldRSs: RS[] = [];
  private readonly ns: string;

  constructor(
    private readonly ctx: ControllerContext, private readonly clock: Clock, private readonly d: KubeObject,
    private rsList: RS[], private readonly pods: Lister, private readonly requeueAfter: (ms: number) => void,
  ) {
    this.ns = d.metadata!.namespace!;
  }

  private get replicas(): number { return replicasOf(this.d); }
  private ts(): string { return formatTimeOf(this.clock); }
  private get all(): RS[] { return this.newRS ? [...this.oldRSs, this.newRS] : [...this.oldRSs]; }

  async run(): Promise<void> {
    const d = this.d;
    if (d.metadata?.deletionTimestamp) { this.split(); await this.syncStatusOnly(); return; }
    await this.checkPausedConditions();
    if (d.spec?.paused) { await this.syncScale(); return; }
    if (this.isScalingEvent()) { await this.syncScale(); return; }
    if (isRolling(d)) await this.rolloutRolling(); else await this.rolloutRecreate();
  }

  // ---- the new ReplicaSet and revisions ----

  private split(): void {
    this.newRS = findNewReplicaSet(this.d, this.rsList);
    this.oldRSs = this.rsList.filter((rs) => rs !== this.newRS);
  }

  private async getAllReplicaSetsAndSyncRevision(create: boolean): Promise<void> {
    this.split();
    const newRevision = String(maxRevision(this.oldRSs) + 1);
    const d = this.d;
    const rsClient = this.ctx.client.replicaSets(this.ns);
    if (this.newRS) {
      const rs = cloneJson(this.newRS);
      const annotations = (rs.metadata!.annotations ??= {});
      let changed = copyAnnotations(d, rs);
      const old = annotations[REVISION];
      if (!old || Number(old) < Number(newRevision)) {
        if (old) annotations[REVISION_HISTORY] = appendRevisionHistory(annotations[REVISION_HISTORY], old);
        annotations[REVISION] = newRevision;
        changed = true;
      }
      // the replica annotations of an existing new set are scale()'s to update (upstream's SetNewReplicaSetAnnotations
      // sets them on a set it creates only): written here, the set's share of a scale-up would read as none
      if ((rs.spec?.minReadySeconds ?? 0) !== (d.spec?.minReadySeconds ?? 0)) {
        if (d.spec?.minReadySeconds) rs.spec.minReadySeconds = d.spec.minReadySeconds;
        else delete rs.spec.minReadySeconds;
        changed = true;
      }
      if (changed) this.replace(await rsClient.update(rs));
      await this.setDeploymentRevision(this.newRS!.metadata!.annotations![REVISION]!);
      const cond = getCondition(d.status?.conditions, 'Progressing');
      if (hasProgressDeadline(d) && !cond) {
        const msg = `Found new replica set "${this.newRS!.metadata!.name}"`;
        await this.writeStatus({ ...this.calculateStatus(), conditions: setCondition(this.calculateStatus().conditions, newCondition('Progressing', 'True', 'FoundNewReplicaSet', msg, this.ts())) });
      }
      return;
    }
    if (!create) return;
    const collisionCount = d.status?.collisionCount as number | undefined;
    const hash = computeHash(d.spec?.template, collisionCount);
    const template = cloneJson(d.spec?.template ?? {});
    template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH]: hash } };
    const selector = cloneJson(d.spec.selector);
    selector.matchLabels = { ...(selector.matchLabels ?? {}), [POD_TEMPLATE_HASH]: hash };
    const name = `${d.metadata!.name}-${hash}`;
    const rs: RS = {
      apiVersion: 'apps/v1', kind: 'ReplicaSet',
      metadata: {
        name, namespace: this.ns, labels: { ...(template.metadata.labels as Record<string, string>) },
        annotations: {}, ownerReferences: [controllerRef(d, 'apps/v1', 'Deployment')],
      },
      // an int32 without a pointer in upstream's types: 0 is never written (Go's JSON omits it)
      spec: { replicas: 0, ...(d.spec?.minReadySeconds ? { minReadySeconds: d.spec.minReadySeconds } : {}), selector, template },
    };
    copyAnnotations(d, rs);
    rs.metadata!.annotations![REVISION] = newRevision;
    const newReplicas = this.newRSNewReplicas(rs);
    rs.spec.replicas = newReplicas;
    setReplicasAnnotations(rs, this.replicas, this.replicas + maxSurge(d));
    let created: RS;
    try {
      created = await rsClient.create(rs);
    } catch (err) {
      if (!isAlreadyExists(err)) {
        const msg = `Failed to create new replica set "${name}": ${(err as Error).message}`;
        if (hasProgressDeadline(d)) {
          await this.writeStatus({ ...this.calculateStatus(), conditions: setCondition(d.status?.conditions, newCondition('Progressing', 'False', 'ReplicaSetCreateError', msg, this.ts())) });
        }
        this.ctx.recorder.event(d, 'Warning', 'ReplicaSetCreateError', msg);
        throw err;
      }
      const existing = await rsClient.get(name);
      if (getControllerOf(existing)?.uid === d.metadata?.uid && equalIgnoreHash(existing.spec?.template, d.spec?.template)) {
        this.newRS = existing;
        this.rsList = [...this.rsList.filter((x) => x.metadata?.uid !== existing.metadata?.uid), existing];
        return;
      }
      // A hash collision: bump collisionCount so the next sync hashes differently.
      await this.writeStatus({ ...(d.status ?? {}), collisionCount: (collisionCount ?? 0) + 1 });
      throw new Error(`hash collision for ReplicaSet ${name}`);
    }
    if (newReplicas > 0) this.ctx.recorder.event(d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${name} from 0 to ${newReplicas}`);
    this.newRS = created;
    this.rsList = [...this.rsList, created];
    await this.setDeploymentRevision(newRevision);
    if (hasProgressDeadline(d)) {
      const msg = `Created new replica set "${name}"`;
      const conds = setCondition(this.calculateStatus().conditions, newCondition('Progressing', 'True', 'NewReplicaSetCreated', msg, this.ts()));
      await this.writeStatus({ ...this.calculateStatus(), conditions: conds });
    }
  }

  private replace(rs: RS): void {
    if (this.newRS?.metadata?.uid === rs.metadata?.uid) this.newRS = rs;
    this.oldRSs = this.oldRSs.map((x) => (x.metadata?.uid === rs.metadata?.uid ? rs : x));
    this.rsList = this.rsList.map((x) => (x.metadata?.uid === rs.metadata?.uid ? rs : x));
  }

  private async setDeploymentRevision(rev: string): Promise<void> {
    if (this.d.metadata?.annotations?.[REVISION] === rev) return;
    // A status update, as upstream's getNewReplicaSet: deployments/status keeps what it is sent of the annotations, and
    // unlike an update of the deployment it does not raise the generation (which annotations do)
    const next = { ...this.d, metadata: { ...this.d.metadata, annotations: { ...this.d.metadata?.annotations, [REVISION]: rev } } };
    const updated = await this.ctx.client.deployments(this.ns).updateStatus(next);
    this.d.metadata = { ...this.d.metadata, annotations: updated.metadata?.annotations, resourceVersion: updated.metadata?.resourceVersion };
  }

  /** Replicas of a new ReplicaSet for this step (upstream NewRSNewReplicas). */
  private newRSNewReplicas(newRS: RS): number {
    if (!isRolling(this.d)) return this.replicas;
    // every set's replicas, the new one's included (it may not be in the list yet, or be there as an older copy)
    const current = sumSpec(this.all.filter((x) => x.metadata?.uid !== newRS.metadata?.uid)) + replicasOf(newRS);
    const maxTotal = this.replicas + maxSurge(this.d);
    const cur = replicasOf(newRS);
    if (current >= maxTotal) return cur;
    return cur + Math.max(0, Math.min(maxTotal - current, this.replicas - cur));
  }

  // ---- scaling ----

  private async scaleReplicaSet(rs: RS, to: number): Promise<boolean> {
    const from = replicasOf(rs);
    const copy = cloneJson(rs);
    const annotationsChanged = setReplicasAnnotations(copy, this.replicas, this.replicas + maxSurge(this.d));
    if (from === to && !annotationsChanged) return false;
    copy.spec.replicas = to;
    this.replace(await this.ctx.client.replicaSets(this.ns).update(copy));
    if (from !== to) {
      this.ctx.recorder.event(this.d, 'Normal', 'ScalingReplicaSet', `Scaled ${to > from ? 'up' : 'down'} replica set ${rs.metadata!.name} from ${from} to ${to}`);
    }
    return from !== to;
  }

  private isScalingEvent(): boolean {
    this.split();
    for (const rs of activeReplicaSets(this.all)) {
      const desired = rs.metadata?.annotations?.['deployment.kubernetes.io/desired-replicas'];
      if (desired !== undefined && Number(desired) !== this.replicas) return true;
    }
    return false;
  }

  /** Upstream scale(): one active set gets everything; otherwise the surplus is spread proportionally. */
  private async scale(): Promise<void> {
    const active = activeReplicaSets(this.all);
    const target = this.newRS && active.length === 0 ? this.newRS : active.length === 1 ? active[0] : active.length === 0 ? [...this.oldRSs].sort(byCreation).at(-1) : undefined;
    if (target) {
      if (replicasOf(target) !== this.replicas) await this.scaleReplicaSet(target, this.replicas);
      return;
    }
    if (this.isSaturated(this.newRS)) {
      for (const rs of activeReplicaSets(this.oldRSs)) await this.scaleReplicaSet(rs, 0);
      return;
    }
    if (!isRolling(this.d)) return;
    // scaling to zero allows nothing, not even the surge
    const allowed = this.replicas > 0 ? this.replicas + maxSurge(this.d) : 0;
    const toAdd = allowed - sumSpec(active);
    // Larger sets first: the leftover of rounding goes to the first. On equal sizes a scale-up favours the newer set
    // and a scale-down the older one (upstream ReplicaSetsBySizeNewer / ReplicaSetsBySizeOlder).
    const sorted = toAdd > 0 ? [...active].sort((a, b) => replicasOf(b) - replicasOf(a) || byCreation(b, a))
      : toAdd < 0 ? [...active].sort((a, b) => replicasOf(b) - replicasOf(a) || byCreation(a, b)) : active;
    let added = 0;
    const sizes = new Map<RS, number>();
    for (const rs of sorted) {
      const p = toAdd === 0 ? 0 : this.proportion(rs, toAdd, added);
      sizes.set(rs, replicasOf(rs) + p);
      added += p;
    }
    const first = sorted[0];
    if (first && toAdd !== 0) sizes.set(first, Math.max(0, sizes.get(first)! + toAdd - added));
    // every active set is written, even at its size, so that its desired/max-replicas annotations follow the Deployment
    for (const rs of sorted) await this.scaleReplicaSet(rs, sizes.get(rs)!);
  }

  /** The new set runs every replica, available, and was sized for this replica count (upstream IsSaturated). */
  private isSaturated(rs: RS | undefined): boolean {
    const desired = rs?.metadata?.annotations?.[DESIRED_REPLICAS];
    return !!rs && desired !== undefined && /^[+-]?\d+$/.test(desired) && Number(desired) === this.replicas
      && replicasOf(rs) === this.replicas && (rs.status?.availableReplicas ?? 0) === this.replicas;
  }

  /** The share of `toAdd` (negative: to remove) for one set, bounded by what is left (upstream GetProportion). */
  private proportion(rs: RS, toAdd: number, added: number): number {
    if (replicasOf(rs) === 0 || toAdd === added) return 0;
    const allowed = toAdd - added;
    const fraction = this.fraction(rs);
    return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
  }

  /** How far one set moves to keep its share of the new maximum (upstream getReplicaSetFraction). */
  private fraction(rs: RS): number {
    const size = replicasOf(rs);
    if (this.replicas === 0) return -size;
    const raw = rs.metadata?.annotations?.[MAX_REPLICAS];
    // an annotation that is not an integer falls back to the Deployment's current size
    const before = raw !== undefined && /^[+-]?\d+$/.test(raw) ? Number(raw) : (this.d.status?.replicas ?? 0);
    if (!before) return 0;
    const target = (size * (this.replicas + maxSurge(this.d))) / before;
    // rounded half away from zero (upstream integer.RoundToInt32)
    return (target < 0 ? Math.ceil(target - 0.5) : Math.floor(target + 0.5)) - size;
  }

  private async syncScale(): Promise<void> {
    await this.getAllReplicaSetsAndSyncRevision(false);
    await this.scale();
    if (this.d.spec?.paused) await this.cleanup();
    await this.syncDeploymentStatus();
  }

  // ---- strategies ----

  private async rolloutRolling(): Promise<void> {
    await this.getAllReplicaSetsAndSyncRevision(true);
    if (await this.reconcileNewReplicaSet()) { await this.syncRolloutStatus(); return; }
    if (await this.reconcileOldReplicaSets()) { await this.syncRolloutStatus(); return; }
    if (this.complete(this.calculateStatus())) await this.cleanup();
    await this.syncRolloutStatus();
  }

  private async reconcileNewReplicaSet(): Promise<boolean> {
    const rs = this.newRS;
    if (!rs) return false;
    if (replicasOf(rs) === this.replicas) return false;
    if (replicasOf(rs) > this.replicas) return this.scaleReplicaSet(rs, this.replicas);
    return this.scaleReplicaSet(rs, this.newRSNewReplicas(rs));
  }

  private async reconcileOldReplicaSets(): Promise<boolean> {
    const oldCount = sumSpec(this.oldRSs);
    if (oldCount === 0) return false;
    const minAvailable = this.replicas - maxUnavailable(this.d);
    const newUnavailable = this.newRS ? replicasOf(this.newRS) - (this.newRS.status?.availableReplicas ?? 0) : 0;
    const maxScaledDown = sumSpec(this.all) - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) return false;
    // First the unhealthy replicas of old sets, oldest first (upstream cleanupUnhealthyReplicas).
    let cleaned = 0;
    for (const rs of [...this.oldRSs].sort(byCreation)) {
      if (cleaned >= maxScaledDown) break;
      const unhealthy = replicasOf(rs) - (rs.status?.availableReplicas ?? 0);
      if (replicasOf(rs) === 0 || unhealthy <= 0) continue;
      const n = Math.min(maxScaledDown - cleaned, unhealthy);
      await this.scaleReplicaSet(rs, replicasOf(rs) - n);
      cleaned += n;
    }
    // Then healthy ones, as far as availability allows (upstream scaleDownOldReplicaSetsForRollingUpdate).
    let scaled = 0;
    const available = sumStatus(this.all, 'availableReplicas');
    if (available > minAvailable) {
      const total = available - minAvailable;
      for (const rs of [...this.oldRSs].sort(byCreation)) {
        if (scaled >= total) break;
        if (replicasOf(rs) === 0) continue;
        const n = Math.min(replicasOf(rs), total - scaled);
        await this.scaleReplicaSet(rs, replicasOf(rs) - n);
        scaled += n;
      }
    }
    return cleaned + scaled > 0;
  }

  private async rolloutRecreate(): Promise<void> {
    await this.getAllReplicaSetsAndSyncRevision(false);
    let scaledDown = false;
    for (const rs of activeReplicaSets(this.oldRSs)) scaledDown = (await this.scaleReplicaSet(rs, 0)) || scaledDown;
    if (scaledDown) { await this.syncRolloutStatus(); return; }
    if (this.oldPodsRunning()) { await this.syncRolloutStatus(); return; }
    if (!this.newRS) await this.getAllReplicaSetsAndSyncRevision(true);
    if (this.newRS) await this.scaleReplicaSet(this.newRS, this.replicas);
    if (this.complete(this.calculateStatus())) await this.cleanup();
    await this.syncRolloutStatus();
  }

  private oldPodsRunning(): boolean {
    if (sumStatus(this.oldRSs, 'replicas') > 0) return true;
    const oldUids = new Set(this.oldRSs.map((rs) => rs.metadata!.uid));
    return this.pods.namespace(this.ns).list().some((p) => {
      const ref = getControllerOf(p);
      return !!ref && oldUids.has(ref.uid) && p.status?.phase !== 'Failed' && p.status?.phase !== 'Succeeded';
    });
  }

  /** Deletes old, fully scaled-down ReplicaSets beyond revisionHistoryLimit, oldest revision first. */
  private async cleanup(): Promise<void> {
    const limit = this.d.spec?.revisionHistoryLimit;
    if (limit == null) return;
    const cleanable = this.oldRSs.filter((rs) => !rs.metadata?.deletionTimestamp);
    const diff = cleanable.length - limit;
    if (diff <= 0) return;
    const sorted = [...cleanable].sort((a, b) => revisionOf(a) - revisionOf(b) || byCreation(a, b));
    for (const rs of sorted.slice(0, diff)) {
      if ((rs.status?.replicas ?? 0) !== 0 || replicasOf(rs) !== 0 || (rs.metadata?.generation ?? 0) > (rs.status?.observedGeneration ?? 0)) continue;
      try {
        await this.ctx.client.replicaSets(this.ns).delete(rs.metadata!.name!, { preconditions: { uid: rs.metadata!.uid } });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }

  // ---- status ----

  private calculateStatus(): Record<string, any> {
    const all = this.all;
    const available = sumStatus(all, 'availableReplicas');
    const status: Record<string, any> = {
      observedGeneration: this.d.metadata?.generation,
      replicas: sumStatus(all, 'replicas'),
      updatedReplicas: this.newRS ? (this.newRS.status?.replicas ?? 0) : 0,
      readyReplicas: sumStatus(all, 'readyReplicas'),
      availableReplicas: available,
      unavailableReplicas: Math.max(0, sumSpec(all) - available),
      ...(this.d.status?.collisionCount != null ? { collisionCount: this.d.status.collisionCount } : {}),
    };
    let conds = [...((this.d.status?.conditions ?? []) as Condition[])];
    const ts = this.ts();
    if (available >= this.replicas - maxUnavailable(this.d)) {
      conds = setCondition(conds, newCondition('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.', ts));
    } else {
      conds = setCondition(conds, newCondition('Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.', ts));
    }
    status.conditions = conds;
    return status;
  }

  private complete(s: Record<string, any>): boolean {
    return s.updatedReplicas === this.replicas && s.replicas === this.replicas && s.availableReplicas === this.replicas
      && (s.observedGeneration ?? 0) >= (this.d.metadata?.generation ?? 0);
  }

  private async syncDeploymentStatus(): Promise<void> {
    await this.writeStatus(this.calculateStatus());
  }

  private async syncStatusOnly(): Promise<void> { await this.syncDeploymentStatus(); }

  private async syncRolloutStatus(): Promise<void> {
    const d = this.d;
    const s = this.calculateStatus();
    let conds = s.conditions as Condition[];
    if (!hasProgressDeadline(d)) conds = removeCondition(conds, 'Progressing');
    const cur = getCondition(d.status?.conditions, 'Progressing');
    const ts = this.ts();
    // the one named in the messages: the new set, else the Deployment (upstream's two wordings)
    const subject = this.newRS ? `ReplicaSet "${this.newRS.metadata!.name}"` : `Deployment "${d.metadata!.name}"`;
    // Progress is estimated while the latest rollout has not completed, whatever the condition says now: a rollout
    // that timed out and then became available (or was rolled back to a set that is) is complete again, as upstream.
    // Timing out only sets the condition (no event).
    const completed = s.replicas === s.updatedReplicas && cur?.reason === 'NewReplicaSetAvailable';
    if (hasProgressDeadline(d) && !completed) {
      if (this.complete(s)) {
        conds = setCondition(conds, newCondition('Progressing', 'True', 'NewReplicaSetAvailable', `${subject} has successfully progressed.`, ts));
      } else if (this.progressing(s)) {
        const c = newCondition('Progressing', 'True', 'ReplicaSetUpdated', `${subject} is progressing.`, ts);
        if (cur?.status === 'True') c.lastTransitionTime = cur.lastTransitionTime;
        conds = [...removeCondition(conds, 'Progressing'), c];
      } else if (this.timedOut(getCondition(conds, 'Progressing'))) {
        conds = setCondition(conds, newCondition('Progressing', 'False', 'ProgressDeadlineExceeded', `${subject} has timed out progressing.`, ts));
      }
    }
    // Surface a ReplicaFailure of any set (upstream: GetReplicaSetsWithFailure).
    const failure = this.all.map((rs) => getCondition(rs.status?.conditions, 'ReplicaFailure')).find((c) => c?.status === 'True');
    conds = failure ? setCondition(conds, newCondition('ReplicaFailure', 'True', failure.reason ?? 'FailedCreate', failure.message ?? '', ts)) : removeCondition(conds, 'ReplicaFailure');
    s.conditions = conds;
    await this.writeStatus(s);
    // A deployment that is progressing is looked at again when its deadline would pass.
    const after = getCondition(conds, 'Progressing');
    if (hasProgressDeadline(d) && !this.complete(s) && after && after.reason !== 'ProgressDeadlineExceeded') {
      const at = Date.parse(after.lastUpdateTime ?? ts) + d.spec.progressDeadlineSeconds * 1000;
      this.requeueAfter(Math.max(1000, at - this.clock.now() + 1));
    }
  }

  private progressing(s: Record<string, any>): boolean {
    const old = this.d.status ?? {};
    const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
    const newOld = s.replicas - s.updatedReplicas;
    return s.updatedReplicas > (old.updatedReplicas ?? 0) || newOld < oldOld || s.readyReplicas > (old.readyReplicas ?? 0) || s.availableReplicas > (old.availableReplicas ?? 0);
  }

  private timedOut(cur: Condition | undefined): boolean {
    if (!cur || cur.reason === 'NewReplicaSetAvailable') return false;
    if (cur.reason === 'ProgressDeadlineExceeded') return true;
    const deadline = this.d.spec?.progressDeadlineSeconds ?? MAX_INT32;
    const from = Date.parse(cur.lastUpdateTime ?? '');
    return Number.isFinite(from) && from + deadline * 1000 < this.clock.now();
  }

  private async checkPausedConditions(): Promise<void> {
    const d = this.d;
    if (!hasProgressDeadline(d)) return;
    const cur = getCondition(d.status?.conditions, 'Progressing');
    if (cur?.reason === 'ProgressDeadlineExceeded') return;
    const paused = !!d.spec?.paused;
    let c: Condition | undefined;
    if (paused && cur?.reason !== 'DeploymentPaused') c = newCondition('Progressing', 'Unknown', 'DeploymentPaused', 'Deployment is paused', this.ts());
    else if (!paused && cur?.reason === 'DeploymentPaused') c = newCondition('Progressing', 'Unknown', 'DeploymentResumed', 'Deployment is resumed', this.ts());
    if (!c) return;
    await this.writeStatus({ ...(d.status ?? {}), conditions: [...removeCondition(d.status?.conditions, 'Progressing'), c] });
  }

  private async writeStatus(computed: Record<string, any>): Promise<void> {
    const d = this.d;
    // DeploymentStatus's counts are all omitempty
    const status = withoutEmpty(computed, ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas']);
    if (deepEqual(stripTimes(d.status ?? {}), stripTimes(status)) && deepEqual(d.status?.conditions ?? [], status.conditions ?? [])) return;
    const updated = await this.ctx.client.deployments(this.ns).updateStatus({ ...d, status });
    d.status = updated.status;
    d.metadata = { ...d.metadata, resourceVersion: updated.metadata?.resourceVersion };
  }
}

const stripTimes = (s: Record<string, any>): Record<string, any> => ({ ...s, conditions: undefined });

function getControllerOf(o: KubeObject): { uid: string } | undefined {
  return o.metadata?.ownerReferences?.find((r) => r.controller);
}
