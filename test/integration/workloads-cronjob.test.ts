// The CronJob controller against a real apiserver, with a clock that stands still until the test moves it: a real
// minute boundary passing mid-test must not fire a schedule the test did not ask for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTime, realClock, type Clock } from '../../pkg/client/index.js';
import type { KubeObject } from '../../api/types.js';
import { eventually, startHarness, type Harness } from './workloads-harness.js';

let h: Harness;
let now = Date.now();
const clock: Clock = { now: () => now, setTimer: realClock.setTimer, sleep: realClock.sleep };
/** The controller's time this long after the apiserver stamped the object's creation (to the second). */
const sinceCreation = (o: KubeObject, ms: number) => Date.parse(o.metadata!.creationTimestamp!) + ms;
const NS = 'cron';
beforeAll(async () => {
  h = await startHarness(['cronjob'], { clock });
  await h.c.namespaces().create({ metadata: { name: NS } });
});
afterAll(async () => { await h?.stop(); });

/** A CronJob of `spec` whose Jobs run busybox once. */
const cronJob = (name: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name },
  spec: { ...spec, jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } } },
});
const touch = (name: string, n: number) => h.c.cronJobs(NS).patch(name, 'merge', { metadata: { annotations: { touch: String(n) } } });
const jobsOf = async (name: string) => (await h.c.jobs(NS).list()).items.filter((j) => j.metadata?.ownerReferences?.[0]?.name === name);

describe('cronjob controller', () => {
  it('creates a Job per schedule time, honours Forbid, records completions and trims history', async () => {
    const { c, s } = h;
    const created = await s.kubectl('-n', NS, 'create', 'cronjob', 'tick', '--image=busybox', '--schedule=* * * * *');
    expect(created.code).toBe(0);
    const cj0 = await c.cronJobs(NS).patch('tick', 'merge', { spec: { concurrencyPolicy: 'Forbid', successfulJobsHistoryLimit: 1 } });
    now = sinceCreation(cj0, 61_000);
    await touch('tick', 1);
    const [j1] = await eventually(() => jobsOf('tick'), (l) => l.length === 1, 'first job');
    expect(j1!.metadata!.name).toMatch(/^tick-\d+$/);
    expect(Number(j1!.metadata!.name!.slice(5)) * 60_000).toBe(Date.parse(j1!.metadata!.annotations!['batch.kubernetes.io/cronjob-scheduled-timestamp']!));
    expect(j1!.metadata!.ownerReferences![0]).toMatchObject({ kind: 'CronJob', controller: true });
    expect(j1!.spec.template.spec.containers[0].image).toBe('busybox');
    const cj = await eventually(() => c.cronJobs(NS).get('tick'), (x) => x.status?.active?.length === 1 && !!x.status?.lastScheduleTime, 'active + lastScheduleTime');
    expect(cj.status.active[0].name).toBe(j1!.metadata!.name);

    // Forbid: the next minute passes while the first job runs
    now += 60_000;
    await touch('tick', 2);
    await eventually(() => c.events(NS).list(), (l) => l.items.some((e) => e.reason === 'JobAlreadyActive'), 'JobAlreadyActive');
    expect((await jobsOf('tick')).length).toBe(1);

    // the job completes: lastSuccessfulTime, then the next run
    const t = formatTime(Date.now());
    await c.jobs(NS).patch(j1!.metadata!.name!, 'merge', { status: { startTime: t, completionTime: t, succeeded: 1, conditions: [{ type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: t }, { type: 'Complete', status: 'True', lastTransitionTime: t }] } }, { subresource: 'status' });
    await eventually(() => c.cronJobs(NS).get('tick'), (x) => !!x.status?.lastSuccessfulTime, 'lastSuccessfulTime');
    // the schedule time missed under Forbid runs now that the first job is done (as upstream: the most recent one)
    const two = await eventually(() => jobsOf('tick'), (l) => l.length === 2, 'second job');
    const j2 = two.find((j) => j.metadata!.name !== j1!.metadata!.name)!;
    await c.jobs(NS).patch(j2.metadata!.name!, 'merge', { status: { startTime: t, completionTime: t, succeeded: 1, conditions: [{ type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: t }, { type: 'Complete', status: 'True', lastTransitionTime: t }] } }, { subresource: 'status' });
    // successfulJobsHistoryLimit 1: the older finished job is deleted
    await eventually(() => jobsOf('tick'), (l) => l.length === 1 && l[0]!.metadata!.name === j2.metadata!.name, 'history trimmed');
  });

  it('suspended cronjobs and startingDeadlineSeconds create nothing', async () => {
    const { c } = h;
    await c.cronJobs(NS).create(cronJob('sus', { schedule: '*/1 * * * *', suspend: true }));
    await c.cronJobs(NS).create(cronJob('late', { schedule: '0 0 1 1 *', timeZone: 'Europe/Berlin', startingDeadlineSeconds: 10 }));
    now += 120_000;
    await touch('sus', 1);
    await touch('late', 1);
    await new Promise((r) => setTimeout(r, 500));
    expect((await jobsOf('sus')).length).toBe(0);
    expect((await jobsOf('late')).length).toBe(0);
  });

  it('@every: a Job once the delay has passed since the CronJob was made', async () => {
    const { c } = h;
    now = Date.now(); // the controller's clock back with the apiserver's, which stamps the creation
    const every = await c.cronJobs(NS).create(cronJob('every', { schedule: '@every 90s' }));
    await touch('every', 1);
    await new Promise((r) => setTimeout(r, 300));
    expect((await jobsOf('every')).length).toBe(0);
    now = sinceCreation(every, 91_000);
    await touch('every', 2);
    const [job] = await eventually(() => jobsOf('every'), (l) => l.length === 1, 'the @every job');
    expect(job!.metadata!.name).toMatch(/^every-\d+$/);
  });
});

describe('cronjob controller and time zones', () => {
  it('writes the scheduled-timestamp annotation in the CronJob\'s time zone', async () => {
    const { c } = h;
    now = Date.now(); // the controller's clock back with the apiserver's, which stamps the creation
    const tokyo = await c.cronJobs(NS).create(cronJob('tokyo', { schedule: '* * * * *', timeZone: 'Asia/Tokyo' }));
    now = sinceCreation(tokyo, 61_000);
    await touch('tokyo', 1);
    const [job] = await eventually(() => jobsOf('tokyo'), (l) => l.length === 1, 'the tokyo job');
    const stamp = job!.metadata!.annotations!['batch.kubernetes.io/cronjob-scheduled-timestamp']!;
    expect(stamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00\+09:00$/);
    // the same instant as the name's minutes since the epoch
    expect(Date.parse(stamp)).toBe(Number(job!.metadata!.name!.slice('tokyo-'.length)) * 60_000);
  });
});

describe('cronjob controller and Jobs it did not make', () => {
  it('a Job made with kubectl create job --from=cronjob is reported as unexpected and not counted active', async () => {
    const { c, s } = h;
    await c.cronJobs(NS).create(cronJob('manual', { schedule: '0 0 1 1 *' }));
    const made = await s.kubectl('-n', NS, 'create', 'job', '--from=cronjob/manual', 'manual-now');
    expect(made.code).toBe(0);
    // (the first test's CronJob may have one of its own: a Job whose status write lost a race is unexpected to the next sync, as upstream)
    const unexpected = (e: KubeObject): boolean => e.reason === 'UnexpectedJob' && e.involvedObject?.name === 'manual';
    const ev = await eventually(() => c.events(NS).list(), (l) => l.items.some(unexpected), 'UnexpectedJob');
    expect(ev.items.find(unexpected)).toMatchObject({
      type: 'Warning', involvedObject: { kind: 'CronJob', name: 'manual' }, message: 'Saw a job that the controller did not create or forgot: manual-now',
    });
    expect((await c.cronJobs(NS).get('manual')).status?.active).toBeUndefined();
  });
});

describe('cronjob controller: lastSuccessfulTime', () => {
  it('records the completion of a Job made from a suspended CronJob, not in its active list', async () => {
    const { c, s } = h;
    await c.cronJobs(NS).create(cronJob('susp', { schedule: '* * * * *', suspend: true }));
    expect((await s.kubectl('-n', NS, 'create', 'job', 'man2', '--from=cronjob/susp')).code).toBe(0);
    const done = formatTime(Date.now());
    await c.jobs(NS).patch('man2', 'merge', { status: { startTime: done, completionTime: done, succeeded: 1, conditions: [{ type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: done }, { type: 'Complete', status: 'True', lastTransitionTime: done }] } }, { subresource: 'status' });
    const cj = await eventually(() => c.cronJobs(NS).get('susp'), (x) => !!x.status?.lastSuccessfulTime, 'lastSuccessfulTime');
    expect(cj.status.lastSuccessfulTime).toBe(done);
    expect(cj.status.active).toBeUndefined();
  });
});

describe('cronjob controller: Replace', () => {
  it('deletes the running Job before starting the next, and says why when it cannot', async () => {
    const { c, s } = h;
    const cj0 = await c.cronJobs(NS).create(cronJob('repl', { schedule: '* * * * *', concurrencyPolicy: 'Replace' }));
    now = sinceCreation(cj0, 61_000);
    await touch('repl', 1);
    const [j1] = await eventually(() => jobsOf('repl'), (l) => l.length === 1, 'first job');
    const first = j1!.metadata!.name!;
    await eventually(() => c.cronJobs(NS).get('repl'), (x) => x.status?.active?.length === 1, 'first job active');
    // a policy refusing to delete jobs: the next run cannot replace the first
    const VAP = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies';
    expect((await s.api('POST', VAP, { metadata: { name: 'keep-jobs' }, spec: {
      matchConstraints: { resourceRules: [{ apiGroups: ['batch'], apiVersions: ['v1'], operations: ['DELETE'], resources: ['jobs'] }] },
      validations: [{ expression: 'false', message: 'jobs stay' }],
    } })).status).toBe(201);
    expect((await s.api('POST', `${VAP.replace('policies', 'policybindings')}`, { metadata: { name: 'keep-jobs' }, spec: { policyName: 'keep-jobs', validationActions: ['Deny'] } })).status).toBe(201);
    await eventually(() => s.api('DELETE', `/apis/batch/v1/namespaces/${NS}/jobs/${first}?dryRun=All`), (r) => r.status >= 400, 'the policy in force');
    now += 60_000;
    await touch('repl', 2);
    const failed = (e: KubeObject): boolean => e.reason === 'FailedDelete' && e.involvedObject?.name === 'repl';
    const events = await eventually(() => c.events(NS).list(), (l) => l.items.some(failed), 'FailedDelete');
    expect(events.items.find(failed)).toMatchObject({ type: 'Warning', message: expect.stringMatching(/^Deleted job: .*jobs stay/) });
    expect((await jobsOf('repl')).map((j) => j.metadata!.name)).toEqual([first]);
    // allowed again: the first is deleted, the next made
    expect((await s.api('DELETE', `${VAP.replace('policies', 'policybindings')}/keep-jobs`)).status).toBe(200);
    await eventually(() => s.api('DELETE', `/apis/batch/v1/namespaces/${NS}/jobs/${first}?dryRun=All`), (r) => r.status === 200, 'the policy gone');
    await touch('repl', 3);
    const [next] = await eventually(() => jobsOf('repl'), (l) => l.length === 1 && l[0]!.metadata!.name !== first, 'the replacement');
    expect((await c.cronJobs(NS).get('repl')).status.active.map((a: KubeObject) => a.name)).toEqual([next!.metadata!.name]);
    expect((await c.events(NS).list()).items.some((e) => e.reason === 'SuccessfulDelete' && e.message === `Deleted job ${first}`)).toBe(true);
  });
});
