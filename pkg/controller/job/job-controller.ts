// The Job controller (upstream pkg/controller/job): runs pods until `completions` succeed (NonIndexed or Indexed),
// at most `parallelism` at a time, with the job-tracking finalizer so no finished pod goes uncounted
// (uncountedTerminatedPods, then the counters), backoffLimit with exponential pod backoff, activeDeadlineSeconds,
// podFailurePolicy, successPolicy, backoffLimitPerIndex / maxFailedIndexes (per-index.ts), podReplacementPolicy,
// suspend, managedBy (another controller's Jobs are left alone), and 1.32's terminal conditions (FailureTarget /
// SuccessCriteriaMet first, Failed / Complete once no pod is left running).
import type { KubeObject } from '../../../api/types.js';
import { labelSelectorAsSelector } from '../../apimachinery/labels.js';
import { isConflict, isNotFound, realClock, resourceVersionOlder } from '../../client/index.js';
import {
  ControllerExpectations, SLOW_START_INITIAL_BATCH, controllerRef, formatTimeOf, getCondition, getControllerOf, keyOf,
  objOf, parseTime, slowStartBatch, workerLoop, type Condition,
} from '../shared/controller-utils.js';
import { compareForDeletion, isPodActive, isPodReady, type Pod } from '../shared/controller-utils-pods.js';
import { claimObjects } from '../shared/controller-utils-refs.js';
import { isNamespaceTerminating } from '../shared/errors.js';
import type { ControllerContext } from '../shared/types.js';
import { PodBackoffStore, remainingBackoff, type BackoffRecord } from './backoff.js';
import { jobPod } from './job-pod.js';
import {
  failsIndex, hasBackoffLimitPerIndex, indexBackoffLeft, podsWithDelayedDeletion, replacementAnnotations,
} from './per-index.js';
import {
  CONTROLLER_UID, JOB_TRACKING_FINALIZER, completionIndexOf, formatIndexes, hasFinalizer, isIndexed, matchPodFailurePolicy,
  parseIndexes, pastBackoffLimitOnFailure,
} from './job-util.js';
import { cloneJson } from '../../apimachinery/json-clone.js';

/** spec.managedBy of the Jobs this controller reconciles (unset means the same). */
const JOB_CONTROLLER = 'kubernetes.io/job-controller';

export const isJobFinished = (job: KubeObject): Condition | undefined =>
  ((job.status?.conditions ?? []) as Condition[]).find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');

export async function startJobController(ctx: ControllerContext): Promise<void> {
  const clock = ctx.clock ?? realClock;
  const jobInformer = ctx.informers.informerFor({ group: 'batch', version: 'v1', resource: 'jobs', namespaced: true, kind: 'Job' });
  const podInformer = ctx.informers.pods();
  const jobs = jobInformer.lister();
  const podLister = podInformer.lister();
  const expectations = new ControllerExpectations(clock);
  const loop = workerLoop(ctx, 'job-controller', sync);

  /** The Job a controller reference names, when the cache has it with that uid. */
  const resolve = (ns: string | undefined, ref: { kind?: string; name?: string; uid?: string } | undefined): KubeObject | undefined => {
    if (ref?.kind !== 'Job') return undefined;
    const j = jobs.get(`${ns}/${ref.name}`);
    return j?.metadata?.uid === ref.uid ? j : undefined;
  };
  // pods holding the job-tracking finalizer that no running Job will release (upstream's orphan queue)
  const orphans = workerLoop(ctx, 'job-controller/orphan-pod', syncOrphanPod);
  const enqueueOrphan = (p: Pod): void => { if (hasFinalizer(p)) orphans.enqueue(p); };
  /** The pods a Job controls that still have the finalizer go to the orphan queue (upstream cleanupPodFinalizers). */
  const cleanupPodFinalizers = (job: KubeObject): void => {
    const uid = job.metadata?.uid;
    for (const p of podLister.namespace(job.metadata!.namespace!).list()) if (getControllerOf(p)?.uid === uid) enqueueOrphan(p);
  };
  /** A pod deleted, or given a deletionTimestamp (upstream deletePod). */
  const podGone = (p: Pod): void => {
    const ref = getControllerOf(p);
    const j = ref && resolve(p.metadata?.namespace, ref);
    // no owner, or one that is gone or finished: syncJob would never release the pod
    if (!j || isJobFinished(j)) { enqueueOrphan(p); return; }
    expectations.deletionObserved(keyOf(j), p.metadata?.uid);
    loop.enqueue(j);
  };
  jobInformer.addEventHandler({
    onAdd: (j) => loop.enqueue(j),
    onUpdate: (_o, j) => { loop.enqueue(j); if (isJobFinished(j)) cleanupPodFinalizers(j); },
    onDelete: (o) => { const j = objOf(o); expectations.delete(keyOf(j)); loop.enqueue(j); cleanupPodFinalizers(j); },
  });
  podInformer.addEventHandler({
    onAdd: (p) => {
      // a pod already being deleted (seen at start) is no creation
      if (p.metadata?.deletionTimestamp) { podGone(p); return; }
      const ref = getControllerOf(p);
      if (!ref) { enqueueOrphan(p); return; }
      const j = resolve(p.metadata?.namespace, ref);
      if (j) { expectations.creationObserved(keyOf(j)); loop.enqueue(j); }
    },
    onUpdate: (o, p) => {
      if (o.metadata?.resourceVersion === p.metadata?.resourceVersion) return;
      if (p.metadata?.deletionTimestamp) { podGone(p); return; }
      const ref = getControllerOf(p);
      const oldRef = getControllerOf(o);
      if (oldRef && oldRef.uid !== ref?.uid) { const old = resolve(o.metadata?.namespace, oldRef); if (old) loop.enqueue(old); }
      if (!ref) { enqueueOrphan(p); return; }
      const j = resolve(p.metadata?.namespace, ref);
      if (j) loop.enqueue(j);
    },
    onDelete: (o) => podGone(objOf(o)),
  });

  /**
   * Takes the finalizer off a pod no Job will count (upstream syncOrphanPod): unless, read again from the cache,
   * it is controlled by something else than a batch/v1 Job, or by a Job that is there and not finished (it was
   * adopted), or by one another controller manages.
   */
  async function syncOrphanPod(key: string): Promise<void> {
    const [ns, name] = key.split('/') as [string, string];
    const p = podLister.namespace(ns).get(name);
    if (!p) return;
    const ref = getControllerOf(p);
    if (ref) {
      if (ref.kind !== 'Job' || ref.apiVersion !== 'batch/v1') return;
      const j = resolve(ns, ref);
      if (j && (j.spec?.managedBy ?? JOB_CONTROLLER) !== JOB_CONTROLLER) return;
      if (j && !isJobFinished(j)) return;
    }
    if (!(await removeFinalizer(p))) throw new Error(`removing the ${JOB_TRACKING_FINALIZER} finalizer of pod ${key}: conflict`);
  }

  const removeFinalizer = async (p: Pod): Promise<boolean> => {
    if (!hasFinalizer(p)) return true;
    try {
      await ctx.client.pods(p.metadata!.namespace!).patch(p.metadata!.name!, 'json', [
        { op: 'test', path: '/metadata/uid', value: p.metadata!.uid },
        { op: 'replace', path: '/metadata/finalizers', value: (p.metadata!.finalizers ?? []).filter((f) => f !== JOB_TRACKING_FINALIZER) },
      ]);
      return true;
    } catch (err) {
      if (isNotFound(err) || (err as { code?: number }).code === 422) return true;
      if (isConflict(err)) return false;
      throw err;
    }
  };

  /** Deletes a pod of the Job, with upstream PodControl's events (none when it is gone already). */
  const deletePod = async (job: KubeObject, p: Pod): Promise<void> => {
    await removeFinalizer(p);
    try {
      await ctx.client.pods(p.metadata!.namespace!).delete(p.metadata!.name!, { preconditions: { uid: p.metadata!.uid } });
    } catch (err) {
      if (isNotFound(err)) return;
      ctx.recorder.event(job, 'Warning', 'FailedDelete', `Error deleting: ${(err as Error).message}`);
      throw err;
    }
    ctx.recorder.event(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${p.metadata!.name}`);
  };

  /** The resourceVersion of this controller's last status write per Job. */
  const written = new Map<string, string>();
  const backoffs = new PodBackoffStore();

  async function sync(key: string): Promise<void> {
    const cached = jobs.get(key);
    if (!cached) { expectations.delete(key); written.delete(key); backoffs.remove(key); return; }
    if ((cached.spec?.managedBy ?? JOB_CONTROLLER) !== JOB_CONTROLLER) return;
    // a cache older than our own last write would undo it (a pod of a just-failed Job created again): the informer
    // brings the write, and its event syncs again
    if (resourceVersionOlder(cached.metadata?.resourceVersion, written.get(key))) return;
    const job = cloneJson(cached);
    const ns = job.metadata!.namespace!;
    const uid = job.metadata!.uid!;
    const selector = labelSelectorAsSelector(job.spec?.selector ?? { matchLabels: { [CONTROLLER_UID]: uid } });
    // a finished Job's pods are no more its business: the orphan queue releases them
    if (isJobFinished(job)) { cleanupPodFinalizers(job); backoffs.remove(key); return; }
    const inNs = podLister.namespace(ns).list();
    const pods = await claimObjects(inNs.filter((p) => !p.metadata?.deletionTimestamp || getControllerOf(p)?.uid === uid), {
      owner: job, ownerApiVersion: 'batch/v1', ownerKind: 'Job', selector, client: ctx.client.pods(ns), canAdopt: () => canAdopt(job),
    });
    // a Job being deleted releases every pod (upstream canRemoveFinalizer), counting only the finished ones
    const deleting = !!job.metadata?.deletionTimestamp;
    const nowMs = clock.now();
    const ts = formatTimeOf(clock);
    const status: Record<string, any> = cloneJson(job.status ?? {});
    // upstream's syncJob starts from an empty struct, so every status it writes carries `uncountedTerminatedPods: {}`
    status.uncountedTerminatedPods ??= {};
    status.succeeded ??= 0;
    status.failed ??= 0;
    const uncounted = { succeeded: [...(status.uncountedTerminatedPods?.succeeded ?? [])] as string[], failed: [...(status.uncountedTerminatedPods?.failed ?? [])] as string[] };
    const completions: number | undefined = job.spec?.completions ?? undefined;
    const indexed = isIndexed(job);
    const completed = indexed ? parseIndexes(status.completedIndexes, completions ?? 0) : new Set<number>();
    const perIndex = hasBackoffLimitPerIndex(job);
    const failedIdx = perIndex ? parseIndexes(status.failedIndexes, completions ?? 0) : new Set<number>();
    let conds = [...((status.conditions ?? []) as Condition[])];
    const onlyFailed = job.spec?.podReplacementPolicy === 'Failed';
    const podFailed = (p: Pod): boolean => p.status?.phase === 'Failed' || (!onlyFailed && !!p.metadata?.deletionTimestamp && p.status?.phase !== 'Succeeded');
    let failJob: { reason: string; message: string } | undefined;
    let manageError: unknown;

    // 1. finished pods still holding the finalizer are recorded as uncounted, then released, then counted.
    const inRange = (ix: number | undefined): ix is number => ix !== undefined && ix < (completions ?? 0);
    if (perIndex) {
      // this sync's done indexes first: their failed pods need not wait for a replacement
      for (const p of pods.filter(hasFinalizer)) {
        const ix = completionIndexOf(p);
        if (!inRange(ix)) continue;
        if (p.status?.phase === 'Succeeded') completed.add(ix);
        else if (podFailed(p) && failsIndex(job, p)) failedIdx.add(ix);
      }
    }
    const finishing = deleting || getCondition(conds, 'FailureTarget')?.status === 'True' || getCondition(conds, 'SuccessCriteriaMet')?.status === 'True';
    // an index's last failed pod keeps its finalizer, uncounted, until the replacement carrying its counts runs
    const held = perIndex && !finishing
      ? podsWithDelayedDeletion(pods, podFailed, (ix) => !inRange(ix) || completed.has(ix) || failedIdx.has(ix))
      : new Map<number, Pod>();
    const heldUids = new Set([...held.values()].map((p) => p.metadata!.uid!));
    const seen = new Set([...uncounted.succeeded, ...uncounted.failed]);
    const release: Pod[] = [];
    const newlyFinished = { succeeded: [] as Pod[], failed: [] as Pod[] };
    for (const p of pods) {
      if (!hasFinalizer(p)) continue;
      const pu = p.metadata!.uid!;
      if (seen.has(pu)) { release.push(p); continue; }
      const idx = completionIndexOf(p);
      if (p.status?.phase === 'Succeeded') {
        if (indexed && !inRange(idx)) { release.push(p); continue; }
        newlyFinished.succeeded.push(p);
        uncounted.succeeded.push(pu);
        if (indexed) completed.add(idx!);
        release.push(p);
      } else if (podFailed(p)) {
        const m = p.status?.phase === 'Failed' ? matchPodFailurePolicy(job, p) : undefined;
        if (m?.action === 'FailJob') failJob ??= { reason: 'PodFailurePolicy', message: m.message };
        if (heldUids.has(pu)) continue;
        if (!indexed || inRange(idx)) newlyFinished.failed.push(p);
        if (m?.action === 'Ignore') { release.push(p); continue; }
        if (perIndex && inRange(idx) && failsIndex(job, p)) failedIdx.add(idx);
        uncounted.failed.push(pu);
        release.push(p);
      } else if (deleting) release.push(p);
    }
    // ignored failures back off too; the record is kept once the status counting these pods is written
    const backoff = backoffs.next(key, newlyFinished.succeeded, newlyFinished.failed, new Set(pods.filter(hasFinalizer).map((p) => p.metadata!.uid!)));
    if (uncounted.succeeded.length || uncounted.failed.length) {
      status.uncountedTerminatedPods = uncounted;
      if (indexed) status.completedIndexes = formatIndexes(completed);
      if (perIndex) status.failedIndexes = formatIndexes(failedIdx);
      await writeStatus(job, status);
      backoffs.commit(key, backoff);
      const released = new Set<string>();
      for (const p of release) if (await removeFinalizer(p)) released.add(p.metadata!.uid!);
      const podUids = new Set(pods.map((p) => p.metadata!.uid!));
      const done = (u: string): boolean => released.has(u) || !podUids.has(u);
      status.succeeded += uncounted.succeeded.filter(done).length;
      status.failed += uncounted.failed.filter(done).length;
      status.uncountedTerminatedPods = { succeeded: uncounted.succeeded.filter((u) => !done(u)), failed: uncounted.failed.filter((u) => !done(u)) };
    } else {
      backoffs.commit(key, backoff);
      for (const p of release) await removeFinalizer(p);
    }

    let active = pods.filter(isPodActive);
    const terminating = pods.filter((p) => !!p.metadata?.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
    const suspended = !!job.spec?.suspend;

    // 2. start time and suspension
    const susp = getCondition(conds, 'Suspended');
    if (suspended) {
      if (susp?.status !== 'True') {
        conds = [...conds.filter((c) => c.type !== 'Suspended'), { type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended', lastProbeTime: ts, lastTransitionTime: ts }];
        ctx.recorder.event(job, 'Normal', 'Suspended', 'Job suspended');
      }
    } else {
      if (susp?.status === 'True') {
        conds = [...conds.filter((c) => c.type !== 'Suspended'), { type: 'Suspended', status: 'False', reason: 'JobResumed', message: 'Job resumed', lastProbeTime: ts, lastTransitionTime: ts }];
        status.startTime = ts;
        ctx.recorder.event(job, 'Normal', 'Resumed', 'Job resumed');
      }
      status.startTime ??= ts;
    }

    // 3. terminal criteria
    const target = getCondition(conds, 'FailureTarget');
    if (target?.status === 'True') failJob = { reason: target.reason ?? '', message: target.message ?? '' };
    // in upstream syncJob's order: failed pods or container restarts past backoffLimit, the deadline, then the
    // per-index limits (with backoffLimitPerIndex, backoffLimit defaults to MaxInt32, so restarts never reach it)
    if (!failJob && (status.failed > (job.spec?.backoffLimit ?? 6) || pastBackoffLimitOnFailure(job, pods))) {
      failJob = { reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' };
    }
    const ads = job.spec?.activeDeadlineSeconds as number | undefined;
    const started = parseTime(status.startTime);
    if (!failJob && !suspended && ads != null && started !== undefined) {
      if (nowMs - started >= ads * 1000) failJob = { reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' };
      else loop.enqueueAfter(key, started + ads * 1000 - nowMs);
    }
    if (!failJob && perIndex) {
      if (job.spec?.maxFailedIndexes != null && failedIdx.size > job.spec.maxFailedIndexes) {
        failJob = { reason: 'MaxFailedIndexesExceeded', message: 'Job has exceeded the specified maximal number of failed indexes' };
      } else if (failedIdx.size > 0 && completed.size + failedIdx.size >= (completions ?? 0)) {
        failJob = { reason: 'FailedIndexes', message: 'Job has failed indexes' };
      }
    }
    let success: { reason: string; message: string } | undefined;
    const met = getCondition(conds, 'SuccessCriteriaMet');
    if (!failJob) {
      if (met?.status === 'True') success = { reason: met.reason ?? 'CompletionsReached', message: met.message ?? '' };
      else {
        const rule = matchSuccessPolicy(job, completed, status.succeeded);
        if (rule !== undefined) success = { reason: 'SuccessPolicy', message: `Matched rules at index ${rule}` };
        else if (indexed ? completed.size + failedIdx.size >= (completions ?? 0) : completions != null ? status.succeeded >= completions : status.succeeded > 0 && active.length === 0) {
          success = { reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' };
        }
      }
    }
    if (failJob || success) {
      const type = failJob ? 'FailureTarget' : 'SuccessCriteriaMet';
      const why = (failJob ?? success)!;
      if (getCondition(conds, type)?.status !== 'True') conds = [...conds, { type, status: 'True', reason: why.reason, message: why.message, lastProbeTime: ts, lastTransitionTime: ts }];
      if (active.length) {
        for (const p of active) {
          await deletePod(job, p);
          if (failJob) status.failed++;
        }
        // the pods just deleted are terminating now, as upstream counts them
        terminating.push(...active);
        active = [];
      }
      // finished only once every pod this controller created has been seen (and so deleted above when still active):
      // a pod created just before the failure and not in the cache yet would otherwise outlive its finished Job;
      // and once no pod is left terminating (1.32's delayed terminal condition), whether or not it still has its finalizer
      // and once no failed pod is held for its index's replacement (the next sync, seeing FailureTarget, counts it)
      if (expectations.satisfied(key) && terminating.length === 0 && held.size === 0 && (status.uncountedTerminatedPods?.succeeded?.length ?? 0) + (status.uncountedTerminatedPods?.failed?.length ?? 0) === 0) {
        const final = failJob ? 'Failed' : 'Complete';
        conds = [...conds, { type: final, status: 'True', reason: why.reason, message: why.message, lastProbeTime: ts, lastTransitionTime: ts }];
        if (!failJob) status.completionTime = ts;
        ctx.recorder.event(job, failJob ? 'Warning' : 'Normal', failJob ? why.reason : 'Completed', failJob ? why.message : 'Job completed');
      }
    } else if (!deleting && expectations.satisfied(key)) {
      // no pod is started for a Job being deleted: the garbage collector would delete it again (upstream syncJob)
      if (suspended) {
        // counted terminating in this very status, as upstream's manageJob adds the pods it removed
        for (const p of active) { await deletePod(job, p); terminating.push(p); }
        active = [];
      } else {
        ({ active, error: manageError } = await manage(job, active, { completed, failed: failedIdx, terminating, held }, status, backoff, nowMs));
      }
    }

    status.active = active.length;
    status.ready = active.filter(isPodReady).length;
    status.terminating = terminating.length;
    status.conditions = conds.length ? conds : undefined;
    if (indexed) status.completedIndexes = formatIndexes(completed);
    if (perIndex) status.failedIndexes = formatIndexes(failedIdx);
    if (status.uncountedTerminatedPods && !status.uncountedTerminatedPods.succeeded?.length && !status.uncountedTerminatedPods.failed?.length) status.uncountedTerminatedPods = {};
    await writeStatus(job, status);
    // a failed pod creation is retried with backoff, once the status (startTime) is written
    if (manageError !== undefined) throw manageError;
  }

  /** Upstream RecheckDeletionTimestamp: adopt only for the same Job, read from the API, not being deleted. */
  async function canAdopt(job: KubeObject): Promise<boolean> {
    const fresh = await ctx.client.jobs(job.metadata!.namespace!).get(job.metadata!.name!);
    return fresh.metadata?.uid === job.metadata?.uid && !fresh.metadata?.deletionTimestamp;
  }

  /**
   * Creates or deletes pods so min(parallelism, remaining work) run; returns the active pods, and the first
   * create or delete error for the caller to throw once the status is written. With podReplacementPolicy Failed,
   * terminating pods are not replaced until they have finished.
   */
  async function manage(job: KubeObject, active: Pod[], idx: { completed: Set<number>; failed: Set<number>; terminating: Pod[]; held: Map<number, Pod> }, status: Record<string, any>, backoff: BackoffRecord, nowMs: number): Promise<{ active: Pod[]; error?: unknown }> {
    const key = keyOf(job);
    const ns = job.metadata!.namespace!;
    const parallelism = job.spec?.parallelism ?? 1;
    const completions: number | undefined = job.spec?.completions ?? undefined;
    const indexed = isIndexed(job);
    const perIndex = hasBackoffLimitPerIndex(job);
    const waitForTerminating = job.spec?.podReplacementPolicy === 'Failed';
    // the pods of an index that has failed for good go first (upstream getActivePodsForIndexes)
    const ofFailed = active.filter((p) => idx.failed.has(completionIndexOf(p) ?? -1));
    let want: number;
    if (completions == null) want = status.succeeded > 0 ? 0 : parallelism;
    else if (indexed) want = Math.min(parallelism, completions - idx.completed.size - idx.failed.size);
    else want = Math.min(parallelism, Math.max(0, completions - status.succeeded));
    if (active.length > want || ofFailed.length) {
      const rest = [...active].filter((p) => !ofFailed.includes(p)).sort(compareForDeletion());
      const victims = [...ofFailed, ...rest.slice(0, Math.max(0, rest.length - want))];
      expectations.expectDeletions(key, victims.map((p) => p.metadata!.uid!));
      const deleted = new Set<Pod>();
      let error: unknown;
      for (const p of victims) {
        // terminating in this very status, as upstream's manageJob counts the pods it removed
        try { await deletePod(job, p); deleted.add(p); idx.terminating.push(p); } catch (err) {
          // no informer event will observe it
          expectations.deletionObserved(key, p.metadata!.uid);
          error ??= err;
        }
      }
      return { active: active.filter((p) => !deleted.has(p)), error };
    }
    const replacing = waitForTerminating ? idx.terminating.length : 0;
    if (active.length + replacing >= want) return { active };
    // Exponential backoff after consecutive failures since the last success (the Job's record); per index, from the
    // failed pod each index holds, with backoffLimitPerIndex.
    const wait = perIndex ? 0 : remainingBackoff(backoff, nowMs);
    if (wait > 0) { loop.enqueueAfter(key, wait); return { active }; }
    let indexes: (number | undefined)[];
    if (indexed) {
      const busy = new Set([...active, ...(waitForTerminating ? idx.terminating : [])].map(completionIndexOf));
      indexes = [];
      let soonest = Infinity;
      for (let i = 0; i < (completions ?? 0) && indexes.length < want - active.length - replacing; i++) {
        if (idx.completed.has(i) || idx.failed.has(i) || busy.has(i)) continue;
        const left = perIndex ? indexBackoffLeft(idx.held.get(i), nowMs) : 0;
        if (left > 0) { soonest = Math.min(soonest, left); continue; }
        indexes.push(i);
      }
      if (soonest < Infinity) loop.enqueueAfter(key, soonest);
    } else indexes = Array.from({ length: want - active.length - replacing }, () => undefined);
    if (!indexes.length) return { active };
    expectations.expectCreations(key, indexes.length);
    const queue = [...indexes];
    const { successes, error } = await slowStartBatch(indexes.length, SLOW_START_INITIAL_BATCH, async () => {
      const ix = queue.shift();
      const pod = jobPod(job, ix);
      if (perIndex && ix !== undefined) Object.assign(pod.metadata!.annotations!, replacementAnnotations(job, idx.held.get(ix)));
      try {
        const created = await ctx.client.pods(ns).create(pod);
        ctx.recorder.event(job, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata!.name}`);
      } catch (err) {
        // a namespace being torn down refuses every create: nothing to report or retry (as upstream)
        if (isNamespaceTerminating(err)) return;
        ctx.recorder.event(job, 'Warning', 'FailedCreate', `Error creating: ${(err as Error).message}`);
        throw err;
      }
    });
    if (successes < indexes.length) expectations.lowerExpectations(key, indexes.length - successes, 0);
    return { active, error };
  }

  async function writeStatus(job: KubeObject, computed: Record<string, any>): Promise<void> {
    const status = asGoWritesIt(computed);
    if (JSON.stringify(job.status ?? {}) === JSON.stringify(status)) return;
    const updated = await ctx.client.jobs(job.metadata!.namespace!).updateStatus({ ...job, status });
    if (updated.metadata?.resourceVersion) written.set(keyOf(job), updated.metadata.resourceVersion);
    job.status = cloneJson(updated.status ?? status);
    job.metadata = { ...job.metadata, resourceVersion: updated.metadata?.resourceVersion };
  }

  await Promise.all([loop.run(), orphans.run()]);
}

/**
 * The status as upstream's JobStatus serializes: its active, succeeded and failed counts are omitempty (a reader sees
 * no `succeeded` until a pod succeeded), and so are the uid lists of uncountedTerminatedPods.
 */
function asGoWritesIt(status: Record<string, any>): Record<string, any> {
  const out = { ...status };
  for (const k of ['active', 'succeeded', 'failed']) if (out[k] === 0) delete out[k];
  const uncounted = out.uncountedTerminatedPods as Record<string, string[]> | undefined;
  if (uncounted) out.uncountedTerminatedPods = Object.fromEntries(Object.entries(uncounted).filter(([, uids]) => uids.length > 0));
  return out;
}

/** The index of the first successPolicy rule met, if any (upstream matchSuccessPolicy). */
function matchSuccessPolicy(job: KubeObject, completed: Set<number>, succeeded: number): number | undefined {
  const rules = (job.spec?.successPolicy?.rules ?? []) as { succeededIndexes?: string; succeededCount?: number }[];
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i]!;
    if (r.succeededIndexes !== undefined) {
      const want = parseIndexes(r.succeededIndexes, job.spec?.completions ?? 0);
      const have = [...want].filter((x) => completed.has(x)).length;
      if (r.succeededCount != null ? have >= r.succeededCount : have === want.size) return i;
    } else if (r.succeededCount != null && (isIndexed(job) ? completed.size : succeeded) >= r.succeededCount) return i;
  }
  return undefined;
}
