// The StatefulSet controller against a real apiserver and the real kubectl; the test plays the kubelet. The
// controller's clock runs `offset` ms ahead of real time (its timers stay real), so a test can let minReadySeconds pass.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Resources, formatTime, realClock, type Clock } from '../../pkg/client/index.js';
import { eventually, markReady, podNames, startHarness, type Harness } from './workloads-harness.js';

let h: Harness;
const NS = 'sts';
let auto = false;
let stop = false;
let readier: Promise<void> | undefined;
let offset = 0;
const clock: Clock = { now: () => Date.now() + offset, setTimer: realClock.setTimer, sleep: realClock.sleep };
beforeAll(async () => {
  h = await startHarness(['statefulset', 'garbagecollector', 'pvc-protection'], { clock, featureGates: { MaxUnavailableStatefulSet: true } });
  await h.c.namespaces().create({ metadata: { name: NS } });
  readier = (async () => {
    while (!stop) {
      if (auto) {
        const pods = await h.c.pods(NS).list().catch(() => ({ items: [] as any[] }));
        const pending = pods.items.filter((p) => !p.metadata?.deletionTimestamp && p.status?.phase !== 'Running');
        if (pending.length) await markReady(h.c, NS, pending.map((p) => p.metadata!.name!)).catch(() => undefined);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
});
afterAll(async () => { stop = true; await readier; await h?.stop(); });

const sts = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name },
  spec: {
    serviceName: name, selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } },
    ...spec,
  },
});

/** Plays the kubelet: Running and Ready since the controller's now. */
const markReadyNow = (names: string[]) => Promise.all(names.map((n) => h.c.pods(NS).patch(n, 'merge', {
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: formatTime(clock.now()) }] },
}, { subresource: 'status' })));
/** Any change to the set makes the controller sync it. */
const poke = (name: string) => h.c.statefulSets(NS).patch(name, 'merge', { metadata: { annotations: { poked: String(Date.now()) } } });

describe('statefulset controller', () => {
  it('creates ordered pods with PVCs, one at a time, and rolls an update from the highest ordinal', async () => {
    const { c, s } = h;
    await c.statefulSets(NS).create(sts('web', {
      replicas: 3,
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    }));
    await eventually(() => podNames(c, NS, 'app=web'), (l) => l.join() === 'web-0', 'web-0 only');
    await new Promise((r) => setTimeout(r, 300));
    expect(await podNames(c, NS, 'app=web')).toEqual(['web-0']); // waits for web-0 to be ready
    const p0 = await c.pods(NS).get('web-0');
    expect(p0.spec.hostname).toBe('web-0');
    expect(p0.spec.subdomain).toBe('web');
    expect(p0.spec.volumes.find((v: any) => v.name === 'data').persistentVolumeClaim.claimName).toBe('data-web-0');
    expect(p0.metadata!.labels!['apps.kubernetes.io/pod-index']).toBe('0');
    expect(p0.metadata!.labels!['controller-revision-hash']).toMatch(/^web-/);
    await markReady(c, NS, ['web-0']);
    await eventually(() => podNames(c, NS, 'app=web'), (l) => l.join() === 'web-0,web-1', 'web-1 next');
    await markReady(c, NS, ['web-1']);
    await eventually(() => podNames(c, NS, 'app=web'), (l) => l.length === 3, 'web-2');
    await markReady(c, NS, ['web-2']);
    const pvcs = await c.persistentVolumeClaims(NS).list();
    expect(pvcs.items.map((p) => p.metadata!.name).sort()).toEqual(['data-web-0', 'data-web-1', 'data-web-2']);
    const ready = await eventually(() => c.statefulSets(NS).get('web'), (x) => x.status?.readyReplicas === 3 && x.status?.currentReplicas === 3, 'status');
    expect(ready.status.currentRevision).toBe(ready.status.updateRevision);
    const rev1 = ready.status.currentRevision;

    auto = true;
    expect((await s.kubectl('-n', NS, 'set', 'image', 'statefulset/web', 'c=nginx:2')).code).toBe(0);
    const st = await s.kubectl('-n', NS, 'rollout', 'status', 'statefulset/web', '--timeout=30s');
    expect(st.stdout).toContain('partitioned roll out complete');
    const done = await c.statefulSets(NS).get('web');
    expect(done.status.currentRevision).not.toBe(rev1);
    expect(done.status.updatedReplicas).toBe(3);
    for (const n of ['web-0', 'web-1', 'web-2']) expect((await c.pods(NS).get(n)).spec.containers[0].image).toBe('nginx:2');
    const hist = await s.kubectl('-n', NS, 'rollout', 'history', 'statefulset/web');
    expect(hist.stdout).toMatch(/REVISION\s+CHANGE-CAUSE\s+1\s+.*\n2\s+/);
    // undo: the first revision's template comes back (as revision 3)
    expect((await s.kubectl('-n', NS, 'rollout', 'undo', 'statefulset/web')).code).toBe(0);
    expect((await s.kubectl('-n', NS, 'rollout', 'status', 'statefulset/web', '--timeout=30s')).code).toBe(0);
    for (const n of ['web-0', 'web-1', 'web-2']) expect((await c.pods(NS).get(n)).spec.containers[0].image).toBe('nginx:1');
    // the revision of the running template: kubectl finds its bytes equal to its own patch and does nothing
    expect((await s.kubectl('-n', NS, 'rollout', 'undo', 'statefulset/web', '--to-revision=3')).stdout)
      .toBe('statefulset.apps/web skipped rollback (current template already matches revision 3)\n');

    // scale down removes the highest ordinal; PVCs stay (Retain)
    await c.statefulSets(NS).scale('web', 1);
    await eventually(() => podNames(c, NS, 'app=web'), (l) => l.join() === 'web-0', 'scaled to 1');
    expect((await c.persistentVolumeClaims(NS).list()).items.length).toBe(3);
    auto = false;
  }, 55_000);

  it('Parallel creates all pods at once; partition holds low ordinals back', async () => {
    const { c } = h;
    await c.statefulSets(NS).create(sts('par', { replicas: 3, podManagementPolicy: 'Parallel', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } }));
    await eventually(() => podNames(c, NS, 'app=par'), (l) => l.length === 3, '3 at once');
    auto = true;
    await eventually(() => c.statefulSets(NS).get('par'), (x) => x.status?.readyReplicas === 3, 'ready');
    await c.statefulSets(NS).patch('par', 'strategic', { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:2' }] } } } });
    await eventually(() => c.pods(NS).get('par-2'), (p) => p.spec?.containers?.[0]?.image === 'nginx:2' && p.status?.phase === 'Running', 'par-2 updated');
    await new Promise((r) => setTimeout(r, 500));
    expect((await c.pods(NS).get('par-1')).spec.containers[0].image).toBe('nginx:1');
    expect((await c.pods(NS).get('par-0')).spec.containers[0].image).toBe('nginx:1');
    auto = false;
  }, 30_000);

  it('persistentVolumeClaimRetentionPolicy: whenScaled Delete removes a scaled-away claim, whenDeleted Delete the rest with the set', async () => {
    const { c } = h;
    auto = true;
    await c.statefulSets(NS).create(sts('keep', {
      replicas: 2, persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete', whenDeleted: 'Retain' },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    }));
    // served as upstream's apps/v1 conversion writes a claim template: with its TypeMeta, defaults and Pending status
    expect((await c.statefulSets(NS).get('keep')).spec.volumeClaimTemplates).toEqual([{
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', creationTimestamp: null },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' }, status: { phase: 'Pending' },
    }]);
    const claims = async () => (await c.persistentVolumeClaims(NS).list()).items.filter((x) => x.metadata!.name!.startsWith('data-keep-'));
    await eventually(claims, (l) => l.length === 2, '2 claims');
    expect((await claims()).every((x) => !x.metadata!.ownerReferences?.length)).toBe(true);
    await c.statefulSets(NS).patch('keep', 'merge', { spec: { replicas: 1 } });
    await eventually(claims, (l) => l.map((x) => x.metadata!.name).join() === 'data-keep-0', 'the scaled-away claim deleted');
    await c.statefulSets(NS).patch('keep', 'merge', { spec: { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete' } } });
    const [owned] = await eventually(claims, (l) => l[0]?.metadata?.ownerReferences?.[0]?.kind === 'StatefulSet', 'the set owns the claim');
    expect(owned!.metadata!.ownerReferences).toMatchObject([{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'keep', controller: true }]);
    await c.statefulSets(NS).delete('keep');
    await eventually(claims, (l) => l.length === 0, 'claims deleted with the set');
    auto = false;
  });

  it('with MaxUnavailableStatefulSet, rollingUpdate.maxUnavailable replaces that many pods at once', async () => {
    const { c } = h;
    auto = true;
    await c.statefulSets(NS).create(sts('wide', {
      replicas: 3, podManagementPolicy: 'Parallel', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } },
    }));
    const first = await eventually(() => c.statefulSets(NS).get('wide'), (x) => x.status?.readyReplicas === 3, '3 ready');
    auto = false;
    await c.statefulSets(NS).patch('wide', 'merge', { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:2' }] } } } });
    const rolled = await eventually(() => c.statefulSets(NS).get('wide'), (x) => x.status?.updatedReplicas === 2 && x.status.updateRevision !== first.status.currentRevision, '2 updated at once');
    const hash = async (n: string) => (await c.pods(NS).get(n)).metadata!.labels!['controller-revision-hash'];
    expect([await hash('wide-2'), await hash('wide-1'), await hash('wide-0')]).toEqual([rolled.status.updateRevision, rolled.status.updateRevision, first.status.currentRevision]);
    auto = true;
    await eventually(() => c.statefulSets(NS).get('wide'), (x) => x.status?.updatedReplicas === 3 && x.status?.readyReplicas === 3, 'all updated');
    auto = false;
  });

  it('writes status as upstream serializes it: replicas and availableReplicas always, omitempty counts only when not 0', async () => {
    const { c } = h;
    await c.statefulSets(NS).create(sts('zero', { replicas: 0 }));
    const x = await eventually(() => c.statefulSets(NS).get('zero'), (s) => s.status?.observedGeneration === 1, 'status');
    expect(Object.keys(x.status!).sort()).toEqual(['availableReplicas', 'collisionCount', 'currentRevision', 'observedGeneration', 'replicas', 'updateRevision']);
    expect(x.status).toMatchObject({ replicas: 0, availableReplicas: 0 });
  });

  it('a set replaced while its old pod is still going creates that pod once the old one is gone', async () => {
    const { c } = h;
    auto = true;
    await c.statefulSets(NS).create(sts('swap', { replicas: 1 }));
    await eventually(() => c.statefulSets(NS).get('swap'), (x) => x.status?.readyReplicas === 1, 'ready');
    auto = false;
    // the old pod holds on (a finalizer stands for a long grace period) while the set is deleted and made again
    await c.pods(NS).patch('swap-0', 'merge', { metadata: { finalizers: ['example.com/hold'] } });
    const old = await c.statefulSets(NS).get('swap');
    await c.statefulSets(NS).delete('swap', { propagationPolicy: 'Background' });
    await eventually(() => c.pods(NS).get('swap-0'), (p) => Boolean(p.metadata?.deletionTimestamp), 'the old pod being deleted');
    const fresh = await c.statefulSets(NS).create(sts('swap', { replicas: 1 }));
    await new Promise((r) => setTimeout(r, 300));
    expect((await c.pods(NS).get('swap-0')).metadata!.ownerReferences![0]!.uid).toBe(old.metadata!.uid);
    await c.pods(NS).patch('swap-0', 'merge', { metadata: { finalizers: null } });
    const made = await eventually(() => c.pods(NS).get('swap-0').catch(() => undefined), (p) => p?.metadata?.ownerReferences?.[0]?.uid === fresh.metadata!.uid, 'the new set\'s pod');
    expect(made!.metadata!.deletionTimestamp).toBeUndefined();
  });
  it('OrderedReady waits for a pod to be available (minReadySeconds) before creating the next and before a scale-down deletes', async () => {
    const { c } = h;
    await c.statefulSets(NS).create(sts('slow', { replicas: 2, minReadySeconds: 600 }));
    await eventually(() => podNames(c, NS, 'app=slow'), (l) => l.join() === 'slow-0', 'slow-0');
    await markReadyNow(['slow-0']);
    // the sync that saw slow-0 ready wrote this status, and created nothing
    const seen = await eventually(() => c.statefulSets(NS).get('slow'), (x) => x.status?.readyReplicas === 1, 'slow-0 ready');
    expect(seen.status.availableReplicas).toBe(0);
    expect(await podNames(c, NS, 'app=slow')).toEqual(['slow-0']);
    offset += 601_000;
    await poke('slow');
    await eventually(() => podNames(c, NS, 'app=slow'), (l) => l.join() === 'slow-0,slow-1', 'slow-1 once slow-0 is available');
    await markReadyNow(['slow-1']);
    await eventually(() => c.statefulSets(NS).get('slow'), (x) => x.status?.readyReplicas === 2, 'slow-1 ready');
    // scaled down while slow-1 is ready but not yet available: it stays
    await c.statefulSets(NS).scale('slow', 1);
    await eventually(() => c.statefulSets(NS).get('slow'), (x) => x.spec.replicas === 1 && x.status?.observedGeneration === x.metadata?.generation, 'the scale-down seen');
    expect((await c.pods(NS).get('slow-1')).metadata!.deletionTimestamp).toBeUndefined();
    offset += 601_000;
    await poke('slow');
    await eventually(() => c.pods(NS).list({ labelSelector: 'app=slow' }), (l) => l.items.filter((p) => !p.metadata?.deletionTimestamp).length === 1, 'slow-1 deleted once available');
  });

  it('status counts a scaled-away pod until it is gone; a terminating pod is neither current nor updated', async () => {
    const { c } = h;
    auto = true;
    await c.statefulSets(NS).create(sts('hold', { replicas: 2 }));
    await eventually(() => c.statefulSets(NS).get('hold'), (x) => x.status?.readyReplicas === 2 && x.status?.currentReplicas === 2, 'ready');
    auto = false;
    await c.pods(NS).patch('hold-1', 'merge', { metadata: { finalizers: ['example.com/hold'] } });
    await c.statefulSets(NS).scale('hold', 1);
    const x = await eventually(() => c.statefulSets(NS).get('hold'), (y) => y.status?.currentReplicas === 1, 'hold-1 seen terminating');
    expect(x.status).toMatchObject({ replicas: 2, readyReplicas: 2, availableReplicas: 2, currentReplicas: 1, updatedReplicas: 1 });
    await c.pods(NS).patch('hold-1', 'merge', { metadata: { finalizers: null } });
    const gone = await eventually(() => c.statefulSets(NS).get('hold'), (y) => y.status?.replicas === 1, 'hold-1 gone');
    expect(gone.status).toMatchObject({ readyReplicas: 1, currentReplicas: 1, updatedReplicas: 1 });
  });

  it('a revision carries the template labels and the set annotations, so rollout history shows the change cause', async () => {
    const { c, s } = h;
    const set = sts('cause', { replicas: 0 });
    set.metadata = { name: 'cause', annotations: { 'kubernetes.io/change-cause': 'first' } } as any;
    (set.spec.template.metadata.labels as Record<string, string>).tier = 'web';
    await c.statefulSets(NS).create(set);
    const first = await eventually(() => c.statefulSets(NS).get('cause'), (x) => !!x.status?.updateRevision, 'a revision');
    const rev = await c.resource(Resources.controllerRevisions, NS).get(first.status.updateRevision);
    expect(rev.metadata!.labels).toEqual({ app: 'cause', tier: 'web', 'controller.kubernetes.io/hash': first.status.updateRevision.slice('cause-'.length) });
    expect(rev.metadata!.annotations).toEqual({ 'kubernetes.io/change-cause': 'first' });
    // a revision keeps the annotations it was made with; an annotation change alone makes no revision
    await c.statefulSets(NS).patch('cause', 'merge', { metadata: { annotations: { 'kubernetes.io/change-cause': 'second' } }, spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:2' }] } } } });
    await eventually(() => c.statefulSets(NS).get('cause'), (x) => x.status?.updateRevision !== first.status.updateRevision, 'a second revision');
    await c.statefulSets(NS).patch('cause', 'merge', { metadata: { annotations: { 'kubernetes.io/change-cause': 'third' } } });
    await poke('cause');
    await new Promise((r) => setTimeout(r, 300));
    expect((await c.resource(Resources.controllerRevisions, NS).get(first.status.updateRevision)).metadata!.annotations).toEqual({ 'kubernetes.io/change-cause': 'first' });
    const hist = await s.kubectl('-n', NS, 'rollout', 'history', 'statefulset/cause');
    expect(hist.stdout).toMatch(/1\s+first\n2\s+second\n/);
  });

  it('OnDelete never moves currentRevision, even once every pod runs the update revision', async () => {
    const { c } = h;
    auto = true;
    await c.statefulSets(NS).create(sts('od', { replicas: 1, updateStrategy: { type: 'OnDelete' } }));
    const first = await eventually(() => c.statefulSets(NS).get('od'), (x) => x.status?.readyReplicas === 1 && !!x.status?.currentRevision, 'ready');
    await c.statefulSets(NS).patch('od', 'merge', { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:2' }] } } } });
    const updating = await eventually(() => c.statefulSets(NS).get('od'), (x) => x.status?.updateRevision !== first.status.currentRevision, 'a new revision');
    expect((await c.pods(NS).get('od-0')).spec.containers[0].image).toBe('nginx:1');
    await c.pods(NS).delete('od-0');
    const done = await eventually(() => c.statefulSets(NS).get('od'), (x) => x.status?.updatedReplicas === 1 && x.status?.readyReplicas === 1, 'od-0 remade at the update revision');
    expect(done.status).toMatchObject({ currentRevision: first.status.currentRevision, updateRevision: updating.status.updateRevision });
    expect(done.status.currentReplicas).toBeUndefined(); // 0, left out
    auto = false;
  });
});
