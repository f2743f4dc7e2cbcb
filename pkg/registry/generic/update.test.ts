// What an update writes: nothing when only the times of its managed fields would change (upstream's
// IgnoreManagedFieldsTimestampsTransformer), and a new generation for any change outside the metadata where status is
// no subresource of its own.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { patchBuilder } from './patch.js';
import { Registry } from './registry.js';
import type { Journal } from '../../storage/core/journal.js';
import { RevisionedStore } from '../../storage/core/revisioned-store.js';
import { create } from './create.js';
import { registriesOver, testContext, withRegistries } from './testing.js';
import { update } from './update.js';

const at = (second: number) => testContext({ fieldValidation: 'Strict', bodyFormat: 'apply', now: new Date(Date.UTC(2024, 0, 1, 0, 0, second)) });

const statefulSet = (memory: string): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 's' },
  spec: {
    selector: { matchLabels: { app: 's' } }, serviceName: 's',
    template: { metadata: { labels: { app: 's' } }, spec: { containers: [{ name: 'c', image: 'busybox', resources: { limits: { memory } } }] } },
  },
});

describe('update', () => {
  it('writes nothing when only managed fields times would change (an apply of 2048Mi over a stored 2Gi)', async () => {
    await withRegistries(async (regs) => {
      const sets = regs.get('apps', 'v1', 'statefulsets')!;
      const apply = (second: number, body: KubeObject, manager = 'kubectl') => {
        const ctx = { ...at(second), fieldManager: manager };
        return update(sets, ctx, patchBuilder(sets, ctx, 's', 'apply', body, false));
      };
      const created = (await apply(1, statefulSet('2048Mi'))).object;
      expect(created.spec?.template.spec.containers[0].resources.limits.memory).toBe('2Gi');
      const again = (await apply(5, statefulSet('2048Mi'))).object;
      expect(again.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
      expect(again.metadata?.managedFields).toEqual(created.metadata?.managedFields);
      // another manager taking a share of the same values is a change
      const shared = (await apply(9, statefulSet('2Gi'), 'other')).object;
      expect(shared.metadata?.resourceVersion).not.toBe(created.metadata?.resourceVersion);
      // the object unchanged, the newcomer's entry has no time, and so sorts first (as upstream's encoding orders them)
      expect(shared.metadata?.managedFields?.map((e) => [e.manager, e.time])).toEqual([['other', undefined], ['kubectl', created.metadata?.managedFields?.[0]?.time]]);
    });
  });

  it('counts a status change in the generation only where status has no subresource of its own', async () => {
    await withRegistries(async (regs) => {
      const withStatus = regs.get('apps', 'v1', 'deployments')!;
      // a kind whose strategy tracks generation, served without /status, as a custom resource can be
      const without = new Registry({ ...withStatus.rt, subresources: withStatus.rt.subresources?.filter((s) => s.name !== 'status') }, withStatus.deps);
      const ctx = testContext({ fieldValidation: 'Ignore' });
      const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } } };
      await update(withStatus, ctx, patchBuilder(withStatus, ctx, 'd', 'apply', deployment, false));
      const patch = (reg: Registry, replicas: number) => update(reg, ctx, patchBuilder(reg, ctx, 'd', 'merge', { status: { replicas } }, false));
      const kept = (await patch(withStatus, 3)).object;
      expect([kept.metadata?.generation, kept.status?.replicas]).toEqual([1, undefined]);
      const counted = (await patch(without, 3)).object;
      expect([counted.metadata?.generation, counted.status?.replicas]).toEqual([2, 3]);
      expect((await patch(without, 3)).object.metadata?.generation).toBe(2);
    });
  });

  it("raises a Deployment's generation when its annotations change, but not through its status (upstream's strategies)", async () => {
    await withRegistries(async (regs) => {
      const deployments = regs.get('apps', 'v1', 'deployments')!;
      const sets = regs.get('apps', 'v1', 'replicasets')!;
      const ctx = testContext({ fieldValidation: 'Ignore' });
      const spec = { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } };
      const annotate = (reg: Registry, name: string, value: string, subresource?: string) =>
        update(reg, ctx, patchBuilder(reg, ctx, name, 'merge', { metadata: { annotations: { note: value } } }, false, subresource));
      await update(deployments, ctx, patchBuilder(deployments, ctx, 'd', 'apply', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec }, false));
      // the deployment controller writes its revision annotation through the status: the generation stays
      expect((await annotate(deployments, 'd', 'by-status', 'status')).object.metadata).toMatchObject({ generation: 1, annotations: { note: 'by-status' } });
      expect((await annotate(deployments, 'd', 'x')).object.metadata?.generation).toBe(2);
      expect((await annotate(deployments, 'd', 'x')).object.metadata?.generation).toBe(2);
      // a ReplicaSet's generation follows its spec alone
      await update(sets, ctx, patchBuilder(sets, ctx, 'r', 'apply', { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'r' }, spec }, false));
      expect((await annotate(sets, 'r', 'x')).object.metadata?.generation).toBe(1);
    });
  });

  it("raises an EndpointSlice's generation when anything but its metadata changes, or its labels (upstream's strategy)", async () => {
    await withRegistries(async (regs) => {
      const slices = regs.get('discovery.k8s.io', 'v1', 'endpointslices')!;
      const ctx = testContext({ fieldValidation: 'Ignore' });
      const write = (body: Record<string, unknown>, type: 'apply' | 'merge' = 'merge') => update(slices, ctx, patchBuilder(slices, ctx, 's', type, body, false));
      const created = (await write({ apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 's' }, addressType: 'IPv4', endpoints: [] }, 'apply')).object;
      expect(created.metadata?.generation).toBe(1);
      expect((await write({ endpoints: [{ addresses: ['10.0.0.1'] }] })).object.metadata?.generation).toBe(2);
      expect((await write({ metadata: { annotations: { note: 'x' } } })).object.metadata?.generation).toBe(2);
      expect((await write({ metadata: { labels: { app: 'a' } } })).object.metadata?.generation).toBe(3);
    });
  });

  it('an apply racing a create of its object, whose write is still on its way to disk, updates it once the cache has it', async () => {
    // a journal that, like a disk, answers in a later turn of the event loop: the store's newest state runs ahead of
    // the cache meanwhile, and an apply that looked again at once would spin on resolved promises and starve it
    const disk: Journal = { append: () => new Promise((r) => setImmediate(r)), compact: async () => undefined, close: async () => undefined };
    const store = new RevisionedStore(disk, { objects: new Map(), events: [], revision: 0, compacted: 0 });
    // a spin is cut short by an error, so that it fails this test instead of hanging the process
    let creates = 0;
    const counted = new Proxy(store, {
      get(target, prop) {
        if (prop === 'create') {
          return (key: string, obj: KubeObject) => {
            if (++creates > 100) throw new Error('create retried 100 times: the apply spins');
            return target.create(key, obj);
          };
        }
        const v = Reflect.get(target, prop) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const regs = await registriesOver(counted);
    try {
      const cms = regs.get('', 'v1', 'configmaps')!;
      const ctx = at(1);
      const cm = (data: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'raced' }, data });
      const created = create(cms, ctx, cm({ a: '1' }));
      const applied = await update(cms, { ...ctx, fieldManager: 'applier' }, patchBuilder(cms, ctx, 'raced', 'apply', cm({ b: '2' }), false));
      await created;
      expect([applied.created, applied.object.data]).toEqual([false, { a: '1', b: '2' }]);
    } finally {
      regs.stop();
      await regs.store.close();
    }
  });
});
