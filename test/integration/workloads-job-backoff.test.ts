// The Job controller's pod failure backoff and the pods it holds or removes, against a real apiserver; the test plays
// the kubelet. The controller's clock runs `offset` ms ahead of real time (its timers stay real): a test moves it past
// a backoff, then touches the Job so that it syncs at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTime, realClock, type Clock } from '../../pkg/client/index.js';
import { eventually, markFinished, markReady, startHarness, type Harness } from './workloads-harness.js';

let h: Harness;
const NS = 'job-backoff';
let offset = 0;
const clock: Clock = { now: () => Date.now() + offset, setTimer: realClock.setTimer, sleep: realClock.sleep };
beforeAll(async () => {
  h = await startHarness(['job'], { clock });
  await h.c.namespaces().create({ metadata: { name: NS } });
});
afterAll(async () => { await h?.stop(); });

const TRACKING = 'batch.kubernetes.io/job-tracking';
const job = (name: string, spec: Record<string, unknown>, meta: Record<string, unknown> = {}) => ({
  apiVersion: 'batch/v1', kind: 'Job', metadata: { name },
  spec: { template: { metadata: meta, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } }, ...spec },
});
const livePods = async (name: string) => (await h.c.pods(NS).list({ labelSelector: `batch.kubernetes.io/job-name=${name}` })).items;
const getJob = (name: string) => h.c.jobs(NS).get(name);
const uidOf = (p: any): string => p.metadata.uid;
/** Moves the controller's clock on and has it sync the Job now (a Job update is synced at once). */
const later = async (name: string, ms: number) => {
  offset += ms;
  await h.c.jobs(NS).patch(name, 'merge', { metadata: { annotations: { 'test/touch': String(offset) } } });
};
/** Plays the kubelet: the pod failed with `exitCode` now, on the controller's clock. */
const failNow = async (name: string, exitCode = 1) => {
  const t = formatTime(clock.now());
  await h.c.pods(NS).patch(name, 'merge', {
    status: {
      phase: 'Failed', conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: t }],
      containerStatuses: [{ name: 'c', ready: false, restartCount: 0, image: 'busybox', imageID: '', state: { terminated: { exitCode, reason: 'Error', startedAt: t, finishedAt: t } } }],
    },
  }, { subresource: 'status' });
};
const annotation = (p: any, k: string): string | undefined => p.metadata.annotations?.[`batch.kubernetes.io/${k}`];
/** The first status the Job's watch shows after `rv` that `ok` accepts. */
const firstStatus = async (name: string, rv: string, ok: (s: any) => boolean): Promise<any> => {
  const ac = new AbortController();
  const w = await h.c.jobs(NS).watch({ signal: ac.signal, resourceVersion: rv, fieldSelector: `metadata.name=${name}` });
  const timer = setTimeout(() => ac.abort(), 20_000);
  try {
    for await (const ev of w) if (ok(ev.object.status ?? {})) return ev.object.status;
  } finally { clearTimeout(timer); w.stop(); }
  throw new Error(`no status of ${name} matched`);
};

describe('job controller: pod failure backoff', () => {
  it('a running pod deleted is a failure: its replacement waits 10 s, the next 20 s though the failed pods are gone', async () => {
    await h.c.jobs(NS).create(job('deleted', { backoffLimit: 6 }));
    const [p] = await eventually(() => livePods('deleted'), (l) => l.length === 1, 'pod');
    await h.c.pods(NS).delete(p!.metadata!.name!);
    // counted in the sync that would have created its replacement: none was
    const j1 = await eventually(() => getJob('deleted'), (j) => j.status?.failed === 1, 'failed 1');
    expect(j1.status.active).toBeUndefined();
    expect((await livePods('deleted')).filter((x) => uidOf(x) !== uidOf(p))).toEqual([]);
    await later('deleted', 11_000);
    const [q] = await eventually(() => livePods('deleted'), (l) => l.some((x) => uidOf(x) !== uidOf(p)), 'replacement after 10 s');
    await failNow(q!.metadata!.name!);
    await h.c.pods(NS).delete(q!.metadata!.name!);
    await eventually(() => getJob('deleted'), (j) => j.status?.failed === 2, 'failed 2');
    await eventually(() => livePods('deleted'), (l) => l.length === 0, 'both failed pods gone');
    // two failures in the Job's record: 11 s is not enough, 21 s is
    await later('deleted', 11_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(await livePods('deleted')).toEqual([]);
    await later('deleted', 10_000);
    await eventually(() => livePods('deleted'), (l) => l.length === 1, 'replacement after 20 s');
  });
});

describe('job controller: backoffLimitPerIndex', () => {
  it('keeps a deleted failed pod until its replacement runs, which counts its failure (upstream TestBackoffLimitPerIndex_DelayedPodDeletion)', async () => {
    await h.c.jobs(NS).create(job('held', { completionMode: 'Indexed', completions: 1, parallelism: 1, backoffLimitPerIndex: 1 }));
    const [p] = await eventually(() => livePods('held'), (l) => l.length === 1, 'pod');
    await failNow(p!.metadata!.name!);
    await eventually(() => getJob('held'), (j) => j.status?.active === undefined, 'active 0');
    await h.c.pods(NS).delete(p!.metadata!.name!);
    const deleting = await h.c.pods(NS).get(p!.metadata!.name!);
    expect(deleting.metadata!.deletionTimestamp).toBeTruthy();
    expect(deleting.metadata!.finalizers).toContain(TRACKING);
    expect((await getJob('held')).status.failed).toBeUndefined();
    await later('held', 11_000);
    const all = await eventually(() => livePods('held'), (l) => l.some((x) => uidOf(x) !== uidOf(p)), 'replacement');
    const q = all.find((x) => uidOf(x) !== uidOf(p))!;
    expect(annotation(q, 'job-index-failure-count')).toBe('1');
    // the replacement running, the failed pod is counted and released
    await eventually(() => getJob('held'), (j) => j.status?.failed === 1 && j.status?.active === 1, 'failed 1, active 1');
    await eventually(() => livePods('held'), (l) => l.length === 1, 'the deleted pod gone');
    await markFinished(h.c, NS, [q.metadata!.name!], 'Succeeded');
    const done = await eventually(() => getJob('held'), (j) => (j.status?.conditions ?? []).some((c: any) => c.type === 'Complete'), 'Complete');
    expect(done.status).toMatchObject({ failed: 1, succeeded: 1, completedIndexes: '0', failedIndexes: '' });
  });

  it('a failure an Ignore rule matches backs the index off too: 10 s, then 20 s', async () => {
    await h.c.jobs(NS).create(job('ignored', {
      completionMode: 'Indexed', completions: 1, parallelism: 1, backoffLimitPerIndex: 0,
      podFailurePolicy: { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [42] } }] },
    }));
    const [p] = await eventually(() => livePods('ignored'), (l) => l.length === 1, 'pod');
    await failNow(p!.metadata!.name!, 42);
    // the status is written after the pods are created: no replacement yet
    await eventually(() => getJob('ignored'), (j) => j.status?.active === undefined, 'active 0');
    expect((await livePods('ignored')).map(uidOf)).toEqual([uidOf(p)]);
    await later('ignored', 11_000);
    const second = await eventually(() => livePods('ignored'), (l) => l.some((x) => uidOf(x) !== uidOf(p)), 'second pod');
    const q = second.find((x) => uidOf(x) !== uidOf(p))!;
    expect([annotation(q, 'job-index-failure-count'), annotation(q, 'job-index-ignored-failure-count')]).toEqual(['0', '1']);
    // the first pod, no more held once the second ran, is released (uncounted: its failure was ignored)
    await eventually(() => h.c.pods(NS).get(p!.metadata!.name!), (x) => !x.metadata!.finalizers?.includes(TRACKING), 'the first pod released');
    await failNow(q.metadata!.name!, 42);
    await eventually(() => getJob('ignored'), (j) => j.status?.active === undefined, 'active 0 again');
    await later('ignored', 11_000);
    await new Promise((r) => setTimeout(r, 500));
    expect((await livePods('ignored')).map(uidOf).sort()).toEqual([uidOf(p), uidOf(q)].sort());
    await later('ignored', 10_000);
    const third = await eventually(() => livePods('ignored'), (l) => l.some((x) => x.status?.phase !== 'Failed'), 'third pod after 20 s');
    expect(annotation(third.find((x) => x.status?.phase !== 'Failed'), 'job-index-ignored-failure-count')).toBe('2');
    expect((await getJob('ignored')).status.failed).toBeUndefined();
  });
});

describe('job controller: pods it removes', () => {
  it('counts the pods a scale-down or suspend deletes as terminating, and no more ready, in the same status', async () => {
    // a finalizer of someone else's keeps the deleted pods terminating
    await h.c.jobs(NS).create(job('shrink', { parallelism: 2, completions: 4 }, { finalizers: ['example.com/hold'] }));
    const pods = await eventually(() => livePods('shrink'), (l) => l.length === 2, '2 pods');
    await markReady(h.c, NS, pods.map((p) => p.metadata!.name!));
    const ready = await eventually(() => getJob('shrink'), (j) => j.status?.ready === 2, 'ready 2');
    const scaled = await h.c.jobs(NS).patch('shrink', 'merge', { spec: { parallelism: 1 } });
    const s1 = await firstStatus('shrink', ready.metadata!.resourceVersion!, (s) => s.active === 1);
    expect([s1.active, s1.ready, s1.terminating]).toEqual([1, 1, 1]);
    await h.c.jobs(NS).patch('shrink', 'merge', { spec: { suspend: true } });
    const s2 = await firstStatus('shrink', scaled.metadata!.resourceVersion!, (s) => (s.conditions ?? []).some((c: any) => c.type === 'Suspended'));
    expect([s2.active, s2.ready, s2.terminating]).toEqual([undefined, 0, 2]);
    for (const p of await livePods('shrink')) await h.c.pods(NS).patch(p.metadata!.name!, 'merge', { metadata: { finalizers: null } });
  });
});

describe('job controller: Indexed pods', () => {
  it('a long job name keeps `-<index>-` in its pods\' names; each pod is the host `<job>-<index>`, whatever the template says', async () => {
    const name = `long-${'x'.repeat(55)}`;
    const indexed = { completionMode: 'Indexed', completions: 1 };
    await h.c.jobs(NS).create(job(name, indexed));
    const [p] = await eventually(() => livePods(name), (l) => l.length === 1, 'pod of the long-named job');
    // the 58 characters of a generated name's prefix: 55 of the job's, then -0-
    expect(p!.metadata!.name).toMatch(new RegExp(`^${name.slice(0, 55)}-0-[a-z0-9]{5}$`));
    const own = job('named', indexed);
    (own.spec.template.spec as Record<string, unknown>).hostname = 'mine';
    await h.c.jobs(NS).create(own);
    const [q] = await eventually(() => livePods('named'), (l) => l.length === 1, 'pod');
    expect(q!.spec.hostname).toBe('named-0');
  });
});
