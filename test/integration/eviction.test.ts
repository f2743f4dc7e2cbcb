// pods/eviction against PodDisruptionBudgets, with the disruption controller in this process: an eviction spends one
// allowed disruption (two at once never both get it), records the pod in the budget's disruptedPods and marks it
// DisruptionTarget; unready and pending pods go without spending one; a budget the controller has not seen yet, a
// dry run and bad delete options change nothing. And `kubectl drain` stopped by a budget.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Resources, formatTime, type KubeObject } from '../../pkg/client/index.js';
import type { TestApiServer } from '../support/apiserver.js';
import { controllerManagerKubeconfig, eventually, setPodStatus, startControllersCluster, startInProcess, stopControllersCluster } from './controllers-support.js';

let s: TestApiServer;
let c: Client;
let cm: { stop(): Promise<void> };

beforeAll(async () => ({ s, c, cm } = await startControllersCluster({ controllers: ['disruption'] })), 30_000);
afterAll(() => stopControllersCluster({ s, c, cm }));

const pdbs = () => c.resource(Resources.podDisruptionBudgets, 'default');

/** Pods of `app` on node-1 (a node name: deletion is graceful, so an evicted pod stays to be looked at). */
async function runningPods(app: string, names: string[], ready = true): Promise<void> {
  for (const [i, name] of names.entries()) {
    await c.pods('default').create({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app } }, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox' }] } });
    await setPodStatus(c, 'default', name, ready, `10.2.${app.length}.${i + 1}`);
  }
}

async function budget(name: string, spec: Record<string, unknown>, settled: (status: any) => boolean): Promise<KubeObject> {
  await pdbs().create({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec });
  return eventually(() => pdbs().get(name), (p) => p.status?.observedGeneration === 1 && settled(p.status), `the status of budget ${name}`);
}

const evict = (name: string, extra: Record<string, unknown> = {}, query = '') =>
  s.api('POST', `/api/v1/namespaces/default/pods/${name}/eviction${query}`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' }, ...extra });

describe('pods/eviction', () => {
  it('spends one allowed disruption per eviction: of two at once, one goes and one is refused', async () => {
    await runningPods('web', ['web-1', 'web-2', 'web-3']);
    await budget('web', { minAvailable: 2, selector: { matchLabels: { app: 'web' } } }, (st) => st.disruptionsAllowed === 1);
    const [a, b] = await Promise.all([evict('web-1'), evict('web-2')]);
    const results = [a, b].map((r) => r.status).sort();
    expect(results, JSON.stringify([a.body, b.body])).toEqual([201, 429]);
    const refused = a.status === 429 ? a : b;
    const evicted = a.status === 201 ? 'web-1' : 'web-2';
    expect(refused.body).toMatchObject({ reason: 'TooManyRequests', message: 'Cannot evict pod as it would violate the pod\'s disruption budget.' });
    // 3 healthy as the first eviction left the budget, or 2 once the controller counted again
    expect(refused.body.details.causes).toEqual([{ reason: 'DisruptionBudget', message: expect.stringMatching(/^The disruption budget web needs 2 healthy pods and has [23] currently$/) }]);
    expect(refused.headers['retry-after']).toBeUndefined();

    // the budget recorded the eviction before the pod went, and the pod says why it is going
    const pod = await c.pods('default').get(evicted);
    expect(pod.metadata?.deletionTimestamp).toBeTruthy();
    expect(pod.status.conditions.find((x: { type: string }) => x.type === 'DisruptionTarget'))
      .toMatchObject({ status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting', lastProbeTime: null });
    const pdb = await eventually(() => pdbs().get('web'), (p) => p.status.currentHealthy === 2, 'the controller to count the evicted pod out');
    expect(pdb.status).toMatchObject({ disruptionsAllowed: 0, desiredHealthy: 2, expectedPods: 3 });
    expect(pdb.status.conditions[0]).toMatchObject({ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods' });
    // the budget's status write is the apiserver's own
    expect(pdb.metadata?.managedFields?.map((m) => m.manager)).toContain('kube-apiserver');

    // the other pod waits until a disruption is allowed again
    expect((await evict(a.status === 429 ? 'web-1' : 'web-2')).status).toBe(429);
  });

  it('lets an unready pod go without spending a disruption, and a pending pod whatever the budget says', async () => {
    await runningPods('db', ['db-1', 'db-2']);
    await runningPods('db-unready', ['db-3'], false);
    await c.pods('default').patch('db-3', 'merge', { metadata: { labels: { app: 'db' } } });
    await budget('db', { minAvailable: 1, selector: { matchLabels: { app: 'db' } } }, (st) => st.currentHealthy === 2 && st.expectedPods === 3);
    expect((await evict('db-3')).status).toBe(201);
    const after = await pdbs().get('db');
    expect(after.status.disruptedPods).toBeUndefined();
    expect(after.status.disruptionsAllowed).toBe(1);

    await c.pods('default').create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'stuck', labels: { app: 'stuck' } }, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox' }] } });
    await budget('stuck', { minAvailable: 5, selector: { matchLabels: { app: 'stuck' } } }, (st) => st.disruptionsAllowed === 0);
    expect((await evict('stuck')).status).toBe(201);
    expect((await c.pods('default').get('stuck')).metadata?.deletionTimestamp).toBeTruthy();
  });

  it('changes nothing for a dry run, a budget not yet seen by its controller, or bad delete options', async () => {
    await runningPods('api', ['api-1', 'api-2']);
    const pdb = await budget('api', { minAvailable: 1, selector: { matchLabels: { app: 'api' } } }, (st) => st.disruptionsAllowed === 1);
    const before = pdb.metadata?.resourceVersion;

    expect((await evict('api-1', {}, '?dryRun=All')).status).toBe(201);
    expect((await evict('api-1', { deleteOptions: { dryRun: ['All'] } })).status).toBe(201);
    expect((await c.pods('default').get('api-1')).metadata?.deletionTimestamp).toBeUndefined();
    expect((await pdbs().get('api')).metadata?.resourceVersion).toBe(before);

    const mismatched = await evict('api-1', { deleteOptions: { dryRun: ['All', 'All'] } }, '?dryRun=All');
    expect(mismatched.status).toBe(400);
    expect(mismatched.body.message).toBe('Non-matching dry-run options in request and content: [All] and [All All]');
    const bad = await evict('api-1', { deleteOptions: { dryRun: ['Some'] } });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Some"}: supported values: "All"');
    const renamed = await s.api('POST', '/api/v1/namespaces/default/pods/api-1/eviction', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'api-2' } });
    expect(renamed).toMatchObject({ status: 400, body: { message: 'name in URL does not match name in Eviction object' } });
    const stale = await evict('api-1', { deleteOptions: { preconditions: { uid: 'not-its-uid' } } });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toMatch(/^Operation cannot be fulfilled on Pod "api-1": the UID in the precondition \(not-its-uid\) does not match the UID in record/);
    // the disruption was spent before the pod's precondition failed, as upstream: it stays spent until it expires
    expect((await pdbs().get('api')).status.disruptedPods).toHaveProperty('api-1');

    // a budget changed after its controller last looked: come back in 10 s
    await cm.stop();
    try {
      const paused = await pdbs().patch('api', 'merge', { spec: { minAvailable: 0 } });
      expect(paused.metadata?.generation).toBe(2);
      const busy = await evict('api-2');
      expect(busy.status).toBe(429);
      expect(busy.headers['retry-after']).toBe('10');
      expect(busy.body.details.causes).toEqual([{ reason: 'DisruptionBudget', message: 'The disruption budget api is still being processed by the server.' }]);
    } finally {
      cm = await startInProcess(await controllerManagerKubeconfig(s), { controllers: ['disruption'] });
    }
  });

  it('refuses a pod two budgets cover with a bare 500 Status: no reason, as upstream returns it', async () => {
    await runningPods('twice', ['twice-1', 'twice-2']);
    await budget('twice-a', { minAvailable: 1, selector: { matchLabels: { app: 'twice' } } }, (st) => st.disruptionsAllowed === 1);
    await budget('twice-b', { minAvailable: 0, selector: { matchLabels: { app: 'twice' } } }, (st) => st.disruptionsAllowed === 2);
    const refused = await evict('twice-1');
    expect(refused.status).toBe(500);
    expect(refused.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500,
      message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
    });
    expect((await c.pods('default').get('twice-1')).metadata?.deletionTimestamp).toBeUndefined();
    expect((await pdbs().get('twice-a')).status.disruptedPods).toBeUndefined();
  });

  it('counts a pod whose eviction never deleted it again after two minutes', async () => {
    await runningPods('late', ['late-1', 'late-2']);
    await budget('late', { minAvailable: 1, selector: { matchLabels: { app: 'late' } } }, (st) => st.currentHealthy === 2);
    const pdb = await pdbs().get('late');
    // one eviction admitted three minutes ago, one just now
    await pdbs().updateStatus({ ...pdb, status: { ...pdb.status, disruptedPods: { 'late-1': formatTime(Date.now() - 180_000), 'late-2': formatTime(Date.now()) } } });
    const settled = await eventually(() => pdbs().get('late'), (p) => p.status.disruptedPods && !p.status.disruptedPods['late-1'], 'the expired entry to go');
    expect(Object.keys(settled.status.disruptedPods)).toEqual(['late-2']);
    expect(settled.status).toMatchObject({ currentHealthy: 1, disruptionsAllowed: 0 });
    const events = await eventually(() => c.resource(Resources.events, 'default').list({ fieldSelector: 'involvedObject.name=late-1' }),
      (l) => l.items.some((e) => e.reason === 'NotDeleted'), 'the NotDeleted warning');
    expect(events.items.find((e) => e.reason === 'NotDeleted')).toMatchObject({ type: 'Warning', message: 'Pod was expected by PDB default/late to be deleted but it wasn\'t' });
  });

  it('kubectl drain evicts what the budget allows and reports the budget for the rest', async () => {
    await c.nodes().create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-2' } });
    for (const name of ['queue-1', 'queue-2']) {
      await c.pods('default').create({
        apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'queue' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'queue', uid: '0b8e3f3c-0000-4000-8000-00000000000a', controller: true }] },
        spec: { nodeName: 'node-2', containers: [{ name: 'c', image: 'busybox' }] },
      });
      await setPodStatus(c, 'default', name, true, name === 'queue-1' ? '10.3.0.1' : '10.3.0.2');
    }
    await budget('queue', { minAvailable: 1, selector: { matchLabels: { app: 'queue' } } }, (st) => st.disruptionsAllowed === 1);
    const drain = await s.kubectl('drain', 'node-2', '--timeout=3s', '--grace-period=0');
    expect(drain.code).not.toBe(0);
    expect(drain.stderr).toContain('Cannot evict pod as it would violate the pod\'s disruption budget.');
    expect(drain.stdout + drain.stderr).toMatch(/pod\/queue-[12] evicted/);
    expect((await c.nodes().get('node-2')).spec.unschedulable).toBe(true);
  }, 30_000);
});

describe('DELETE options, as upstream validates them', () => {
  it('refuses an unknown propagation policy and words preconditions as upstream', async () => {
    await c.configMaps('default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept' } });
    const policy = await s.api('DELETE', '/api/v1/namespaces/default/configmaps/kept', { propagationPolicy: 'Sometimes' });
    expect(policy.status).toBe(422);
    expect(policy.body.message).toBe('DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sometimes": supported values: "Foreground", "Background", "Orphan", "nil"');
    const both = await s.api('DELETE', '/api/v1/namespaces/default/configmaps/kept', { propagationPolicy: 'Orphan', orphanDependents: true });
    expect(both.body.message).toBe('DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set');
    const rv = await s.api('DELETE', '/api/v1/namespaces/default/configmaps/kept', { preconditions: { resourceVersion: '1' } });
    expect(rv.status).toBe(409);
    expect(rv.body.message).toMatch(/^Operation cannot be fulfilled on ConfigMap "kept": the ResourceVersion in the precondition \(1\) does not match the ResourceVersion in record \(\d+\)\. The object might have been modified$/);
    expect(rv.body.details).toMatchObject({ name: 'kept', kind: 'ConfigMap' });
    expect((await c.configMaps('default').get('kept')).metadata?.name).toBe('kept');
  });
});
