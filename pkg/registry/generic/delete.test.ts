// Deletion as upstream's Store.Delete and rest.BeforeDelete: a pod (the one graceful strategy) is always marked first,
// even for a grace period of 0, and an object already being deleted may only have its grace period shortened.
import { describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import type { StoreEvent } from '../../storage/interface.js';
import type { DeleteOptions } from '../context.js';
import { rfc3339 } from '../meta.js';
import { create } from './create.js';
import { deleteObject } from './delete.js';
import type { Registry } from './registry.js';
import { testContext, withRegistries } from './testing.js';

const T0 = Date.UTC(2024, 0, 1, 0, 0, 0);
const at = (second: number) => testContext({ fieldValidation: 'Ignore', now: new Date(T0 + second * 1000) });
const time = (second: number) => rfc3339(new Date(T0 + second * 1000));

const pod = (name: string, nodeName?: string): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: { ...(nodeName && { nodeName }), containers: [{ name: 'c', image: 'busybox' }] },
});

/** The events of the resource from now on, as [type, name, deletionTimestamp, deletionGracePeriodSeconds]. */
function record(reg: Registry): { events: unknown[][]; stop: () => void } {
  const events: unknown[][] = [];
  const ac = new AbortController();
  reg.deps.store.watch(`/registry/${reg.rt.plural}/`, { fromRevision: 0, signal: ac.signal }, {
    onEvent: (ev: StoreEvent) => {
      const m = ev.kv.object.metadata!;
      events.push([ev.type, m.name, m.deletionTimestamp, m.deletionGracePeriodSeconds]);
    },
    onClose: () => {},
  });
  return { events, stop: () => ac.abort() };
}

const remove = (reg: Registry, second: number, name: string, opts: DeleteOptions = {}) => deleteObject(reg, at(second), name, opts);

describe('deleting a pod', () => {
  it('with a grace period of 0: marked first (MODIFIED), then removed (DELETED), answering the marked pod', async () => {
    await withRegistries(async (regs) => {
      const pods = regs.get('', 'v1', 'pods')!;
      await create(pods, at(0), pod('p', 'n1'));
      const w = record(pods);
      const res = await remove(pods, 5, 'p', { gracePeriodSeconds: 0 });
      expect(res.deleted).toBe(true);
      expect(res.object.metadata).toMatchObject({ name: 'p', deletionTimestamp: time(5), deletionGracePeriodSeconds: 0 });
      await vi.waitFor(() => expect(w.events).toHaveLength(2));
      expect(w.events).toEqual([['MODIFIED', 'p', time(5), 0], ['DELETED', 'p', time(5), 0]]);
      w.stop();
      await expect(pods.get(at(6), 'p')).rejects.toMatchObject({ code: 404 });
    });
  });

  it('unscheduled or finished: its grace period is 0 whatever the request asks, still marked first', async () => {
    await withRegistries(async (regs) => {
      const pods = regs.get('', 'v1', 'pods')!;
      await create(pods, at(0), pod('pending'));
      await create(pods, at(0), pod('done', 'n1'));
      await pods.deps.store.guaranteedUpdate(pods.key('default', 'done'), (cur) => ({ ...cur!.object, status: { phase: 'Succeeded' } }));
      const w = record(pods);
      const pending = await remove(pods, 3, 'pending', { gracePeriodSeconds: 30 });
      const done = await remove(pods, 4, 'done');
      expect([pending.deleted, pending.object.metadata?.deletionGracePeriodSeconds]).toEqual([true, 0]);
      expect([done.deleted, done.object.metadata?.deletionGracePeriodSeconds]).toEqual([true, 0]);
      await vi.waitFor(() => expect(w.events).toHaveLength(4));
      expect(w.events).toEqual([
        ['MODIFIED', 'pending', time(3), 0], ['DELETED', 'pending', time(3), 0],
        ['MODIFIED', 'done', time(4), 0], ['DELETED', 'done', time(4), 0],
      ]);
      w.stop();
    });
  });

  it('gracefully: marked for its terminationGracePeriodSeconds; a grace period may then be shortened, never lengthened', async () => {
    await withRegistries(async (regs) => {
      const pods = regs.get('', 'v1', 'pods')!;
      await create(pods, at(0), pod('p', 'n1'));
      const marked = await remove(pods, 10, 'p');
      expect(marked.deleted).toBe(false);
      expect(marked.object.metadata).toMatchObject({ deletionTimestamp: time(40), deletionGracePeriodSeconds: 30 });
      const rv = marked.object.metadata!.resourceVersion;
      // pending: the object as it is, nothing written (a finalizer change of the options included)
      for (const opts of [{}, { gracePeriodSeconds: 30 }, { gracePeriodSeconds: 60 }, { propagationPolicy: 'Orphan' as const }]) {
        const again = await remove(pods, 12, 'p', opts);
        expect([again.deleted, again.object.metadata?.resourceVersion, again.object.metadata?.finalizers]).toEqual([false, rv, undefined]);
      }
      // shortened: the deadline moves back by the difference (not now + the new period)
      const shorter = await remove(pods, 20, 'p', { gracePeriodSeconds: 10 });
      expect(shorter.deleted).toBe(false);
      expect(shorter.object.metadata).toMatchObject({ deletionTimestamp: time(20), deletionGracePeriodSeconds: 10 });
      const w = record(pods);
      // the kubelet's last delete: 0 marks it (a deadline in the past), then removes it
      const last = await remove(pods, 25, 'p', { gracePeriodSeconds: 0, preconditions: { uid: marked.object.metadata!.uid } });
      expect(last.deleted).toBe(true);
      expect(last.object.metadata).toMatchObject({ deletionTimestamp: time(10), deletionGracePeriodSeconds: 0 });
      await vi.waitFor(() => expect(w.events).toHaveLength(2));
      expect(w.events).toEqual([['MODIFIED', 'p', time(10), 0], ['DELETED', 'p', time(10), 0]]);
      w.stop();
    });
  });

  it('a grace period of an int64\'s seconds ends at RFC 3339\'s last second, and shortening it stays a time', async () => {
    await withRegistries(async (regs) => {
      const pods = regs.get('', 'v1', 'pods')!;
      await create(pods, at(0), pod('p', 'n1'));
      const res = await remove(pods, 0, 'p', { gracePeriodSeconds: 2 ** 63 });
      expect(res.object.metadata).toMatchObject({ deletionTimestamp: '9999-12-31T23:59:59Z', deletionGracePeriodSeconds: 2 ** 63 });
      const shorter = await remove(pods, 5, 'p', { gracePeriodSeconds: 10 });
      expect(shorter.object.metadata).toMatchObject({ deletionTimestamp: '1970-01-01T00:00:00Z', deletionGracePeriodSeconds: 10 });
    });
  });

  it('a negative grace period counts as 1, in the request and in the object', async () => {
    await withRegistries(async (regs) => {
      const pods = regs.get('', 'v1', 'pods')!;
      await create(pods, at(0), pod('p', 'n1'));
      const res = await remove(pods, 0, 'p', { gracePeriodSeconds: -5 });
      expect([res.deleted, res.object.metadata?.deletionGracePeriodSeconds, res.object.metadata?.deletionTimestamp]).toEqual([false, 1, time(1)]);
    });
  });

  it('with a resourceVersion precondition and a grace period of 0: the mark does not fail the removal', async () => {
    await withRegistries(async (regs) => {
      const pods = regs.get('', 'v1', 'pods')!;
      const created = await create(pods, at(0), pod('p', 'n1'));
      const res = await remove(pods, 1, 'p', { gracePeriodSeconds: 0, preconditions: { resourceVersion: created.object.metadata!.resourceVersion } });
      expect(res.deleted).toBe(true);
      await expect(pods.get(at(2), 'p')).rejects.toMatchObject({ code: 404 });
    });
  });

  it('with finalizers and a grace period of 0: marked and kept until the last finalizer goes', async () => {
    await withRegistries(async (regs) => {
      const pods = regs.get('', 'v1', 'pods')!;
      await create(pods, at(0), { ...pod('p', 'n1'), metadata: { name: 'p', finalizers: ['example.com/x'] } });
      const res = await remove(pods, 1, 'p', { gracePeriodSeconds: 0 });
      expect(res.deleted).toBe(false);
      expect(res.object.metadata).toMatchObject({ deletionTimestamp: time(1), deletionGracePeriodSeconds: 0, finalizers: ['example.com/x'] });
      expect((await pods.get(at(2), 'p')).object.metadata?.deletionGracePeriodSeconds).toBe(0);
    });
  });

  it('as a dry run with a grace period of 0: answers the marked pod as deleted, and writes nothing', async () => {
    await withRegistries(async (regs) => {
      const pods = regs.get('', 'v1', 'pods')!;
      const created = await create(pods, at(0), pod('p', 'n1'));
      const res = await deleteObject(pods, { ...at(3), dryRun: true }, 'p', { gracePeriodSeconds: 0, dryRun: ['All'] });
      expect(res.deleted).toBe(true);
      expect(res.object.metadata).toMatchObject({ deletionTimestamp: time(3), deletionGracePeriodSeconds: 0 });
      expect((await pods.get(at(4), 'p')).object.metadata?.resourceVersion).toBe(created.object.metadata?.resourceVersion);
    });
  });
});

describe('deleting an object without graceful deletion', () => {
  it('removes it at once: one DELETED, whatever grace period is asked', async () => {
    await withRegistries(async (regs) => {
      const cms = regs.get('', 'v1', 'configmaps')!;
      await create(cms, at(0), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } });
      const w = record(cms);
      const res = await remove(cms, 1, 'c', { gracePeriodSeconds: 30 });
      expect(res.deleted).toBe(true);
      expect(res.object.metadata?.deletionTimestamp).toBeUndefined();
      await vi.waitFor(() => expect(w.events).toHaveLength(1));
      expect(w.events).toEqual([['DELETED', 'c', undefined, undefined]]);
      w.stop();
    });
  });

  it('with finalizers: marked once; a later delete changing the finalizers keeps the first deletionTimestamp', async () => {
    await withRegistries(async (regs) => {
      const cms = regs.get('', 'v1', 'configmaps')!;
      await create(cms, at(0), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', finalizers: ['example.com/x'] } });
      const first = await remove(cms, 1, 'c');
      expect(first.object.metadata).toMatchObject({ deletionTimestamp: time(1), deletionGracePeriodSeconds: 0, finalizers: ['example.com/x'] });
      const same = await remove(cms, 2, 'c');
      expect(same.object.metadata?.resourceVersion).toBe(first.object.metadata?.resourceVersion);
      const orphan = await remove(cms, 3, 'c', { propagationPolicy: 'Orphan' });
      expect(orphan.deleted).toBe(false);
      expect(orphan.object.metadata).toMatchObject({ deletionTimestamp: time(1), deletionGracePeriodSeconds: 0, finalizers: ['example.com/x', 'orphan'] });
    });
  });
});

describe('the garbage collection policy a delete defaults to', () => {
  const podTemplate = { metadata: { labels: { app: 'a' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } };
  const kinds = [
    { group: 'batch', resource: 'jobs', body: (name: string) => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name }, spec: { template: podTemplate } }) },
    {
      group: '', resource: 'replicationcontrollers',
      body: (name: string) => ({
        apiVersion: 'v1', kind: 'ReplicationController', metadata: { name },
        spec: { selector: { app: 'a' }, template: { ...podTemplate, spec: { ...podTemplate.spec, restartPolicy: 'Always' } } },
      }),
    },
  ];

  for (const { group, resource, body } of kinds) {
    it(`orphans the dependents of ${resource} when the client names no policy (upstream's batch/v1 and v1 back compatibility)`, async () => {
      await withRegistries(async (regs) => {
        const reg = regs.get(group, 'v1', resource)!;
        await create(reg, at(0), body('plain'));
        const plain = await remove(reg, 1, 'plain');
        expect(plain.deleted).toBe(false);
        expect(plain.object.metadata).toMatchObject({ deletionTimestamp: time(1), finalizers: ['orphan'] });
        // an explicit policy, or orphanDependents, overrides the default
        await create(reg, at(0), body('background'));
        expect((await remove(reg, 1, 'background', { propagationPolicy: 'Background' })).deleted).toBe(true);
        await create(reg, at(0), body('not-orphaned'));
        expect((await remove(reg, 1, 'not-orphaned', { orphanDependents: false })).deleted).toBe(true);
      });
    });
  }

  it('deletes in the background for other kinds (apps/v1 ReplicaSets)', async () => {
    await withRegistries(async (regs) => {
      const rss = regs.get('apps', 'v1', 'replicasets')!;
      await create(rss, at(0), {
        apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs' },
        spec: { selector: { matchLabels: { app: 'a' } }, template: { ...podTemplate, spec: { ...podTemplate.spec, restartPolicy: 'Always' } } },
      });
      expect((await remove(rss, 1, 'rs')).deleted).toBe(true);
    });
  });
});
