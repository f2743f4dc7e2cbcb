// The Job controller while its Jobs go away (with the garbage collector, as `mini-kube up` runs them): the
// job-tracking finalizer leaves the pods of a deleted, orphaning or being-deleted Job, a Job being deleted starts
// no pod, and a Job whose pods cannot be created still has its status written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Resources } from '../../pkg/client/index.js';
import { eventually, markReady, startHarness, type Harness } from './workloads-harness.js';

const NS = 'jobdel';
const FINALIZER = 'batch.kubernetes.io/job-tracking';
const podSpec = { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] };

let h: Harness;
beforeAll(async () => {
  h = await startHarness(['job', 'garbagecollector'], {
    // a pod left by a Job deleted while no controller ran: it has the finalizer and is being deleted
    seed: async (c) => {
      await c.namespaces().create({ metadata: { name: NS } });
      await c.pods(NS).create({
        metadata: {
          name: 'left-behind', finalizers: [FINALIZER],
          ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'gone', uid: '6a1f7c2e-0000-4000-8000-000000000001', controller: true }],
        },
        spec: podSpec,
      });
      await c.pods(NS).delete('left-behind');
    },
  });
}, 30_000);
afterAll(async () => { await h?.stop(); });

const job = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'batch/v1', kind: 'Job', metadata: { name }, spec: { template: { spec: podSpec }, ...spec },
});
const podsOf = async (name: string) => (await h.c.pods(NS).list({ labelSelector: `batch.kubernetes.io/job-name=${name}` })).items;
const jobEvents = async (name: string) => (await h.c.events(NS).list()).items
  .filter((e) => e.involvedObject.kind === 'Job' && e.involvedObject.name === name).map((e) => `${e.type} ${e.reason}`);
const gone = (e: unknown) => (e as { code?: number })?.code === 404;

describe('job controller: deleted and orphaned Jobs', () => {
  it('releases at start the pod of a Job deleted while it was not running', async () => {
    await eventually(() => h.c.pods(NS).get('left-behind'), gone, 'left-behind pod gone');
  });

  it('background cascade: the pods of a deleted Job lose the finalizer and go', async () => {
    await h.c.jobs(NS).create(job('bg', { parallelism: 2 }));
    const pods = await eventually(() => podsOf('bg'), (l) => l.length === 2, '2 pods');
    await markReady(h.c, NS, pods.map((p) => p.metadata!.name!));
    await h.c.jobs(NS).delete('bg', { propagationPolicy: 'Background' });
    await eventually(() => podsOf('bg'), (l) => l.length === 0, 'pods of the deleted Job gone');
  });

  it('orphaning (as the garbage collector does for --cascade=orphan): the pod stays, without the finalizer', async () => {
    await h.c.jobs(NS).create(job('orph'));
    const [pod] = await eventually(() => podsOf('orph'), (l) => l.length === 1, '1 pod');
    const name = pod!.metadata!.name!;
    // labels the Job's selector no longer matches, so it does not adopt the pod again
    await h.c.pods(NS).patch(name, 'merge', { metadata: { ownerReferences: null, labels: { 'batch.kubernetes.io/controller-uid': 'other', 'controller-uid': 'other' } } });
    const left = await eventually(() => h.c.pods(NS).get(name), (p) => !gone(p) && !(p.metadata?.finalizers ?? []).includes(FINALIZER), 'orphaned pod released');
    expect(left.metadata!.deletionTimestamp).toBeUndefined();
  });

  it('a delete without a policy (the Python client\'s delete_namespaced_job) orphans: the pods keep running, ownerless and released', async () => {
    await h.c.jobs(NS).create(job('plain', { parallelism: 2 }));
    const pods = await eventually(() => podsOf('plain'), (l) => l.length === 2, '2 pods');
    await markReady(h.c, NS, pods.map((p) => p.metadata!.name!));
    await h.c.jobs(NS).delete('plain');
    await eventually(() => h.c.jobs(NS).get('plain'), gone, 'Job gone');
    const left = await eventually(() => podsOf('plain'),
      (l) => l.length === 2 && l.every((p) => !p.metadata?.ownerReferences?.length && !(p.metadata?.finalizers ?? []).includes(FINALIZER)), 'pods orphaned and released');
    expect(left.map((p) => p.metadata!.deletionTimestamp)).toEqual([undefined, undefined]);
  });

  it('kubectl delete job still cascades: it sends propagationPolicy=Background, and is not warned', async () => {
    await h.c.jobs(NS).create(job('by-kubectl', { parallelism: 2 }));
    await eventually(() => podsOf('by-kubectl'), (l) => l.length === 2, '2 pods');
    const r = await h.s.kubectl('delete', 'job', 'by-kubectl', '-n', NS);
    expect([r.code, r.stderr]).toEqual([0, '']);
    await eventually(() => podsOf('by-kubectl'), (l) => l.length === 0, 'pods of the deleted Job gone');
  });

  it('foreground cascade: a Job being deleted starts no pod and is not failed by its deleted pods', async () => {
    await h.c.jobs(NS).create(job('fg', { backoffLimit: 1 }));
    await eventually(() => podsOf('fg'), (l) => l.length === 1, '1 pod');
    await h.c.jobs(NS).delete('fg', { propagationPolicy: 'Foreground' });
    await eventually(() => h.c.jobs(NS).get('fg'), gone, 'Job gone');
    expect(await podsOf('fg')).toEqual([]);
    const events = await jobEvents('fg');
    expect(events.filter((e) => e === 'Normal SuccessfulCreate')).toHaveLength(1);
    expect(events).not.toContain('Warning BackoffLimitExceeded');
  });
});

describe('job controller: pods that cannot be created', () => {
  it('writes the status (startTime) of a Job whose pod creation a quota refuses, and reports FailedCreate', async () => {
    const ns = 'jobquota';
    await h.c.namespaces().create({ metadata: { name: ns } });
    await h.c.resource(Resources.resourceQuotas, ns).create({ metadata: { name: 'no-pods' }, spec: { hard: { pods: '0' } } });
    await h.c.jobs(ns).create(job('starved'));
    const j = await eventually(() => h.c.jobs(ns).get('starved'), (x) => !!x.status?.startTime, 'startTime written');
    expect(j.status).toMatchObject({ ready: 0, terminating: 0, uncountedTerminatedPods: {} });
    expect(j.status.active).toBeUndefined();
    const events = (await h.c.events(ns).list()).items.filter((e) => e.involvedObject.name === 'starved').map((e) => e.reason);
    expect(events).toContain('FailedCreate');
  });
});
