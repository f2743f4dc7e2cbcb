// The ReplicaSet and ReplicationController controllers against a real apiserver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, markReady, startHarness, type Harness } from './workloads-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness(['replicaset', 'replicationcontroller']);
  await h.c.namespaces().create({ metadata: { name: 'rs' } });
});
afterAll(async () => { await h?.stop(); });

const rs = (name: string, replicas: number, app: string) => ({
  apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name },
  spec: { replicas, selector: { matchLabels: { app } }, template: { metadata: { labels: { app } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
});

describe('replicaset controller', () => {
  it('creates, scales and reports status; adopts orphans and releases non-matching pods', async () => {
    const { c } = h;
    await c.replicaSets('rs').create(rs('web', 3, 'web'));
    const pods = await eventually(() => c.pods('rs').list({ labelSelector: 'app=web' }), (l) => l.items.length === 3, '3 pods');
    for (const p of pods.items) {
      expect(p.metadata!.name).toMatch(/^web-[a-z0-9]{5}$/);
      expect(p.metadata!.ownerReferences?.[0]).toMatchObject({ kind: 'ReplicaSet', name: 'web', controller: true, blockOwnerDeletion: true });
    }
    await markReady(c, 'rs', pods.items.map((p) => p.metadata!.name!));
    await eventually(() => c.replicaSets('rs').get('web'), (x) => x.status?.readyReplicas === 3 && x.status?.availableReplicas === 3 && x.status?.fullyLabeledReplicas === 3 && x.status?.observedGeneration === x.metadata?.generation, 'status');

    // scale down keeps the ready pods, deletes the unready one first
    await c.replicaSets('rs').scale('web', 5);
    const five = await eventually(() => c.pods('rs').list({ labelSelector: 'app=web' }), (l) => l.items.filter((p) => !p.metadata?.deletionTimestamp).length === 5, '5 pods');
    const ready = pods.items.map((p) => p.metadata!.name!).sort();
    await c.replicaSets('rs').scale('web', 3);
    await eventually(() => c.pods('rs').list({ labelSelector: 'app=web' }), (l) => l.items.filter((p) => !p.metadata?.deletionTimestamp).map((p) => p.metadata!.name!).sort().join() === ready.join(), 'the 3 ready pods kept');
    expect(five.items.length).toBeGreaterThanOrEqual(5);

    // release: a pod relabelled out of the selector loses its owner and is replaced
    const victim = ready[0]!;
    await c.pods('rs').patch(victim, 'merge', { metadata: { labels: { app: 'other' } } });
    await eventually(() => c.pods('rs').get(victim), (p) => !p.metadata?.ownerReferences?.length, 'released');
    await eventually(() => c.pods('rs').list({ labelSelector: 'app=web' }), (l) => l.items.filter((p) => !p.metadata?.deletionTimestamp).length === 3, 'replaced');
    // adopt: relabelled back it is adopted, and one pod goes
    await c.pods('rs').patch(victim, 'merge', { metadata: { labels: { app: 'web' } } });
    await eventually(() => c.pods('rs').get(victim), (p) => p.metadata?.ownerReferences?.[0]?.name === 'web', 'adopted');
    await eventually(() => c.pods('rs').list({ labelSelector: 'app=web' }), (l) => l.items.filter((p) => !p.metadata?.deletionTimestamp).length === 3, 'back to 3');
    const events = await c.events('rs').list();
    // One event per pod, named, as upstream's RealPodControl records them (kubectl describe rs shows these).
    const created = events.items.filter((e) => e.reason === 'SuccessfulCreate' && e.involvedObject.name === 'web').map((e) => e.message);
    expect(created).toEqual(expect.arrayContaining(pods.items.map((p) => `Created pod: ${p.metadata!.name}`)));
    expect(events.items.some((e) => e.reason === 'SuccessfulDelete')).toBe(true);
  });

  it('replicationcontroller through the same code', async () => {
    const { c } = h;
    await c.resource({ group: '', version: 'v1', resource: 'replicationcontrollers', namespaced: true, kind: 'ReplicationController' }, 'rs').create({
      apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'old' },
      spec: { replicas: 2, selector: { app: 'old' }, template: { metadata: { labels: { app: 'old' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    const l = await eventually(() => h.c.pods('rs').list({ labelSelector: 'app=old' }), (x) => x.items.length === 2, '2 pods');
    expect(l.items[0]!.metadata!.ownerReferences?.[0]).toMatchObject({ kind: 'ReplicationController', apiVersion: 'v1' });
  });

  it('writes status as upstream serializes it: replicas always, the other counts only when not 0', async () => {
    const { c } = h;
    await c.replicaSets('rs').create(rs('none', 0, 'none'));
    const x = await eventually(() => c.replicaSets('rs').get('none'), (r) => r.status?.observedGeneration === 1, 'status');
    expect(x.status).toEqual({ replicas: 0, observedGeneration: 1 });
  });

  it('a scale-down ranks pods by the pods of the sets with the same controller on their node, not by every pod there', async () => {
    const { c } = h;
    const owner = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'spread', uid: '6f1c3a52-0d1e-4f38-9d0e-5a2b7c9e1f00', controller: true };
    const set = (name: string, replicas: number, rev: string) => ({
      apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name, ownerReferences: [owner] },
      spec: { replicas, selector: { matchLabels: { app: 'spread', rev } }, template: { metadata: { labels: { app: 'spread', rev } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    // orphans the sets adopt: a-1 alone on n1 with two pods of another workload, a-2 on n2 beside its sibling set's b-1
    const t = '2024-01-01T00:00:00Z';
    const place = [['a-1', 'n1', { app: 'spread', rev: 'a' }], ['a-2', 'n2', { app: 'spread', rev: 'a' }], ['b-1', 'n2', { app: 'spread', rev: 'b' }],
      ['other-1', 'n1', { app: 'other' }], ['other-2', 'n1', { app: 'other' }]] as const;
    for (const [name, nodeName, labels] of place) {
      await c.pods('rs').create({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { nodeName, containers: [{ name: 'c', image: 'nginx' }] } });
      await c.pods('rs').patch(name, 'merge', { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: t }] } }, { subresource: 'status' });
    }
    await c.replicaSets('rs').create(set('spread-a', 2, 'a'));
    await c.replicaSets('rs').create(set('spread-b', 1, 'b'));
    await eventually(() => c.replicaSets('rs').get('spread-a'), (x) => x.status?.readyReplicas === 2, 'a-1 and a-2 adopted');
    await eventually(() => c.replicaSets('rs').get('spread-b'), (x) => x.status?.readyReplicas === 1, 'b-1 adopted');
    await c.replicaSets('rs').scale('spread-a', 1);
    // n2 holds two pods of the Deployment's sets, n1 one (other-1 and other-2 are not related): a-2 goes
    const after = await eventually(() => c.pods('rs').list({ labelSelector: 'rev=a' }),
      (l) => l.items.filter((p) => !p.metadata?.deletionTimestamp).length === 1, 'one of a-1, a-2 deleted');
    expect(after.items.filter((p) => !p.metadata?.deletionTimestamp).map((p) => p.metadata!.name)).toEqual(['a-1']);
  });

  it('a create refused because the namespace is terminating is no failure: no FailedCreate, no ReplicaFailure, no retry', async () => {
    const { c } = h;
    await c.namespaces().create({ metadata: { name: 'rs-doomed' } });
    await c.replicaSets('rs-doomed').create(rs('doomed', 1, 'doomed'));
    await eventually(() => c.pods('rs-doomed').list(), (l) => l.items.length === 1, 'the first pod');
    // no namespace controller runs here: the namespace stays Terminating
    await c.namespaces().delete('rs-doomed');
    await eventually(() => c.namespaces().get('rs-doomed'), (n) => n.status?.phase === 'Terminating', 'terminating');
    await c.replicaSets('rs-doomed').scale('doomed', 3);
    // the sync that tried to create the two pods wrote this status
    const x = await eventually(() => c.replicaSets('rs-doomed').get('doomed'), (r) => r.status?.observedGeneration === 2, 'status');
    expect(x.status?.conditions).toBeUndefined();
    expect((await c.pods('rs-doomed').list()).items.length).toBe(1);
    const events = (await c.events('rs-doomed').list()).items.filter((e) => e.involvedObject.name === 'doomed');
    expect(events.filter((e) => e.reason !== 'SuccessfulCreate')).toEqual([]);
  });
});
