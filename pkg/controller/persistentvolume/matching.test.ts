import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../client/index.js';
import { defaultClass, findBestMatch, mismatch } from './matching.js';

const pv = (name: string, size: string, o: { cls?: string; modes?: string[]; labels?: Record<string, string>; claimRef?: Record<string, string>; phase?: string } = {}): KubeObject => ({
  metadata: { name, ...(o.labels ? { labels: o.labels } : {}) },
  spec: { capacity: { storage: size }, accessModes: o.modes ?? ['ReadWriteOnce'], storageClassName: o.cls ?? 'manual', ...(o.claimRef ? { claimRef: o.claimRef } : {}) },
  status: { phase: o.phase ?? 'Available' },
});
const claim: KubeObject = {
  metadata: { name: 'c', namespace: 'ns', uid: 'u1' },
  spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'manual', resources: { requests: { storage: '1Gi' } } },
};

describe('persistent volume matching', () => {
  it('picks the smallest unclaimed volume of the class, modes and size; a pre-bound one first', () => {
    const vols = [pv('big', '10Gi'), pv('small', '2Gi'), pv('tiny', '500Mi'), pv('other', '1Gi', { cls: 'fast' }), pv('rox', '1Gi', { modes: ['ReadOnlyMany'] }), pv('taken', '1Gi', { claimRef: { namespace: 'x', name: 'y' }, phase: 'Bound' })];
    expect(findBestMatch(claim, vols, false)?.metadata?.name).toBe('small');
    expect(findBestMatch(claim, [...vols, pv('mine', '5Gi', { claimRef: { namespace: 'ns', name: 'c' } })], false)?.metadata?.name).toBe('mine');
    expect(findBestMatch(claim, vols, true)).toBeUndefined(); // WaitForFirstConsumer: the scheduler chooses
    expect(findBestMatch({ ...claim, spec: { ...claim.spec, selector: { matchLabels: { tier: 'gold' } } } }, [...vols, pv('gold', '3Gi', { labels: { tier: 'gold' } })], false)?.metadata?.name).toBe('gold');
    expect(mismatch(pv('tiny', '500Mi'), claim)).toBe('requested PV is too small');
  });

  it('the default class is the newest annotated one', () => {
    const sc = (name: string, created: string, def: boolean): KubeObject => ({ metadata: { name, creationTimestamp: created, annotations: def ? { 'storageclass.kubernetes.io/is-default-class': 'true' } : {} } });
    expect(defaultClass([sc('a', '2024-01-01T00:00:00Z', true), sc('b', '2024-02-01T00:00:00Z', true), sc('c', '2024-03-01T00:00:00Z', false)])?.metadata?.name).toBe('b');
    expect(defaultClass([sc('c', '2024-03-01T00:00:00Z', false)])).toBeUndefined();
  });
});
