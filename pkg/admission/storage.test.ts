// The storage admission plugins and DefaultIngressClass, as upstream's: which class a new claim or Ingress gets, the
// protection finalizers of new claims and volumes, and when a claim may grow.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types.js';
import { DefaultIngressClass } from './default-ingress-class.js';
import { DefaultStorageClass, PersistentVolumeClaimResize, StorageObjectInUseProtection } from './storage.js';
import { attrs, memoryDeps } from './testing.js';

const storageClass = (name: string, created: string, isDefault: boolean, extra: KubeObject = {}) => ({
  group: 'storage.k8s.io', plural: 'storageclasses',
  obj: { metadata: { name, creationTimestamp: created, annotations: isDefault ? { 'storageclass.kubernetes.io/is-default-class': 'true' } : {} as Record<string, string> }, provisioner: 'x', ...extra },
});
const claim = (spec: Record<string, unknown> = {}, extra: KubeObject = {}): KubeObject =>
  ({ metadata: { name: 'c', namespace: 'ns' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec }, ...extra });

describe('DefaultStorageClass', () => {
  const p = new DefaultStorageClass(memoryDeps([
    storageClass('old', '2026-01-01T00:00:00Z', true), storageClass('new', '2026-02-01T00:00:00Z', true), storageClass('plain', '2026-03-01T00:00:00Z', false),
  ]));

  it('gives a new claim without a class the newest default class; a class named, even "", stays', () => {
    const unnamed = claim();
    p.admit(attrs('persistentvolumeclaims', 'CREATE', unnamed));
    expect(unnamed.spec.storageClassName).toBe('new');
    for (const named of [claim({ storageClassName: '' }), claim({ storageClassName: 'plain' }), claim({}, { metadata: { name: 'c', annotations: { 'volume.beta.kubernetes.io/storage-class': 'plain' } } })]) {
      const before = structuredClone(named);
      p.admit(attrs('persistentvolumeclaims', 'CREATE', named));
      expect(named).toEqual(before);
    }
    const updated = claim();
    p.admit(attrs('persistentvolumeclaims', 'UPDATE', updated, { oldObject: claim() }));
    expect(updated.spec.storageClassName).toBeUndefined();
  });
});

describe('StorageObjectInUseProtection', () => {
  it('adds the protection finalizers to new claims and volumes, once', () => {
    const p = new StorageObjectInUseProtection();
    const pvc = claim({}, { metadata: { name: 'c', finalizers: ['example.com/keep'] } });
    p.admit(attrs('persistentvolumeclaims', 'CREATE', pvc));
    expect(pvc.metadata?.finalizers).toEqual(['example.com/keep', 'kubernetes.io/pvc-protection']);
    p.admit(attrs('persistentvolumeclaims', 'CREATE', pvc));
    expect(pvc.metadata?.finalizers).toHaveLength(2);
    const pv: KubeObject = { metadata: { name: 'v' }, spec: {} };
    p.admit(attrs('persistentvolumes', 'CREATE', pv));
    expect(pv.metadata?.finalizers).toEqual(['kubernetes.io/pv-protection']);
    const status: KubeObject = { metadata: { name: 'v' } };
    p.admit(attrs('persistentvolumes', 'CREATE', status, { subresource: 'status' }));
    expect(status.metadata?.finalizers).toBeUndefined();
  });
});

describe('PersistentVolumeClaimResize', () => {
  const p = new PersistentVolumeClaimResize(memoryDeps([
    storageClass('grows', '2026-01-01T00:00:00Z', false, { allowVolumeExpansion: true }), storageClass('fixed', '2026-01-01T00:00:00Z', false),
  ]));
  const resize = (cls: string, phase: string, to = '2Gi') => () => p.validate(attrs('persistentvolumeclaims', 'UPDATE',
    claim({ storageClassName: cls, resources: { requests: { storage: to } } }), { name: 'c', oldObject: claim({ storageClassName: cls }, { status: { phase } }) }));

  it('lets a bound claim of an expandable class grow, and nothing else', () => {
    expect(resize('grows', 'Bound')).not.toThrow();
    expect(resize('grows', 'Pending')).toThrow('persistentvolumeclaims "c" is forbidden: Only bound persistent volume claims can be expanded');
    expect(resize('fixed', 'Bound')).toThrow('only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
    expect(resize('', 'Bound')).toThrow('must support resize');
    // not growing: no check at all
    expect(resize('fixed', 'Pending', '1Gi')).not.toThrow();
  });
});

describe('DefaultIngressClass', () => {
  const ingressClass = (name: string, created: string, isDefault: boolean) => ({
    group: 'networking.k8s.io', plural: 'ingressclasses',
    obj: { metadata: { name, creationTimestamp: created, annotations: isDefault ? { 'ingressclass.kubernetes.io/is-default-class': 'true' } : {} as Record<string, string> }, spec: { controller: 'x' } },
  });
  const p = new DefaultIngressClass(memoryDeps([ingressClass('a', '2026-01-01T00:00:00Z', true), ingressClass('b', '2026-01-01T00:00:00Z', true), ingressClass('c', '2026-05-01T00:00:00Z', false)]));
  const ingress = (o: KubeObject = {}): KubeObject => ({ metadata: { name: 'i', namespace: 'ns', ...o.metadata }, spec: { ...o.spec } });
  const admitted = (i: KubeObject): KubeObject => { p.admit(attrs('ingresses', 'CREATE', i, { group: 'networking.k8s.io' })); return i; };

  it('gives a new Ingress without a class the default one (by name at equal times), unless it names one', () => {
    expect(admitted(ingress()).spec.ingressClassName).toBe('a');
    expect(admitted(ingress({ spec: { ingressClassName: 'c' } })).spec.ingressClassName).toBe('c');
    expect(admitted(ingress({ metadata: { annotations: { 'kubernetes.io/ingress.class': 'nginx' } } })).spec.ingressClassName).toBeUndefined();
  });
});
