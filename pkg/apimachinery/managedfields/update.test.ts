import { describe, expect, it } from 'vitest';
import { kind, mapList, obj, str, strMap, type Schema } from '../../../api/schema.js';
import type { KubeObject } from '../../../api/types.js';
import { DEPLOYMENT, lookup } from '../testdata/schemas.js';
import { capUpdateManagers, defaultManager } from './entries.js';
import { updateManagedFields } from './update.js';

const T1 = '2026-01-02T03:04:05Z';
const T2 = '2026-01-02T03:05:00Z';
const opts = (now = T1, extra: Record<string, unknown> = {}) => ({ lookup, rootDefinition: DEPLOYMENT, apiVersion: 'apps/v1', now, ...extra });

const deploy = (replicas = 1): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', uid: 'u', resourceVersion: '1', labels: { app: 'web' } },
  spec: { replicas, template: { spec: { containers: [{ name: 'nginx', image: 'nginx' }] } } },
  status: { replicas: 0 },
});

const entry = (o: KubeObject, manager: string) => o.metadata?.managedFields?.find((e) => e.manager === manager);

describe('updateManagedFields', () => {
  it('records every field a create sets, maps and list items as members', () => {
    const out = updateManagedFields(undefined, deploy(), 'kubectl-create', opts());
    expect(out.metadata?.managedFields).toEqual([{
      manager: 'kubectl-create', operation: 'Update', apiVersion: 'apps/v1', time: T1, fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
        'f:spec': { 'f:replicas': {}, 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } } },
        'f:status': { 'f:replicas': {} },
      },
    }]);
  });

  it('moves ownership of changed fields to the writer and keeps the rest', () => {
    const created = updateManagedFields(undefined, deploy(1), 'kubectl-create', opts());
    const scaled = updateManagedFields(created, { ...created, spec: { ...created.spec, replicas: 3 } }, 'kubectl-scale', opts(T2));
    expect((entry(scaled, 'kubectl-create')?.fieldsV1 as any)['f:spec']['f:replicas']).toBeUndefined();
    expect(entry(scaled, 'kubectl-scale')?.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
    expect(scaled.metadata?.managedFields?.map((e) => e.manager)).toEqual(['kubectl-create', 'kubectl-scale']);
  });

  it('merges into the same manager entry and only touches its time when something changed', () => {
    const created = updateManagedFields(undefined, deploy(1), 'kubectl-create', opts());
    const first = updateManagedFields(created, { ...created, spec: { ...created.spec, replicas: 2 } }, 'ctl', opts(T1));
    const second = updateManagedFields(first, { ...first, metadata: { ...first.metadata, labels: { app: 'web', x: 'y' } } }, 'ctl', opts(T2));
    expect(entry(second, 'ctl')?.time).toBe(T2);
    expect(entry(second, 'ctl')?.fieldsV1).toEqual({ 'f:metadata': { 'f:labels': { 'f:x': {} } }, 'f:spec': { 'f:replicas': {} } });
    const noop = updateManagedFields(second, second, 'ctl', opts('2026-02-01T00:00:00Z'));
    expect(entry(noop, 'ctl')?.time).toBe(T2);
  });

  it('drops removed fields from every manager and empty entries altogether', () => {
    const created = updateManagedFields(undefined, deploy(1), 'kubectl-create', opts());
    const { labels: _l, ...meta } = created.metadata!;
    const out = updateManagedFields(created, { ...created, metadata: meta }, 'editor', opts());
    expect((entry(out, 'kubectl-create')?.fieldsV1 as any)['f:metadata']).toBeUndefined();
    expect(entry(out, 'editor')).toBeUndefined();
  });

  it('lets a request reset managedFields with [{}] and leaves untracked objects untracked', () => {
    const created = updateManagedFields(undefined, deploy(1), 'kubectl-create', opts());
    const reset = updateManagedFields(created, { ...created, metadata: { ...created.metadata, managedFields: [{}] } }, 'kubectl-patch', opts());
    expect(reset.metadata?.managedFields).toBeUndefined();
    const later = updateManagedFields(reset, { ...reset, spec: { ...reset.spec, replicas: 5 } }, 'kubectl-edit', opts());
    expect(later.metadata?.managedFields).toBeUndefined();
  });

  it('resets managedFields on an empty list too, as upstream\'s isResetManagedFields (null keeps them)', () => {
    const created = updateManagedFields(undefined, deploy(1), 'kubectl-create', opts());
    for (const sent of [[], [{ manager: '', fieldsV1: null }]]) {
      const reset = updateManagedFields(created, { ...created, metadata: { ...created.metadata, managedFields: sent as never } }, 'kubectl-replace', opts());
      expect(reset.metadata?.managedFields).toBeUndefined();
    }
    const kept = updateManagedFields(created, { ...created, metadata: { ...created.metadata, managedFields: null as never } }, 'kubectl-replace', opts());
    expect(kept.metadata?.managedFields?.map((e) => e.manager)).toEqual(['kubectl-create']);
  });

  it('keeps the live entries when the request sends none', () => {
    const created = updateManagedFields(undefined, deploy(1), 'kubectl-create', opts());
    const { managedFields: _m, ...meta } = created.metadata!;
    const out = updateManagedFields(created, { ...created, metadata: meta, spec: { ...created.spec, replicas: 2 } }, 'client', opts());
    expect(out.metadata?.managedFields?.map((e) => e.manager)).toEqual(['client', 'kubectl-create']);
  });

  it('keeps the live entries when an entry sent does not decode, as upstream\'s decodeLiveOrNew', () => {
    const created = updateManagedFields(undefined, deploy(1), 'kubectl-create', opts());
    const valid = { manager: 'mine', operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:paused': {} } } };
    for (const bad of [
      { operation: 'Bogus' }, { apiVersion: '' }, { fieldsType: undefined }, { fieldsType: 'FieldsV2' },
      { fieldsV1: { 'f:spec': 'x' } }, { fieldsV1: { ab: {} } }, { fieldsV1: { 'k:[1]': {} } }, { fieldsV1: { 'i:x': {} } }, { fieldsV1: { 'v:{': {} } },
    ]) {
      const sent = [valid, { ...valid, manager: 'other', ...bad }];
      const out = updateManagedFields(created, { ...created, metadata: { ...created.metadata, managedFields: sent as never }, spec: { ...created.spec, replicas: 2 } }, 'client', opts());
      expect(out.metadata?.managedFields?.map((e) => e.manager)).toEqual(['client', 'kubectl-create']);
    }
    // a path element of an unknown type is left out, with what lies under it
    const unknown = { ...valid, fieldsV1: { 'f:spec': { 'f:paused': {}, 'x:new': { 'f:y': {} } } } };
    const out = updateManagedFields(created, { ...created, metadata: { ...created.metadata, managedFields: [unknown] as never } }, 'client', opts());
    expect(out.metadata?.managedFields).toEqual([{ ...valid, fieldsV1: { 'f:spec': { 'f:paused': {} } } }]);
  });

  it('takes the last of entries sent for the same manager', () => {
    const created = updateManagedFields(undefined, deploy(1), 'kubectl-create', opts());
    const entry = (fields: Record<string, unknown>, time: string) => ({ manager: 'm', operation: 'Update', apiVersion: 'apps/v1', time, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': fields } });
    const sent = [entry({ 'f:replicas': {} }, T1), entry({ 'f:paused': {} }, T2)];
    const out = updateManagedFields(created, { ...created, metadata: { ...created.metadata, managedFields: sent as never } }, 'client', opts());
    expect(out.metadata?.managedFields).toEqual([sent[1]]);
  });

  it('owns a null as the leaf it is: Go writes some zero values as null (lastProbeTime, a template\'s creationTimestamp)', () => {
    const withNull = (policy: string | null): KubeObject => {
      const d = deploy();
      return { ...d, spec: { ...d.spec, template: { spec: { containers: [{ name: 'nginx', image: 'nginx' }], restartPolicy: policy } } } };
    };
    const created = updateManagedFields(undefined, withNull(null), 'kube-controller-manager', opts());
    expect((entry(created, 'kube-controller-manager')?.fieldsV1 as any)['f:spec']['f:template']['f:spec']['f:restartPolicy']).toEqual({});
    const unchanged = updateManagedFields(created, { ...withNull(null), metadata: created.metadata }, 'kubectl-edit', opts(T2));
    expect(entry(unchanged, 'kubectl-edit')).toBeUndefined();
    const set = updateManagedFields(created, { ...withNull('Always'), metadata: created.metadata }, 'kubectl-edit', opts(T2));
    expect((entry(set, 'kube-controller-manager')?.fieldsV1 as any)['f:spec']['f:template']['f:spec']['f:restartPolicy']).toBeUndefined();
    expect(entry(set, 'kubectl-edit')?.fieldsV1).toEqual({ 'f:spec': { 'f:template': { 'f:spec': { 'f:restartPolicy': {} } } } });
  });

  it('records subresource writes separately and ignores reset paths', () => {
    const created = updateManagedFields(undefined, deploy(1), 'kubectl-create', opts(T1, { ignore: [['f:status']] }));
    expect((entry(created, 'kubectl-create')?.fieldsV1 as any)['f:status']).toBeUndefined();
    const status = updateManagedFields(created, { ...created, status: { replicas: 1 } }, 'kube-controller-manager', opts(T2, { subresource: 'status' }));
    expect(entry(status, 'kube-controller-manager')).toEqual({
      manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'apps/v1', time: T2, fieldsType: 'FieldsV1',
      fieldsV1: { 'f:status': { 'f:replicas': {} } }, subresource: 'status',
    });
  });
});

describe('updateManagedFields on stored entries', () => {
  it('hands back the entries a write does not touch as they were stored', () => {
    const created = updateManagedFields(undefined, deploy(1), 'kubectl-create', opts());
    const scaled = updateManagedFields(created, { ...created, spec: { ...created.spec, replicas: 3 } }, 'kubectl-scale', opts(T2));
    const labelled = updateManagedFields(scaled, { ...scaled, metadata: { ...scaled.metadata, labels: { app: 'web', x: 'y' } } }, 'kubectl-label', opts(T2));
    // kubectl-create owns neither the new label nor spec.replicas any more: its stored FieldsV1 is reused
    expect(entry(labelled, 'kubectl-create')?.fieldsV1).toBe(entry(scaled, 'kubectl-create')?.fieldsV1);
    expect(entry(labelled, 'kubectl-label')?.fieldsV1).toEqual({ 'f:metadata': { 'f:labels': { 'f:x': {} } } });
    // a write that takes a field from a stored entry rewrites that entry
    const rescaled = updateManagedFields(labelled, { ...labelled, spec: { ...labelled.spec, replicas: 4 }, metadata: { ...labelled.metadata, labels: { app: 'web' } } }, 'hpa', opts(T2));
    expect(entry(rescaled, 'kubectl-scale')).toBeUndefined();
    expect(entry(rescaled, 'kubectl-label')).toBeUndefined();
    expect(entry(rescaled, 'hpa')?.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
  });

  it('compares atomic maps by value, not by the order of their keys', () => {
    const withSelector = { ...deploy(1), spec: { ...deploy(1).spec, selector: { matchLabels: { app: 'web', tier: 'a' } } } };
    const created = updateManagedFields(undefined, withSelector, 'kubectl-create', opts());
    const reordered = { ...created, spec: { ...created.spec, selector: { matchLabels: { tier: 'a', app: 'web' } } } };
    expect(updateManagedFields(created, reordered, 'other', opts(T2)).metadata?.managedFields?.map((e) => e.manager)).toEqual(['kubectl-create']);
    const changed = { ...created, spec: { ...created.spec, selector: { matchLabels: { tier: 'b', app: 'web' } } } };
    expect(entry(updateManagedFields(created, changed, 'other', opts(T2)), 'other')?.fieldsV1).toEqual({ 'f:spec': { 'f:selector': {} } });
  });

  it('drops a field a manager owned when a write removes it, without re-encoding the others', () => {
    const created = updateManagedFields(undefined, deploy(1), 'kubectl-create', opts());
    const { replicas: _r, ...spec } = created.spec as Record<string, unknown>;
    const out = updateManagedFields(created, { ...created, spec }, 'kubectl-create', opts(T2));
    expect((entry(out, 'kubectl-create')?.fieldsV1 as any)['f:spec']['f:replicas']).toBeUndefined();
    expect((entry(out, 'kubectl-create')?.fieldsV1 as any)['f:spec']['f:template']).toBeDefined();
  });
});

describe('updateManagedFields: what was not there before is the writer\'s own, containers included', () => {
  // upstream's create compares with scope.Creater.New(kind); structured-merge-diff's compare adds a map or list's own
  // path where the old object lacks it
  const WIDGET = 'com.example.v1.Widget';
  const widget = kind({ group: 'example.com', version: 'v1', kind: 'Widget' }, {
    spec: obj({
      atomicObj: obj({ x: str() }, undefined, { 'x-kubernetes-map-type': 'atomic' }),
      labelsMap: strMap(), nested: obj({ a: str() }, undefined, { nullable: true }), items: mapList(obj({ name: str() }), 'name'),
    }, undefined, { required: ['nested'] }),
    status: obj({ conditions: mapList(obj({ type: str(), status: str() }), 'type') }),
  });
  const crLookup = (name: string): Schema | undefined => (name === WIDGET ? widget : lookup(name));
  const crOpts = (now = T1, extra: Record<string, unknown> = {}) => opts(now, { lookup: crLookup, rootDefinition: WIDGET, apiVersion: 'example.com/v1', ...extra });
  const cr = (spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', labels: { a: '1' } }, spec });
  const fields = (o: KubeObject, manager: string) => entry(o, manager)?.fieldsV1 as any;

  it('owns every object and list of a created custom resource, spec included (its zero object is an empty Unstructured)', () => {
    const out = updateManagedFields(undefined, cr({ atomicObj: { x: '1' }, labelsMap: { k: 'v' }, nested: { a: '1' }, items: [{ name: 'i' }] }), 'kubectl-create', crOpts(T1, { ignore: [['f:status']] }));
    expect(fields(out, 'kubectl-create')).toEqual({
      'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } },
      'f:spec': {
        '.': {}, 'f:atomicObj': {}, 'f:items': { '.': {}, 'k:{"name":"i"}': { '.': {}, 'f:name': {} } },
        'f:labelsMap': { '.': {}, 'f:k': {} }, 'f:nested': { '.': {}, 'f:a': {} },
      },
    });
  });

  it('owns the status a /status write adds and the struct an update adds, its own path with its fields', () => {
    const created = updateManagedFields(undefined, cr({ labelsMap: {} }), 'kubectl-create', crOpts(T1, { ignore: [['f:status']] }));
    expect(fields(created, 'kubectl-create')['f:spec']).toEqual({ '.': {}, 'f:labelsMap': {} });
    const status = updateManagedFields(created, { ...created, status: { conditions: [{ type: 'Ready', status: 'True' }] } }, 'controller', crOpts(T2, { subresource: 'status', ignore: [['f:spec']] }));
    expect(fields(status, 'controller')).toEqual({
      'f:status': { '.': {}, 'f:conditions': { '.': {}, 'k:{"type":"Ready"}': { '.': {}, 'f:status': {}, 'f:type': {} } } },
    });
    const defaulted = updateManagedFields(status, { ...status, spec: { labelsMap: { k: 'v' }, nested: { a: 'x' } } }, 'defaulter', crOpts(T2, { ignore: [['f:status']] }));
    // the labels map was there (empty): only its new key is the writer's
    expect(fields(defaulted, 'defaulter')).toEqual({ 'f:spec': { 'f:labelsMap': { 'f:k': {} }, 'f:nested': { '.': {}, 'f:a': {} } } });
  });

  it('fills a null map without owning it, and owns an empty one set over null (structured-merge-diff\'s leaf)', () => {
    const created = updateManagedFields(undefined, cr({ nested: null }), 'kubectl-create', crOpts());
    const filled = updateManagedFields(created, { ...created, spec: { nested: { a: '1' } } }, 'filler', crOpts(T2));
    expect(fields(filled, 'filler')).toEqual({ 'f:spec': { 'f:nested': { 'f:a': {} } } });
    const emptied = updateManagedFields(created, { ...created, spec: { nested: {} } }, 'emptier', crOpts(T2));
    expect(fields(emptied, 'emptier')).toEqual({ 'f:spec': { 'f:nested': {} } });
    const cleared = updateManagedFields(filled, { ...filled, spec: { nested: null } }, 'clearer', crOpts(T2));
    expect(fields(cleared, 'filler')).toBeUndefined();
    expect(fields(cleared, 'clearer')).toBeUndefined();
  });

  it('owns a built-in\'s pointer struct an update adds (a Deployment\'s rollingUpdate), not the value struct above it', () => {
    const d = deploy();
    const created = updateManagedFields(undefined, { ...d, spec: { ...d.spec, strategy: { type: 'Recreate' } } }, 'kubectl-create', opts());
    expect(fields(created, 'kubectl-create')['f:spec']['f:strategy']).toEqual({ 'f:type': {} });
    const rolling = { ...created, spec: { ...created.spec, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '1' } } } };
    expect(fields(updateManagedFields(created, rolling, 'kubectl-edit', opts(T2)), 'kubectl-edit')).toEqual({
      'f:spec': { 'f:strategy': { 'f:rollingUpdate': { '.': {}, 'f:maxSurge': {} }, 'f:type': {} } },
    });
  });

  it('compares a create that sends managedFields with the zero object too', () => {
    const plain = deploy();
    // the zero Deployment's template has creationTimestamp: null already
    const d = { ...plain, spec: { ...plain.spec, template: { metadata: { creationTimestamp: null }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } } } };
    const sent: KubeObject = { ...d, metadata: { ...d.metadata, managedFields: [{ manager: 'other', operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:paused': {} } } }] } };
    const mine = fields(updateManagedFields(undefined, sent, 'kubectl-create', opts()), 'kubectl-create');
    expect(mine).toEqual(fields(updateManagedFields(undefined, d, 'kubectl-create', opts()), 'kubectl-create'));
    expect(mine['f:spec']['f:template']).toEqual({ 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } });
  });
});

describe('entries of versions without a schema', () => {
  it('are dropped at the next write, as structured-merge-diff leaves out what it cannot convert', () => {
    const created = updateManagedFields(undefined, deploy(1), 'kubectl-create', opts());
    const old = { manager: 'old', operation: 'Update' as const, apiVersion: 'apps/v1beta1', time: T1, fieldsType: 'FieldsV1' as const, fieldsV1: { 'f:spec': { 'f:paused': {} } } };
    const stored: KubeObject = { ...created, metadata: { ...created.metadata, managedFields: [...created.metadata!.managedFields!, old] } };
    const known = { knownVersion: (v: string) => v === 'apps/v1' };
    const scaled = updateManagedFields(stored, { ...stored, spec: { ...stored.spec, replicas: 3 } }, 'kubectl-scale', opts(T2, known));
    expect(scaled.metadata?.managedFields?.map((e) => e.manager)).toEqual(['kubectl-create', 'kubectl-scale']);
    // without the server's versions to go by, every entry stays
    const kept = updateManagedFields(stored, { ...stored, spec: { ...stored.spec, replicas: 3 } }, 'kubectl-scale', opts(T2));
    expect(kept.metadata?.managedFields?.map((e) => e.manager)).toEqual(['kubectl-create', 'old', 'kubectl-scale']);
  });
});

describe('capUpdateManagers', () => {
  it('folds the oldest update managers into ancient-changes past ten', () => {
    let obj = updateManagedFields(undefined, deploy(1), 'creator', opts('2026-01-01T00:00:00Z'));
    for (let i = 0; i < 11; i++) {
      const next = { ...obj, metadata: { ...obj.metadata, labels: { ...obj.metadata?.labels, [`l${i}`]: 'v' } } };
      obj = updateManagedFields(obj, next, `writer-${i}`, opts(`2026-01-01T00:00:${String(10 + i)}Z`));
    }
    const names = obj.metadata?.managedFields?.map((e) => e.manager) ?? [];
    expect(names).toHaveLength(10);
    expect(names[0]).toBe('ancient-changes');
    expect(names).not.toContain('creator');
    expect(names).not.toContain('writer-0');
    expect(names).not.toContain('writer-1');
    const ancient = obj.metadata?.managedFields?.[0].fieldsV1 as any;
    expect(ancient['f:spec']['f:replicas']).toEqual({});
    expect(ancient['f:metadata']['f:labels']['f:l1']).toEqual({});
  });

  it('folds, of managers of one second, the first by identifier (manager name), whatever their order', () => {
    const at = '2026-01-01T00:00:00Z';
    const managers = ['k', 'c', 'j', 'a', 'i', 'b', 'h', 'd', 'g', 'e', 'f'];
    const entries = managers.map((m) => ({ manager: m, operation: 'Update' as const, apiVersion: 'apps/v1', time: at, set: new Set([`f:${m}`]) }));
    const names = capUpdateManagers(entries).map((e) => e.manager);
    // "a" (the first) stays as the first of its apiVersion; "b" (the next) is folded into it, as ancient-changes
    expect(names).toEqual(['k', 'c', 'j', 'ancient-changes', 'i', 'h', 'd', 'g', 'e', 'f']);
  });
});

describe('defaultManager', () => {
  it('takes the user agent up to the first slash', () => {
    expect(defaultManager('kubectl/v1.32.0 (linux/amd64) kubernetes/abc')).toBe('kubectl');
    expect(defaultManager('OpenAPI-Generator/31.0.0/python')).toBe('OpenAPI-Generator');
    expect(defaultManager('curl')).toBe('curl');
  });
});
