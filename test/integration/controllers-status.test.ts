// The controllers that keep status and policy in step (in this process): ClusterRole aggregation, PodDisruptionBudget
// status, ResourceQuota usage, and the pod garbage collector (terminated pods over the threshold, pods of a node
// that is gone, pods terminating on a node out of service).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Resources, type KubeObject } from '../../pkg/client/index.js';
import type { TestApiServer } from '../support/apiserver.js';
import { eventually, setPodStatus, startControllersCluster, stopControllersCluster } from './controllers-support.js';

let s: TestApiServer;
let c: Client;
let cm: { stop(): Promise<void> };

beforeAll(async () => ({ s, c, cm } = await startControllersCluster({
  controllers: ['clusterrole-aggregation', 'disruption', 'resourcequota', 'podgc'],
  config: { terminatedPodGcThreshold: 2, podGcPeriodMs: 200, podGcQuarantineMs: 300 },
})), 30_000);
afterAll(() => stopControllersCluster({ s, c, cm }));

const pod = (name: string, labels: Record<string, string>, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels },
  spec: { containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '100m', memory: '64Mi' } } }], ...extra },
});

describe('cluster controllers keeping status', () => {
  it('aggregates the rules of matching ClusterRoles into an aggregated one', async () => {
    const roles = c.resource(Resources.clusterRoles);
    await roles.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/agg': 'true' } }] }, rules: [] });
    await roles.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'part-b', labels: { 'example.com/agg': 'true' } }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] });
    await roles.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'part-a', labels: { 'example.com/agg': 'true' } }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }, { apiGroups: [''], resources: ['pods'], verbs: ['get'] }] });
    const agg = await eventually(() => roles.get('agg'), (r) => (r.rules ?? []).length === 2, 'the aggregated rules');
    expect(agg.rules).toEqual([{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }, { apiGroups: [''], resources: ['pods'], verbs: ['get'] }]);
    await roles.delete('part-a');
    await eventually(() => roles.get('agg'), (r) => (r.rules ?? []).length === 1, 'the rules of a deleted part to go');
  });

  it('reports PodDisruptionBudget status from ready pods', async () => {
    for (const [i, ready] of [[1, true], [2, true], [3, false]] as const) {
      await c.pods('default').create(pod(`db-${i}`, { app: 'db' }));
      await setPodStatus(c, 'default', `db-${i}`, ready, `10.1.0.${i}`);
    }
    const pdbs = c.resource(Resources.podDisruptionBudgets, 'default');
    await pdbs.create({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'db' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'db' } } } });
    const pdb = await eventually(() => pdbs.get('db'), (p) => p.status?.observedGeneration === 1 && p.status?.currentHealthy === 2, 'the PDB status');
    expect(pdb.status).toMatchObject({ currentHealthy: 2, desiredHealthy: 1, expectedPods: 3, disruptionsAllowed: 1 });
    expect(pdb.status.conditions[0]).toMatchObject({ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods' });
    await setPodStatus(c, 'default', 'db-2', false, '10.1.0.2');
    await eventually(() => pdbs.get('db'), (p) => p.status?.disruptionsAllowed === 0 && p.status.conditions[0].reason === 'InsufficientPods', 'no disruption allowed');
    // A percentage counts the replicas of the pods' controllers: pods without one are left out, with a warning.
    await pdbs.patch('db', 'merge', { spec: { minAvailable: '50%' } });
    const unmanaged = await eventually(() => pdbs.get('db'), (p) => p.status?.observedGeneration === 2, 'the status of generation 2');
    expect(unmanaged.status).toMatchObject({ expectedPods: 0, desiredHealthy: 0, disruptionsAllowed: 0, currentHealthy: 1 });
    const warning = await eventually(() => c.resource(Resources.events, 'default').list({ fieldSelector: 'involvedObject.name=db,reason=UnmanagedPods' }), (l) => l.items.length > 0, 'the UnmanagedPods warning');
    expect(warning.items[0]!.message).toBe('Pods selected by this PodDisruptionBudget (selector: &LabelSelector{MatchLabels:map[string]string{app: db,},MatchExpressions:[]LabelSelectorRequirement{},}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.');
    // A controller whose scale cannot be read: the budget fails safe.
    await c.pods('default').patch('db-1', 'merge', { metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'not-scalable', uid: '5c0ffee0-0000-4000-8000-000000000001', controller: true }] } });
    const failed = await eventually(() => pdbs.get('db'), (p) => p.status?.conditions?.[0]?.reason === 'SyncFailed', 'SyncFailed');
    expect(failed.status.disruptionsAllowed).toBe(0);
  });

  it('recomputes ResourceQuota usage when pods go away', async () => {
    const quotas = c.resource(Resources.resourceQuotas, 'default');
    await c.configMaps('default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'counted' } });
    await quotas.create({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: '10', 'requests.cpu': '2', 'requests.memory': '1Gi', configmaps: '20' } } });
    const q = await eventually(() => quotas.get('q'), (x) => x.status?.used?.pods === '3', 'quota usage');
    expect(q.status.used).toMatchObject({ 'requests.cpu': '300m', 'requests.memory': '192Mi' });
    expect(q.status.hard).toEqual({ pods: '10', 'requests.cpu': '2', 'requests.memory': '1Gi', configmaps: '20' });
    expect(Number(q.status.used.configmaps)).toBeGreaterThanOrEqual(1);
    await c.pods('default').delete('db-3', { gracePeriodSeconds: 0 });
    await eventually(() => quotas.get('q'), (x) => x.status?.used?.pods === '2' && x.status.used['requests.cpu'] === '200m', 'usage after a delete');
  });

  it('podgc deletes the oldest terminated pods over the threshold and the pods of a deleted node', async () => {
    for (const i of [1, 2, 3, 4]) {
      await c.pods('default').create(pod(`done-${i}`, { app: 'done' }, { restartPolicy: 'Never' }));
      await c.pods('default').patch(`done-${i}`, 'merge', { status: { phase: 'Succeeded' } }, { subresource: 'status' });
      await new Promise((r) => setTimeout(r, 1100)); // distinct creationTimestamps (second precision)
    }
    const left = await eventually(() => c.pods('default').list({ labelSelector: 'app=done' }), (l) => l.items.length === 2, 'two terminated pods kept');
    expect(left.items.map((p) => p.metadata!.name).sort()).toEqual(['done-3', 'done-4']);

    await c.pods('default').create(pod('orphan', { app: 'orphan' }, { nodeName: 'ghost-node' }));
    await eventually(() => c.pods('default').list({ labelSelector: 'app=orphan' }), (l) => l.items.length === 0, 'the pod of a missing node to be deleted');
  }, 30_000);

  it('podgc force-deletes pods terminating on a node that is down and out of service, marked Failed', async () => {
    await c.nodes().create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'dead-node' }, spec: {} });
    await c.nodes().patch('dead-node', 'merge', { status: { conditions: [{ type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown', lastHeartbeatTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' }] } }, { subresource: 'status' });
    await c.pods('default').create(pod('stuck', { app: 'stuck' }, { nodeName: 'dead-node' }));
    await c.pods('default').patch('stuck', 'merge', { status: { phase: 'Running' } }, { subresource: 'status' });
    // seen by podgc at its next pass: the pod that was dead-node's, its finalizer keeping it for us to look at
    await c.pods('default').patch('stuck', 'merge', { metadata: { finalizers: ['example.com/hold'] } });
    await c.pods('default').delete('stuck');
    await new Promise((r) => setTimeout(r, 600));
    expect((await c.pods('default').get('stuck')).status?.phase).toBe('Running'); // terminating, not yet out of service
    await c.nodes().patch('dead-node', 'merge', { spec: { taints: [{ key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' }] } });
    // marked Failed, then deleted at once (its finalizer keeps it here)
    const failed = await eventually(() => c.pods('default').get('stuck'), (p) => p.status?.phase === 'Failed' && p.metadata?.deletionGracePeriodSeconds === 0, 'the stuck pod marked Failed and force-deleted');
    expect(failed.status?.conditions ?? []).not.toContainEqual(expect.objectContaining({ type: 'DisruptionTarget' }));
    await c.pods('default').patch('stuck', 'merge', { metadata: { finalizers: null } });
    await eventually(() => c.pods('default').list({ labelSelector: 'app=stuck' }), (l) => l.items.length === 0, 'the stuck pod gone');
  }, 30_000);

  it('a PodDisruptionBudget whose pods name a controller that is gone, or another object of that name, fails safe', async () => {
    const pdbs = c.resource(Resources.podDisruptionBudgets, 'default');
    const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: '5c0ffee0-0000-4000-8000-000000000002', controller: true };
    await c.pods('default').create({ ...pod('web-1', { app: 'web' }), metadata: { name: 'web-1', namespace: 'default', labels: { app: 'web' }, ownerReferences: [owner] } });
    await pdbs.create({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web' }, spec: { minAvailable: '50%', selector: { matchLabels: { app: 'web' } } } });
    const message = 'found no controllers for pod "web-1"';
    const gone = await eventually(() => pdbs.get('web'), (p) => p.status?.conditions?.[0]?.reason === 'SyncFailed', 'SyncFailed');
    expect(gone.status.conditions[0]).toMatchObject({ type: 'DisruptionAllowed', status: 'False', message });
    expect(gone.status.disruptionsAllowed).toBe(0);
    const events = await eventually(() => c.resource(Resources.events, 'default').list({ fieldSelector: 'involvedObject.name=web,reason=CalculateExpectedPodCountFailed' }), (l) => l.items.length > 0, 'the warning');
    expect(events.items[0]!.message).toBe(`Failed to calculate the number of expected pods: ${message}`);
    // a ReplicaSet of that name, but not the pod's
    await c.replicaSets('default').create({
      apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web' },
      spec: { replicas: 4, selector: { matchLabels: { app: 'other' } }, template: { metadata: { labels: { app: 'other' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    await pdbs.patch('web', 'merge', { spec: { minAvailable: '60%' } });
    await new Promise((r) => setTimeout(r, 500));
    const other = await pdbs.get('web');
    expect(other.status.conditions[0]).toMatchObject({ reason: 'SyncFailed', message });
    expect(other.status.observedGeneration).toBeUndefined(); // failing safe leaves it as it was
  });

  it('a pod that more than one PodDisruptionBudget selects gets a warning naming the one chosen', async () => {
    const pdbs = c.resource(Resources.podDisruptionBudgets, 'default');
    for (const name of ['multi-a', 'multi-b']) {
      await pdbs.create({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'multi' } } } });
    }
    await c.pods('default').create(pod('multi-1', { app: 'multi' }));
    const events = await eventually(() => c.resource(Resources.events, 'default').list({ fieldSelector: 'involvedObject.name=multi-1,reason=MultiplePodDisruptionBudgets' }), (l) => l.items.length > 0, 'the warning');
    expect(events.items[0]).toMatchObject({ type: 'Warning', involvedObject: { kind: 'Pod', name: 'multi-1' } });
    expect(events.items[0]!.message).toBe('Pod "default"/"multi-1" matches multiple PodDisruptionBudgets.  Chose "multi-a" arbitrarily.');
  });
});
