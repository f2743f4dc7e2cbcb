// The CronJob controller (upstream pkg/controller/cronjob, v2): on each schedule time creates a Job
// `<cronjob>-<minutes since epoch>` from the jobTemplate, honouring suspend, timeZone, startingDeadlineSeconds and
// concurrencyPolicy (Allow / Forbid / Replace); tracks active Jobs, lastScheduleTime and lastSuccessfulTime; and
// trims finished Jobs to the history limits.
import type { KubeObject } from '../../../api/types.js';
import { formatTime, isAlreadyExists, isNotFound, realClock } from '../../client/index.js';
import { controllerRef, getControllerOf, keyOf, objOf, parseTime, workerLoop } from '../shared/controller-utils.js';
import type { ControllerContext } from '../shared/types.js';
import { isJobFinished } from '../job/job-controller.js';
import { formatInZone, parseSchedule, validTimeZone, type Schedule } from './cron.js';
import { cloneJson } from '../../apimachinery/json-clone.js';

const SCHEDULED_TIMESTAMP = 'batch.kubernetes.io/cronjob-scheduled-timestamp';
const JOBS = { group: 'batch', version: 'v1', resource: 'jobs', namespaced: true, kind: 'Job' };
const CRONJOBS = { group: 'batch', version: 'v1', resource: 'cronjobs', namespaced: true, kind: 'CronJob' };

/**
 * The latest schedule time in (earliest, now], and about how many were missed, as upstream's mostRecentScheduleTime
 * works them out: the count from the first two times' distance (not walked: an `@every 1s` CronJob idle for a day),
 * and the latest by walking on from a little before the estimated last one. Undefined for a schedule that never
 * fires or fires twice within a second.
 */
export function mostRecentScheduleTime(sched: Schedule, earliestMs: number, nowMs: number): { time?: number; missed: number } {
  const t1 = sched.next(earliestMs);
  if (t1 === undefined || nowMs < t1) return { missed: 0 };
  const t2 = sched.next(t1);
  if (t2 === undefined || nowMs < t2) return { time: t1, missed: 0 };
  const interval = Math.round((t2 - t1) / 1000);
  if (interval < 1) return { missed: 0 };
  const missed = Math.floor(Math.floor((nowMs - t1) / 1000) / interval) + 1;
  let time: number | undefined;
  for (let t = sched.next(t1 + (missed - 2) * interval * 1000); t !== undefined && t <= nowMs; t = sched.next(t)) time = t;
  return { time, missed };
}

/** Go's time.RFC1123Z of a UTC time: "Fri, 04 Dec 2026 16:00:00 +0000". */
const rfc1123z = (ms: number): string => new Date(ms).toUTCString().replace('GMT', '+0000');

export async function startCronJobController(ctx: ControllerContext): Promise<void> {
  const clock = ctx.clock ?? realClock;
  const cjInformer = ctx.informers.informerFor(CRONJOBS);
  const jobInformer = ctx.informers.informerFor(JOBS);
  const cronJobs = cjInformer.lister();
  const jobs = jobInformer.lister();
  const loop = workerLoop(ctx, 'cronjob-controller', sync);

  const parentOf = (job: KubeObject): KubeObject | undefined => {
    const ref = getControllerOf(job);
    if (ref?.kind !== 'CronJob') return undefined;
    const cj = cronJobs.get(`${job.metadata!.namespace}/${ref.name}`);
    return cj?.metadata?.uid === ref.uid ? cj : undefined;
  };
  const onJob = (j: KubeObject): void => { const cj = parentOf(j); if (cj) loop.enqueue(cj); };
  cjInformer.addEventHandler({ onAdd: (cj) => loop.enqueue(cj), onUpdate: (_o, cj) => loop.enqueue(cj), onDelete: (o) => void objOf(o) });
  jobInformer.addEventHandler({ onAdd: onJob, onUpdate: (_o, j) => onJob(j), onDelete: (o) => onJob(objOf(o)) });

  async function sync(key: string): Promise<void> {
    const cached = cronJobs.get(key);
    if (!cached) return;
    let cj = cloneJson(cached);
    const ns = cj.metadata!.namespace!;
    const uid = cj.metadata!.uid!;
    const children = jobs.namespace(ns).list().filter((j) => getControllerOf(j)?.uid === uid);
    let status: Record<string, any> = cloneJson(cj.status ?? {});
    let active: { name: string; uid?: string }[] = [...(status.active ?? [])];
    const nowMs = clock.now();

    // 1. reconcile the active list with the Jobs that exist.
    for (const j of children) {
      let inActive = active.some((a) => a.uid === j.metadata!.uid);
      const done = isJobFinished(j);
      if (!inActive && !done) {
        // The cache may lag our own status write: ask the API before calling the Job unexpected. One that is
        // still not listed (a crash between create and status write, `kubectl create job --from=cronjob/…`)
        // is reported and left out of the active list, as upstream does.
        const live = await ctx.client.cronJobs(ns).get(cj.metadata!.name!);
        if (live.metadata?.uid === uid && (live.status?.active ?? []).some((a: { uid?: string }) => a.uid === j.metadata!.uid)) {
          cj = live;
          status = cloneJson(live.status ?? {});
          active = [...(status.active ?? [])];
          inActive = true;
        } else {
          ctx.recorder.event(cj, 'Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${j.metadata!.name}`);
        }
      }
      if (inActive && done) {
        active = active.filter((a) => a.uid !== j.metadata!.uid);
        ctx.recorder.event(cj, 'Normal', 'SawCompletedJob', `Saw completed job: ${j.metadata!.name}, condition: ${done.type}`);
      }
      // any Job of ours that succeeded counts, listed active or not (`kubectl create job --from=cronjob/…`), as
      // upstream: its completionTime when newer than the one recorded
      if (done?.type === 'Complete') {
        const t = j.status?.completionTime;
        if (t && (!status.lastSuccessfulTime || Date.parse(t) > Date.parse(status.lastSuccessfulTime))) status.lastSuccessfulTime = t;
      }
    }
    const existing = new Set(children.map((j) => j.metadata!.uid));
    for (const a of active.filter((x) => !existing.has(x.uid))) {
      // Not in the cache: confirm with the API before forgetting it.
      const live = await ctx.client.jobs(ns).get(a.name).catch((e: unknown) => { if (isNotFound(e)) return undefined; throw e; });
      if (!live || live.metadata?.uid !== a.uid) {
        active = active.filter((x) => x !== a);
        ctx.recorder.event(cj, 'Normal', 'MissingJob', `Active job went missing: ${a.name}`);
      }
    }
    status.active = active.length ? active : undefined;

    await cleanupFinished(cj, children);
    const write = async (): Promise<void> => {
      if (JSON.stringify(cj.status ?? {}) === JSON.stringify(strip(status))) return;
      const u = await ctx.client.cronJobs(ns).updateStatus({ ...cj, status: strip(status) });
      cj.status = u.status;
      cj.metadata = { ...cj.metadata, resourceVersion: u.metadata?.resourceVersion };
    };
    if (cj.metadata?.deletionTimestamp || cj.spec?.suspend) { await write(); return; }

    const timeZone = cj.spec.timeZone as string | undefined;
    if (timeZone != null && !validTimeZone(timeZone)) {
      ctx.recorder.event(cj, 'Warning', 'UnknownTimeZone', `invalid timeZone: ${JSON.stringify(timeZone)}: unknown time zone ${timeZone}`);
      await write();
      return;
    }
    let sched: Schedule;
    try {
      sched = parseSchedule(cj.spec.schedule, timeZone);
    } catch (err) {
      ctx.recorder.event(cj, 'Warning', 'UnparseableSchedule', `unparseable schedule: ${JSON.stringify(cj.spec.schedule)} : ${(err as Error).message}`);
      await write();
      return;
    }
    const requeueNext = (): void => {
      const n = sched.next(clock.now());
      if (n !== undefined) loop.enqueueAfter(key, n - clock.now() + 100);
    };
    let earliest = parseTime(status.lastScheduleTime) ?? parseTime(cj.metadata?.creationTimestamp ?? undefined) ?? nowMs;
    const sds = cj.spec?.startingDeadlineSeconds as number | undefined;
    if (sds != null) earliest = Math.max(earliest, nowMs - sds * 1000);
    const { time: scheduled, missed } = mostRecentScheduleTime(sched, earliest, nowMs);
    if (scheduled === undefined) { await write(); requeueNext(); return; }
    if (missed > 100) ctx.recorder.event(cj, 'Warning', 'TooManyMissedTimes', 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew');
    if (sds != null && scheduled + sds * 1000 < nowMs) {
      ctx.recorder.event(cj, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`);
      await write();
      requeueNext();
      return;
    }
    const jobName = `${cj.metadata!.name}-${Math.floor(scheduled / 60_000)}`;
    if (active.some((a) => a.name === jobName) || parseTime(status.lastScheduleTime) === scheduled) {
      // this schedule time is already processed
      await write();
      requeueNext();
      return;
    }
    const policy = cj.spec?.concurrencyPolicy ?? 'Allow';
    if (policy === 'Forbid' && active.length > 0) {
      ctx.recorder.event(cj, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid');
      await write();
      requeueNext();
      return;
    }
    if (policy === 'Replace') {
      for (const a of active) {
        try {
          await ctx.client.jobs(ns).delete(a.name, { propagationPolicy: 'Background', preconditions: a.uid ? { uid: a.uid } : undefined });
          ctx.recorder.event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${a.name}`);
        } catch (err) {
          if (isNotFound(err)) continue;
          ctx.recorder.event(cj, 'Warning', 'FailedDelete', `Deleted job: ${(err as Error).message}`);
          throw err;
        }
      }
      active = [];
    }
    const tmpl = cloneJson(cj.spec.jobTemplate ?? {});
    const job: KubeObject = {
      apiVersion: 'batch/v1', kind: 'Job',
      metadata: {
        name: jobName, namespace: ns, labels: tmpl.metadata?.labels ?? {},
        annotations: { ...(tmpl.metadata?.annotations ?? {}), [SCHEDULED_TIMESTAMP]: formatInZone(scheduled, cj.spec?.timeZone || 'UTC') },
        ownerReferences: [controllerRef(cj, 'batch/v1', 'CronJob')],
      },
      spec: tmpl.spec ?? {},
    };
    let created: KubeObject;
    try {
      created = await ctx.client.jobs(ns).create(job);
      ctx.recorder.event(cj, 'Normal', 'SuccessfulCreate', `Created job ${jobName}`);
    } catch (err) {
      if (!isAlreadyExists(err)) {
        ctx.recorder.event(cj, 'Warning', 'FailedCreate', `Error creating job: ${(err as Error).message}`);
        throw err;
      }
      // ours from an earlier sync whose status write was lost: list it now; someone else's: theirs to track
      created = await ctx.client.jobs(ns).get(jobName);
      if (getControllerOf(created)?.uid !== uid || active.some((a) => a.uid === created.metadata!.uid)) { await write(); requeueNext(); return; }
    }
    if (!active.some((a) => a.uid === created.metadata!.uid)) active.push(jobRef(created));
    status.active = active;
    status.lastScheduleTime = formatTime(scheduled);
    await write();
    requeueNext();
  }

  async function cleanupFinished(cj: KubeObject, children: KubeObject[]): Promise<void> {
    const limits: [string, number | undefined][] = [['Complete', cj.spec?.successfulJobsHistoryLimit], ['Failed', cj.spec?.failedJobsHistoryLimit]];
    for (const [type, limit] of limits) {
      if (limit == null) continue;
      const finished = children.filter((j) => isJobFinished(j)?.type === type && !j.metadata?.deletionTimestamp)
        // oldest start first, the name breaking ties; a job that never started goes last (upstream's byJobStartTime)
        .sort((a, b) => (parseTime(a.status?.startTime) ?? Infinity) - (parseTime(b.status?.startTime) ?? Infinity) || (a.metadata!.name! < b.metadata!.name! ? -1 : 1));
      for (const j of finished.slice(0, Math.max(0, finished.length - limit))) {
        try {
          await ctx.client.jobs(j.metadata!.namespace!).delete(j.metadata!.name!, { propagationPolicy: 'Background', preconditions: { uid: j.metadata!.uid } });
          ctx.recorder.event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${j.metadata!.name}`);
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
      }
    }
  }

  await loop.run();
}

const jobRef = (j: KubeObject): { kind: string; namespace?: string; name: string; uid?: string; apiVersion: string; resourceVersion?: string } => ({
  kind: 'Job', namespace: j.metadata!.namespace, name: j.metadata!.name!, uid: j.metadata!.uid, apiVersion: 'batch/v1', resourceVersion: j.metadata?.resourceVersion,
});

const strip = (s: Record<string, any>): Record<string, any> => Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined));

export const cronJobKey = keyOf;
