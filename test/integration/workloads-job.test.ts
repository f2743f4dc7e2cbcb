// The Job and ttl-after-finished controllers against a real apiserver; the test plays the kubelet by writing pod
// phases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTime } from '../../pkg/client/index.js';
import { eventually, markFinished, startHarness, type Harness } from './workloads-harness.js';

let h: Harness;
const NS = 'jobs';
beforeAll(async () => {
  h = await startHarness(['job', 'ttl-after-finished']);
  await h.c.namespaces().create({ metadata: { name: NS } });
});
afterAll(async () => { await h?.stop(); });

const job = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'batch/v1', kind: 'Job', metadata: { name },
  spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } }, ...spec },
});
const livePods = async (name: string) => (await h.c.pods(NS).list({ labelSelector: `batch.kubernetes.io/job-name=${name}` })).items;
const cond = (j: any, type: string) => (j.status?.conditions ?? []).find((c: any) => c.type === type && c.status === 'True');
const jobEvents = async (name: string) => (await h.c.events(NS).list()).items
  .filter((e) => e.involvedObject.kind === 'Job' && e.involvedObject.name === name).map((e) => `${e.type} ${e.reason} ${e.message}`);

describe('job controller', () => {
  it('runs completions with parallelism and completes when pods succeed (kubectl create job)', async () => {
    const { s, c } = h;
    await c.jobs(NS).create(job('pi', { completions: 3, parallelism: 2 }));
    const first = await eventually(() => livePods('pi'), (l) => l.length === 2, '2 pods');
    const p0 = first[0]!;
    expect(p0.metadata!.finalizers).toContain('batch.kubernetes.io/job-tracking');
    expect(p0.metadata!.ownerReferences?.[0]).toMatchObject({ kind: 'Job', name: 'pi', controller: true });
    expect(p0.metadata!.name).toMatch(/^pi-/);
    await markFinished(c, NS, first.map((p) => p.metadata!.name!), 'Succeeded');
    const third = await eventually(() => livePods('pi'), (l) => l.filter((p) => p.status?.phase !== 'Succeeded').length === 1, 'third pod');
    await markFinished(c, NS, third.filter((p) => p.status?.phase !== 'Succeeded').map((p) => p.metadata!.name!), 'Succeeded');
    const done = await eventually(() => c.jobs(NS).get('pi'), (j) => !!cond(j, 'Complete'), 'Complete');
    // counts of 0 are left out, as upstream's JobStatus serializes them (omitempty)
    expect(done.status).toMatchObject({ succeeded: 3 });
    expect([done.status.failed, done.status.active]).toEqual([undefined, undefined]);
    expect(cond(done, 'SuccessCriteriaMet')).toMatchObject({ reason: 'CompletionsReached' });
    expect(done.status.completionTime).toBeTruthy();
    const pods = await livePods('pi');
    expect(pods.every((p) => !(p.metadata!.finalizers ?? []).includes('batch.kubernetes.io/job-tracking'))).toBe(true);
    const wait = await s.kubectl('-n', NS, 'wait', '--for=condition=complete', 'job/pi', '--timeout=5s');
    expect(wait.code).toBe(0);
    const kc = await s.kubectl('-n', NS, 'create', 'job', 'hello', '--image=busybox');
    expect(kc.code).toBe(0);
    await eventually(() => livePods('hello'), (l) => l.length === 1, 'kubectl-created job runs a pod');
  });

  it('fails with BackoffLimitExceeded when more pods fail than backoffLimit', async () => {
    const { c } = h;
    await c.jobs(NS).create(job('bad', { completions: 3, parallelism: 3, backoffLimit: 1 }));
    const pods = await eventually(() => livePods('bad'), (l) => l.length === 3, '3 pods');
    await markFinished(c, NS, pods.slice(0, 2).map((p) => p.metadata!.name!), 'Failed');
    const failed = await eventually(() => c.jobs(NS).get('bad'), (j) => !!cond(j, 'Failed'), 'Failed');
    expect(cond(failed, 'Failed')).toMatchObject({ reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' });
    expect(cond(failed, 'FailureTarget')).toMatchObject({ reason: 'BackoffLimitExceeded' });
    expect(failed.status.failed).toBe(3);
    expect(failed.status.active).toBeUndefined();
    await eventually(() => livePods('bad'), (l) => l.filter((p) => p.status?.phase !== 'Failed').length === 0, 'running pod removed');
  });

  it('restartPolicy OnFailure: container restarts of running pods reaching backoffLimit fail the Job and delete its pods', async () => {
    const { c } = h;
    const spec = (extra: Record<string, unknown>) => ({
      template: { spec: { restartPolicy: 'OnFailure', initContainers: [{ name: 'i', image: 'busybox' }], containers: [{ name: 'c', image: 'busybox' }] } }, ...extra,
    });
    /** Plays the kubelet: running and ready, the init container having restarted `init` times and the container `main` times. */
    const restarted = (name: string, init: number, main: number) => {
      const t = formatTime(Date.now());
      return c.pods(NS).patch(name, 'merge', {
        status: {
          phase: 'Running', startTime: t, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: t }],
          initContainerStatuses: [{ name: 'i', ready: true, restartCount: init, image: 'busybox', imageID: '', state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: t, finishedAt: t } } }],
          containerStatuses: [{ name: 'c', ready: true, restartCount: main, image: 'busybox', imageID: '', state: { running: { startedAt: t } } }],
        },
      }, { subresource: 'status' });
    };
    await c.jobs(NS).create({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'crashy' }, spec: spec({ backoffLimit: 2 }) });
    const [p] = await eventually(() => livePods('crashy'), (l) => l.length === 1, 'pod');
    // no pod has finished, yet the status carries the empty uncountedTerminatedPods, as upstream's syncJob writes it
    const running = await eventually(() => c.jobs(NS).get('crashy'), (j) => j.status?.active === 1, 'active 1');
    expect(running.status.uncountedTerminatedPods).toEqual({});
    // one restart is below the limit: the Job counts the pod ready and carries on
    await restarted(p!.metadata!.name!, 0, 1);
    const below = await eventually(() => c.jobs(NS).get('crashy'), (j) => j.status?.ready === 1, 'ready 1');
    expect(condTypes(below)).toEqual([]);
    // init and main containers' restarts add up to the limit
    await restarted(p!.metadata!.name!, 1, 1);
    const failed = await eventually(() => c.jobs(NS).get('crashy'), (j) => !!cond(j, 'Failed'), 'Failed');
    expect(condTypes(failed)).toEqual(['FailureTarget', 'Failed']);
    expect(cond(failed, 'FailureTarget')).toMatchObject({ reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' });
    expect(cond(failed, 'Failed')).toMatchObject({ reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' });
    expect(failed.status).toMatchObject({ failed: 1, uncountedTerminatedPods: {} });
    expect(failed.status.active).toBeUndefined();
    await eventually(() => livePods('crashy'), (l) => l.length === 0, 'the pod deleted');
    expect(await jobEvents('crashy')).toContain(`Normal SuccessfulDelete Deleted pod: ${p!.metadata!.name}`);

    // with backoffLimitPerIndex, backoffLimit defaults to MaxInt32: restarts alone never fail the Job
    await c.jobs(NS).create({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'crashy-idx' }, spec: spec({ completionMode: 'Indexed', completions: 1, backoffLimitPerIndex: 0 }) });
    const [q] = await eventually(() => livePods('crashy-idx'), (l) => l.length === 1, 'indexed pod');
    await restarted(q!.metadata!.name!, 3, 4);
    const idx = await eventually(() => c.jobs(NS).get('crashy-idx'), (j) => j.status?.ready === 1, 'indexed ready 1');
    expect(condTypes(idx)).toEqual([]);
    expect(idx.spec.backoffLimit).toBe(2147483647);
  });

  it('counts failed pods deleted at once (kubectl delete): the tracking finalizer holds each until counted, and backoffLimit holds', async () => {
    const { s, c } = h;
    await c.jobs(NS).create(job('flaky', { backoffLimit: 1 }));
    const failedNames = new Set<string>();
    for (let attempt = 0; attempt < 2; attempt++) {
      const isNew = (x: { metadata?: { name?: string } }): boolean => !failedNames.has(x.metadata!.name!);
      const pods = await eventually(() => livePods('flaky'), (l) => l.some(isNew), `pod of attempt ${attempt + 1}`);
      const name = pods.find(isNew)!.metadata!.name!;
      failedNames.add(name);
      // finished a minute ago: the Job's pod backoff (10 s after the first failure) is over
      await failLongAgo(name);
      const del = await s.kubectl('-n', NS, 'delete', 'pod', name, '--wait=false');
      expect(del.code).toBe(0);
    }
    const failed = await eventually(() => c.jobs(NS).get('flaky'), (j) => !!cond(j, 'Failed'), 'Failed');
    expect(cond(failed, 'Failed')).toMatchObject({ reason: 'BackoffLimitExceeded' });
    expect(failed.status).toMatchObject({ failed: 2 });
    expect(failed.status.active).toBeUndefined();
    expect(failed.status.uncountedTerminatedPods?.failed ?? []).toEqual([]);
    // counted, the pods lose the finalizer and leave the API
    await eventually(() => livePods('flaky'), (l) => l.length === 0, 'deleted pods gone');
    const out = await s.kubectl('-n', NS, 'get', 'job', 'flaky');
    expect(out.stdout).toMatch(/flaky\s+Failed\s+0\/1/);
  });

  it('podFailurePolicy FailJob, activeDeadlineSeconds, Indexed completion and ttlSecondsAfterFinished', async () => {
    const { c } = h;
    await c.jobs(NS).create(job('pfp', { backoffLimit: 6, podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [1] } }] } }));
    const [p] = await eventually(() => livePods('pfp'), (l) => l.length === 1, 'pod');
    await markFinished(c, NS, [p!.metadata!.name!], 'Failed');
    const j1 = await eventually(() => c.jobs(NS).get('pfp'), (j) => !!cond(j, 'Failed'), 'failed by policy');
    expect(cond(j1, 'Failed').reason).toBe('PodFailurePolicy');

    await c.jobs(NS).create(job('slow', { activeDeadlineSeconds: 1 }));
    const j2 = await eventually(() => c.jobs(NS).get('slow'), (j) => !!cond(j, 'Failed'), 'deadline', 10_000);
    expect(cond(j2, 'Failed').reason).toBe('DeadlineExceeded');
    // the pod it created is deleted at the deadline, with its event
    const slowEvents = await eventually(() => jobEvents('slow'), (l) => l.some((e) => e.startsWith('Normal SuccessfulDelete ')), 'the deletion event');
    const slowPod = slowEvents.find((e) => e.startsWith('Normal SuccessfulCreate '))!.replace('Normal SuccessfulCreate Created pod: ', '');
    expect(slowEvents).toContain(`Normal SuccessfulDelete Deleted pod: ${slowPod}`);

    await c.jobs(NS).create(job('idx', { completions: 3, parallelism: 3, completionMode: 'Indexed', ttlSecondsAfterFinished: 1 }));
    const ipods = await eventually(() => livePods('idx'), (l) => l.length === 3, '3 indexed pods');
    expect(ipods.map((q) => q.metadata!.annotations!['batch.kubernetes.io/job-completion-index']).sort()).toEqual(['0', '1', '2']);
    expect(ipods.find((q) => q.metadata!.labels!['batch.kubernetes.io/job-completion-index'] === '1')!.spec.hostname).toBe('idx-1');
    await markFinished(c, NS, ipods.map((q) => q.metadata!.name!), 'Succeeded');
    const j3 = await eventually(() => c.jobs(NS).get('idx'), (j) => !!cond(j, 'Complete'), 'indexed complete');
    expect(j3.status.completedIndexes).toBe('0-2');
    // ttl: deleted 1 s after it finished (foreground: the GC, not running here, would remove the pods first)
    await eventually(() => c.jobs(NS).get('idx'), (j) => !!(j as any).metadata?.deletionTimestamp || (j as any)?.code === 404, 'ttl deletion', 10_000);
  });

  it('suspend deletes the active pods and resume restarts them, with upstream\'s events', async () => {
    const { c } = h;
    await c.jobs(NS).create(job('sus', { parallelism: 2, completions: 2 }));
    const running = await eventually(() => livePods('sus'), (l) => l.length === 2, '2 pods');
    await c.jobs(NS).patch('sus', 'merge', { spec: { suspend: true } });
    const s1 = await eventually(() => c.jobs(NS).get('sus'), (j) => !!cond(j, 'Suspended') && j.status?.active === undefined, 'suspended');
    expect(cond(s1, 'Suspended').reason).toBe('JobSuspended');
    await eventually(() => livePods('sus'), (l) => l.length === 0, 'pods gone');
    // as upstream's syncJob and PodControl.DeletePod record them (kubectl describe job shows these)
    const deleted = running.map((p) => `Normal SuccessfulDelete Deleted pod: ${p.metadata!.name}`);
    const suspendEvents = await eventually(() => jobEvents('sus'), (l) => deleted.every((d) => l.includes(d)) && l.includes('Normal Suspended Job suspended'), 'events');
    expect(suspendEvents.filter((e) => e.includes('Suspended'))).toEqual(['Normal Suspended Job suspended']);
    await c.jobs(NS).patch('sus', 'merge', { spec: { suspend: false } });
    await eventually(() => livePods('sus'), (l) => l.length === 2, 'pods back');
    await eventually(() => jobEvents('sus'), (l) => l.includes('Normal Resumed Job resumed'), 'resumed event');

    // created suspended: the condition and the event, no pod
    await c.jobs(NS).create(job('born-suspended', { suspend: true }));
    await eventually(() => c.jobs(NS).get('born-suspended'), (j) => !!cond(j, 'Suspended'), 'suspended at creation');
    await eventually(() => jobEvents('born-suspended'), (l) => l.includes('Normal Suspended Job suspended'), 'Suspended event');
    expect(await livePods('born-suspended')).toEqual([]);
  });
});

/** Plays the kubelet: the pod failed with `exitCode` a minute ago (so no pod backoff is pending). */
const failLongAgo = async (name: string, exitCode = 1) => {
  const t = new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
  await h.c.pods(NS).patch(name, 'merge', {
    status: {
      phase: 'Failed', conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: t }],
      containerStatuses: [{ name: 'c', ready: false, restartCount: 0, image: 'busybox', imageID: '', state: { terminated: { exitCode, reason: 'Error', startedAt: t, finishedAt: t } } }],
    },
  }, { subresource: 'status' });
};
const ofIndex = (pods: any[], ix: number) => pods.filter((p) => p.metadata.annotations['batch.kubernetes.io/job-completion-index'] === String(ix));
const condTypes = (j: any) => (j.status?.conditions ?? []).map((x: any) => x.type);

describe('job controller: per-index backoff, podReplacementPolicy, managedBy', () => {
  it('backoffLimitPerIndex retries an index, then fails it; the job fails with FailedIndexes once every index is done', async () => {
    const { c } = h;
    await c.jobs(NS).create(job('pi-idx', { completions: 3, parallelism: 3, completionMode: 'Indexed', backoffLimitPerIndex: 1 }));
    const first = await eventually(() => livePods('pi-idx'), (l) => l.length === 3, '3 pods');
    expect(ofIndex(first, 0)[0].metadata.annotations['batch.kubernetes.io/job-index-failure-count']).toBe('0');
    await failLongAgo(ofIndex(first, 0)[0].metadata.name);
    const second = await eventually(() => livePods('pi-idx'), (l) => ofIndex(l, 0).length === 2, 'index 0 retried');
    const retry = ofIndex(second, 0).find((p) => p.status?.phase !== 'Failed');
    expect(retry.metadata.annotations['batch.kubernetes.io/job-index-failure-count']).toBe('1');
    await failLongAgo(retry.metadata.name);
    // the failed index and the failure count may reach status in two syncs under load
    await eventually(() => c.jobs(NS).get('pi-idx'), (j) => j.status?.failedIndexes === '0' && j.status?.failed === 2, 'index 0 failed, twice');
    expect(ofIndex(await livePods('pi-idx'), 0)).toHaveLength(2);
    await markFinished(c, NS, [...ofIndex(first, 1), ...ofIndex(first, 2)].map((p) => p.metadata.name), 'Succeeded');
    const j2 = await eventually(() => c.jobs(NS).get('pi-idx'), (j) => !!cond(j, 'Failed'), 'Failed');
    expect(cond(j2, 'Failed')).toMatchObject({ reason: 'FailedIndexes', message: 'Job has failed indexes' });
    expect(condTypes(j2)).toEqual(['FailureTarget', 'Failed']);
    expect(j2.status).toMatchObject({ completedIndexes: '1,2', failedIndexes: '0', succeeded: 2, failed: 2 });
  });

  it('a FailIndex rule fails its index at once; more failed indexes than maxFailedIndexes fail the job', async () => {
    const { c } = h;
    await c.jobs(NS).create(job('fail-idx', {
      completions: 2, parallelism: 2, completionMode: 'Indexed', backoffLimitPerIndex: 3, maxFailedIndexes: 0,
      podFailurePolicy: { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [42] } }] },
    }));
    const pods = await eventually(() => livePods('fail-idx'), (l) => l.length === 2, '2 pods');
    await failLongAgo(ofIndex(pods, 1)[0].metadata.name, 42);
    const j = await eventually(() => c.jobs(NS).get('fail-idx'), (x) => !!cond(x, 'Failed'), 'Failed');
    expect(cond(j, 'Failed')).toMatchObject({ reason: 'MaxFailedIndexesExceeded', message: 'Job has exceeded the specified maximal number of failed indexes' });
    expect(condTypes(j)).toEqual(['FailureTarget', 'Failed']);
    expect(j.status.failedIndexes).toBe('1');
    await eventually(() => livePods('fail-idx'), (l) => ofIndex(l, 0).every((p) => p.metadata.deletionTimestamp || p.status?.phase === 'Failed'), 'index 0 pod removed');
  });

  it('podReplacementPolicy Failed waits for a terminating pod to fail before replacing it', async () => {
    const { c } = h;
    await c.jobs(NS).create(job('repl', { podReplacementPolicy: 'Failed' }));
    const [p] = await eventually(() => livePods('repl'), (l) => l.length === 1, 'pod');
    await c.pods(NS).delete(p!.metadata!.name!);
    await eventually(() => c.jobs(NS).get('repl'), (j) => j.status?.terminating === 1 && j.status?.active === undefined, 'terminating counted');
    expect(await livePods('repl')).toHaveLength(1);
    await failLongAgo(p!.metadata!.name!);
    await eventually(() => livePods('repl'), (l) => l.some((q) => q.metadata!.uid !== p!.metadata!.uid), 'replacement');
    await eventually(() => c.jobs(NS).get('repl'), (j) => j.status?.failed === 1 && j.status?.active === 1 && j.status?.terminating === 0, 'failed 1, active 1');
  });

  it('a successPolicy met deletes the other pods; the Job is Complete only once none is left terminating', async () => {
    const { c } = h;
    await c.jobs(NS).create(job('sp', { completionMode: 'Indexed', completions: 2, parallelism: 2, successPolicy: { rules: [{ succeededIndexes: '0' }] } }));
    const pods = await eventually(() => livePods('sp'), (l) => l.length === 2, '2 pods');
    const index = (p: any): string => p.metadata.annotations['batch.kubernetes.io/job-completion-index'];
    const other = pods.find((p) => index(p) === '1')!;
    // a finalizer of someone else's keeps index 1's pod terminating once deleted
    await c.pods(NS).patch(other.metadata!.name!, 'merge', { metadata: { finalizers: [...other.metadata!.finalizers!, 'example.com/hold'] } });
    await markFinished(c, NS, [pods.find((p) => index(p) === '0')!.metadata!.name!], 'Succeeded');
    const met = await eventually(() => c.jobs(NS).get('sp'), (j) => !!cond(j, 'SuccessCriteriaMet') && j.status?.terminating === 1, 'SuccessCriteriaMet, 1 terminating');
    expect(cond(met, 'SuccessCriteriaMet')).toMatchObject({ reason: 'SuccessPolicy', message: 'Matched rules at index 0' });
    expect(cond(met, 'Complete')).toBeUndefined();
    await new Promise((r) => setTimeout(r, 300));
    expect(cond(await c.jobs(NS).get('sp'), 'Complete')).toBeUndefined();
    const held = await c.pods(NS).get(other.metadata!.name!);
    expect(held.metadata!.deletionTimestamp).toBeTruthy();
    await c.pods(NS).patch(other.metadata!.name!, 'merge', { metadata: { finalizers: (held.metadata!.finalizers ?? []).filter((f) => f !== 'example.com/hold') } });
    const done = await eventually(() => c.jobs(NS).get('sp'), (j) => !!cond(j, 'Complete'), 'Complete');
    expect(done.status.terminating).toBe(0);
  });

  it('leaves a Job managed by another controller alone', async () => {
    const { c } = h;
    await c.jobs(NS).create(job('external', { managedBy: 'example.com/other' }));
    await c.jobs(NS).create(job('internal', {}));
    await eventually(() => c.jobs(NS).get('internal'), (j) => j.status?.active === 1, 'the other job runs');
    expect(await livePods('external')).toHaveLength(0);
    expect((await c.jobs(NS).get('external')).status ?? {}).toEqual({});
  });
});
