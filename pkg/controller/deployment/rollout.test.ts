// Proportional scaling of a Deployment mid-rollout (upstream sync.go scale()), against a recording fake client.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { FakeClock, type Lister } from '../../client/index.js';
import type { ControllerContext } from '../shared/types.js';
import { Rollout } from './rollout.js';
import { appendRevisionHistory } from './util.js';

const template = (image: string) => ({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } });

const deployment = (replicas: number, rollingUpdate: Record<string, unknown>, statusReplicas = 4): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'web', namespace: 'ns', uid: 'd-uid', generation: 2, annotations: { 'deployment.kubernetes.io/revision': '2' } },
  spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: template('v2'), strategy: { type: 'RollingUpdate', rollingUpdate } },
  status: { observedGeneration: 1, replicas: statusReplicas },
});

const replicaSet = (name: string, o: { replicas: number; image: string; created: string; revision: string; desired: number; max: number; available: number }): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'ReplicaSet',
  metadata: {
    name, namespace: 'ns', uid: `${name}-uid`, creationTimestamp: o.created, labels: { app: 'web' },
    annotations: { 'deployment.kubernetes.io/revision': o.revision, 'deployment.kubernetes.io/desired-replicas': String(o.desired), 'deployment.kubernetes.io/max-replicas': String(o.max) },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd-uid', controller: true }],
  },
  spec: { replicas: o.replicas, selector: { matchLabels: { app: 'web' } }, template: template(o.image) },
  status: { replicas: o.replicas, availableReplicas: o.available },
});

/** Runs one sync; returns the ReplicaSets as last written (by name). */
async function sync(d: KubeObject, sets: KubeObject[]): Promise<Map<string, KubeObject>> {
  const written = new Map<string, KubeObject>(sets.map((rs) => [rs.metadata!.name!, rs]));
  let rv = 1;
  const echo = (o: KubeObject): KubeObject => ({ ...o, metadata: { ...o.metadata, resourceVersion: String(++rv) } });
  const client = {
    replicaSets: () => ({ update: async (rs: KubeObject) => { written.set(rs.metadata!.name!, rs); return echo(rs); } }),
    deployments: () => ({ update: async (x: KubeObject) => echo(x), updateStatus: async (x: KubeObject) => echo(x) }),
  };
  const ctx = { client, recorder: { event: () => undefined } } as unknown as ControllerContext;
  const pods = { namespace: () => ({ list: () => [] }) } as unknown as Lister;
  await new Rollout(ctx, new FakeClock(Date.parse('2024-01-01T00:10:00Z')), d, sets, pods, () => undefined).run();
  return written;
}

describe('deployment proportional scaling', () => {
  // mid-rollout of 3 replicas (maxSurge 1, maxUnavailable 0): the old set runs 3 available pods, the new one 1 pod
  // that never becomes ready
  const midRollout = () => [
    replicaSet('web-old', { replicas: 3, image: 'v1', created: '2024-01-01T00:00:00Z', revision: '1', desired: 3, max: 4, available: 3 }),
    replicaSet('web-new', { replicas: 1, image: 'v2', created: '2024-01-01T00:05:00Z', revision: '2', desired: 3, max: 4, available: 0 }),
  ];

  it('scaling down takes from the largest set first, so the old set keeps an available pod', async () => {
    const out = await sync(deployment(1, { maxSurge: 1, maxUnavailable: 0 }), midRollout());
    expect(out.get('web-old')!.spec.replicas).toBe(1);
    expect(out.get('web-new')!.spec.replicas).toBe(1);
    expect(out.get('web-old')!.metadata!.annotations!['deployment.kubernetes.io/max-replicas']).toBe('2');
  });

  it('scaling to zero allows no surge: every set goes to 0', async () => {
    const out = await sync(deployment(0, { maxSurge: 1, maxUnavailable: 0 }), midRollout());
    expect([out.get('web-old')!.spec.replicas, out.get('web-new')!.spec.replicas]).toEqual([0, 0]);
  });

  it('scaling up mid-rollout shares the new replicas by each set\'s part of the old size, the new set too', async () => {
    // 10 replicas (maxSurge 3, maxUnavailable 2) whose new pods never become ready: old 8, new 5; then 30
    const sets = [
      replicaSet('web-old', { replicas: 8, image: 'v1', created: '2024-01-01T00:00:00Z', revision: '1', desired: 10, max: 13, available: 8 }),
      replicaSet('web-new', { replicas: 5, image: 'v2', created: '2024-01-01T00:05:00Z', revision: '2', desired: 10, max: 13, available: 0 }),
    ];
    const out = await sync(deployment(30, { maxSurge: 3, maxUnavailable: 2 }), sets);
    expect([out.get('web-old')!.spec.replicas, out.get('web-new')!.spec.replicas]).toEqual([20, 13]);
    expect(out.get('web-new')!.metadata!.annotations!['deployment.kubernetes.io/max-replicas']).toBe('33');
  });

  it('with nothing to add or remove, the old sets still get the new desired-replicas annotation', async () => {
    // 3 -> 4 while maxSurge goes 2 -> 1: 5 allowed before and after
    const sets = [
      replicaSet('web-old', { replicas: 3, image: 'v1', created: '2024-01-01T00:00:00Z', revision: '1', desired: 3, max: 5, available: 3 }),
      replicaSet('web-new', { replicas: 2, image: 'v2', created: '2024-01-01T00:05:00Z', revision: '2', desired: 3, max: 5, available: 0 }),
    ];
    const out = await sync(deployment(4, { maxSurge: 1, maxUnavailable: 0 }), sets);
    expect(out.get('web-old')!.spec.replicas).toBe(3);
    expect(out.get('web-old')!.metadata!.annotations!['deployment.kubernetes.io/desired-replicas']).toBe('4');
  });
});

describe('the revision-history annotation', () => {
  it('appends the revision a rolled-back set had, dropping the oldest past 2,000 characters', () => {
    expect(appendRevisionHistory(undefined, '3')).toBe('3');
    expect(appendRevisionHistory('1,3', '5')).toBe('1,3,5');
    const long = Array.from({ length: 400 }, (_, i) => String(1000 + i)).join(','); // 1,999 characters
    const appended = appendRevisionHistory(long, '9999');
    expect([appended.length <= 2000, appended.startsWith('1001,'), appended.endsWith(',1399,9999')]).toEqual([true, true, true]);
  });
});
