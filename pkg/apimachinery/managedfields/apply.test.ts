import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { statusErrorOf } from '../testing/status-error.js';
import { DEPLOYMENT, lookup } from '../testdata/schemas.js';
import { apply } from './apply.js';
import { updateManagedFields } from './update.js';

const T1 = '2026-01-02T03:04:05Z';
const T2 = '2026-01-02T03:05:00Z';
const opts = (force = false, now = T1) => ({ force, lookup, rootDefinition: DEPLOYMENT, apiVersion: 'apps/v1', now });

const config = (replicas = 2, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1', ports: [{ containerPort: 80 }] }] },
    },
    ...extra,
  },
});

const managers = (o: KubeObject) => (o.metadata?.managedFields ?? []).map((e) => `${e.manager}/${e.operation}`);
const fieldsOf = (o: KubeObject, manager: string) => o.metadata?.managedFields?.find((e) => e.manager === manager)?.fieldsV1;

describe('apply', () => {
  it('creates with one Apply entry shaped as kubectl apply --server-side leaves it', () => {
    const out = apply(undefined, config(), 'kubectl', opts());
    expect(out.spec.replicas).toBe(2);
    expect(out.metadata?.managedFields).toEqual([{
      manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', time: T1, fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': { 'f:labels': { 'f:app': {} } },
        'f:spec': {
          'f:replicas': {},
          'f:selector': {},
          'f:template': {
            'f:metadata': { 'f:labels': { 'f:app': {} } },
            'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': {
              '.': {}, 'f:image': {}, 'f:name': {},
              'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
            } } },
          },
        },
      },
    }]);
  });

  it('conflicts with another manager that owns a field it would change, and force takes it', () => {
    const created = updateManagedFields(undefined, config(1), 'kubectl-client-side-apply', opts());
    const e = statusErrorOf(() => apply(created, config(3), 'kubectl', opts()));
    expect(e.code).toBe(409);
    expect(e.reason).toBe('Conflict');
    expect(e.message).toBe('Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas');
    expect(e.details?.causes).toEqual([{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-client-side-apply" using apps/v1', field: '.spec.replicas' }]);

    const forced = apply(created, config(3), 'kubectl', opts(true, T2));
    expect(forced.spec.replicas).toBe(3);
    expect(managers(forced)).toEqual(['kubectl/Apply', 'kubectl-client-side-apply/Update']);
    expect((fieldsOf(forced, 'kubectl-client-side-apply') as any)['f:spec']['f:replicas']).toBeUndefined();
    expect((fieldsOf(forced, 'kubectl') as any)['f:spec']['f:replicas']).toEqual({});
  });

  it('lists several conflicts per manager', () => {
    const created = updateManagedFields(undefined, config(1), 'kubectl-create', opts());
    const next = config(3);
    next.spec.template.spec.containers[0].image = 'nginx:2';
    const e = statusErrorOf(() => apply(created, next, 'kubectl', opts()));
    expect(e.message).toBe('Apply failed with 2 conflicts: conflicts with "kubectl-create" using apps/v1:\n- .spec.replicas\n- .spec.template.spec.containers[name="nginx"].image');
  });

  it('shares fields applied with the same value', () => {
    const created = updateManagedFields(undefined, config(2), 'kubectl-create', opts());
    const out = apply(created, config(2), 'kubectl', opts());
    expect((fieldsOf(out, 'kubectl-create') as any)['f:spec']['f:replicas']).toEqual({});
    expect((fieldsOf(out, 'kubectl') as any)['f:spec']['f:replicas']).toEqual({});
  });

  it('removes fields the manager applied before and now omits', () => {
    const first = config(2);
    first.metadata!.labels = { app: 'web', tier: 'fe' };
    first.spec.template.spec.containers.push({ name: 'side', image: 'busybox' });
    const live = apply(undefined, first, 'kubectl', opts());
    const out = apply(live, config(2), 'kubectl', opts(false, T2));
    expect(out.metadata?.labels).toEqual({ app: 'web' });
    expect(out.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['nginx']);
    expect(out.metadata?.managedFields?.[0].time).toBe(T2);
  });

  it('keeps omitted fields another manager owns', () => {
    const first = config(2);
    first.metadata!.labels = { app: 'web', tier: 'fe' };
    const live = apply(undefined, first, 'kubectl', opts());
    // another writer sets the same label value, so it shares ownership of it
    const touched = updateManagedFields(live, { ...live, metadata: { ...live.metadata, labels: { app: 'web', tier: 'fe', other: 'x' } } }, 'kubectl-label', opts());
    const shared = apply(touched, { ...first, metadata: { ...first.metadata, labels: { app: 'web', tier: 'fe', other: 'x' } } }, 'kubectl', opts());
    const out = apply(shared, config(2), 'kubectl', opts());
    expect(out.metadata?.labels).toEqual({ app: 'web', other: 'x' });
  });

  it('merges map lists by key: each applier keeps its own containers', () => {
    const a = config(2);
    const live = apply(undefined, a, 'alice', opts());
    const bob = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'envoy' }] } } } };
    const both = apply(live, bob, 'bob', opts());
    expect(both.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['nginx', 'sidecar']);
    const bobLeaves = apply(both, { ...bob, spec: { template: { spec: { containers: [] } } } }, 'bob', opts());
    expect(bobLeaves.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['nginx']);
    expect(bobLeaves.spec.replicas).toBe(2);
  });

  it('removes a dropped item whole though an updater owns fields inside it, and their ownership with it', () => {
    const both = config(2);
    both.spec.template.spec.containers.push({ name: 'sidecar', image: 'envoy' });
    const live = apply(undefined, both, 'alice', opts());
    const containers = live.spec.template.spec.containers.map((c: Record<string, unknown>) =>
      (c.name === 'sidecar' ? { ...c, resources: { limits: { cpu: '100m' } } } : c));
    const patched = updateManagedFields(live, { ...live, spec: { ...live.spec, template: { ...live.spec.template, spec: { containers } } } }, 'kubectl-patch', opts());
    const out = apply(patched, config(2), 'alice', opts(false, T2));
    expect(out.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['nginx']);
    expect(managers(out)).toEqual(['alice/Apply']);
  });

  it('returns the live object itself when applying the same configuration again', () => {
    const live = apply(undefined, config(), 'kubectl', opts());
    expect(apply(live, config(), 'kubectl', opts(false, T2))).toBe(live);
  });

  it('treats an untracked object as owned by before-first-apply', () => {
    const untracked: KubeObject = { ...config(1), metadata: { name: 'web', uid: 'u1', resourceVersion: '7', labels: { app: 'web' } } };
    const e = statusErrorOf(() => apply(untracked, config(4), 'kubectl', opts()));
    expect(e.message).toBe('Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1: .spec.replicas');
    const out = apply(untracked, config(1), 'kubectl', opts());
    expect(managers(out)).toEqual(['kubectl/Apply', 'before-first-apply/Update']);
    expect(out.metadata?.uid).toBe('u1');
    // through a subresource, the entry is that endpoint's, as upstream's skipNonApplied updates through it
    const viaStatus = statusErrorOf(() => apply(untracked, config(4), 'kubectl', { ...opts(), subresource: 'status' }));
    expect(viaStatus.message).toBe('Apply failed with 1 conflict: conflict with "before-first-apply" with subresource "status" using apps/v1: .spec.replicas');
  });

  it('refuses managedFields in the applied configuration', () => {
    const bad = config();
    for (const list of [[{ manager: 'x' }], []]) {
      bad.metadata!.managedFields = list;
      expect(statusErrorOf(() => apply(undefined, bad, 'kubectl', opts())).message).toBe('metadata.managedFields must be nil');
    }
  });

  it('keeps the client-side apply annotation in step when kubectl applies', () => {
    const annotated = updateManagedFields(undefined, { ...config(1), metadata: { name: 'web', labels: { app: 'web' }, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' } } }, 'kubectl-client-side-apply', opts());
    const out = apply(annotated, config(1), 'kubectl', opts());
    const last = out.metadata?.annotations?.['kubectl.kubernetes.io/last-applied-configuration'] ?? '';
    expect(last.endsWith('}\n')).toBe(true);
    expect(JSON.parse(last)).toEqual(config(1));
    expect(last.startsWith('{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"labels"')).toBe(true);
    const other = apply(annotated, config(1), 'my-tool', opts());
    expect(other.metadata?.annotations?.['kubectl.kubernetes.io/last-applied-configuration']).toBe('{}');
  });
});

describe('the time of an Apply entry', () => {
  it('moves only when the object changed: a no-op apply keeps it, and a manager new to an unchanged object has none', () => {
    const T3 = '2026-01-02T03:06:00Z';
    const created = apply(undefined, config(2), 'a', opts(false, T1));
    const shared = apply(created, config(2), 'b', opts(false, T2));
    const timeOf = (o: KubeObject, m: string) => o.metadata?.managedFields?.find((e) => e.manager === m)?.time;
    expect([timeOf(shared, 'a'), timeOf(shared, 'b')]).toEqual([T1, undefined]);
    expect(managers(shared)).toEqual(['b/Apply', 'a/Apply']);
    expect(timeOf(apply(shared, config(2), 'a', opts(false, T3)), 'a')).toBe(T1);
    expect(timeOf(apply(shared, config(3), 'a', opts(true, T3)), 'a')).toBe(T3);
  });
});
