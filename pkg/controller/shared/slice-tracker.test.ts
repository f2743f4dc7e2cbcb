import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { SliceTracker, sliceEventHandler } from './slice-tracker.js';

const slice = (uid: string, generation: number, o: { service?: string; manager?: string } = {}): KubeObject => ({
  apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
  metadata: {
    name: `s-${uid}`, namespace: 'ns', uid, generation,
    labels: { 'kubernetes.io/service-name': o.service ?? 'svc', 'endpointslice.kubernetes.io/managed-by': o.manager ?? 'me' },
  },
});

describe('SliceTracker (upstream EndpointSliceTracker)', () => {
  it('finds the cache stale when a slice is older than written, deleted but listed, or written but not listed', () => {
    const t = new SliceTracker();
    // nothing written for the service: whatever the cache holds is taken
    expect(t.stale('ns/svc', [slice('a', 1)])).toBe(false);
    t.written(slice('a', 2));
    expect(t.stale('ns/svc', [slice('a', 1)])).toBe(true);
    expect(t.stale('ns/svc', [slice('a', 2)])).toBe(false);
    // a newer generation is someone else's write: not stale
    expect(t.stale('ns/svc', [slice('a', 3)])).toBe(false);
    expect(t.stale('ns/svc', [])).toBe(true);
    t.written(slice('b', 1));
    expect(t.stale('ns/svc', [slice('a', 2)])).toBe(true);
    t.expectDeletion(slice('b', 1));
    expect(t.stale('ns/svc', [slice('a', 2), slice('b', 1)])).toBe(true);
    expect(t.stale('ns/svc', [slice('a', 2)])).toBe(false);
    // another service's slices are tracked apart, and a service deleted forgets its own
    expect(t.stale('ns/other', [])).toBe(false);
    t.deleteService('ns/svc');
    expect(t.stale('ns/svc', [])).toBe(false);
  });

  it('syncs for slices it did not write as they are, and tells an expected deletion from another', () => {
    const t = new SliceTracker();
    expect(t.shouldSync(slice('a', 1))).toBe(true);
    t.written(slice('a', 2));
    expect([t.shouldSync(slice('a', 1)), t.shouldSync(slice('a', 2)), t.shouldSync(slice('a', 3))]).toEqual([false, false, true]);
    expect(t.has(slice('a', 2))).toBe(true);
    expect(t.handleDeletion(slice('a', 2))).toBe(false);
    expect(t.has(slice('a', 2))).toBe(false);
    t.expectDeletion(slice('b', 1));
    expect(t.handleDeletion(slice('b', 1))).toBe(true);
    // a slice never tracked: nothing to resync for
    expect(t.handleDeletion(slice('c', 1))).toBe(true);
  });
});

describe('sliceEventHandler (upstream onEndpointSlice{Add,Update,Delete})', () => {
  const fixture = () => {
    const tracker = new SliceTracker();
    const queued: string[] = [];
    return { tracker, queued, h: sliceEventHandler(tracker, 'me', (k) => queued.push(k)) };
  };

  it("queues the service of a slice it did not write as it is, not for the controller's own writes", () => {
    const { tracker, queued, h } = fixture();
    tracker.written(slice('a', 2));
    h.onAdd!(slice('a', 2), false);
    h.onUpdate!(slice('a', 1), slice('a', 2));
    expect(queued).toEqual([]);
    h.onUpdate!(slice('a', 2), slice('a', 3));
    h.onAdd!(slice('b', 1), false);
    // another manager's slices are not its business
    h.onAdd!(slice('c', 1, { manager: 'other' }), false);
    expect(queued).toEqual(['ns/svc', 'ns/svc']);
  });

  it('queues both services when the service-name label changes, and the service when the slice changes manager', () => {
    const { tracker, queued, h } = fixture();
    tracker.written(slice('a', 2));
    h.onUpdate!(slice('a', 2), slice('a', 2, { service: 'svc2' }));
    expect(queued).toEqual(['ns/svc2', 'ns/svc']);
    queued.length = 0;
    h.onUpdate!(slice('a', 2), slice('a', 2, { manager: 'other' }));
    h.onUpdate!(slice('c', 1, { manager: 'other' }), slice('c', 1));
    expect(queued).toEqual(['ns/svc', 'ns/svc']);
  });

  it('queues the service of a slice of its own deleted unexpectedly only', () => {
    const { tracker, queued, h } = fixture();
    tracker.written(slice('a', 1));
    tracker.expectDeletion(slice('b', 1));
    h.onDelete!(slice('b', 1));
    h.onDelete!(slice('c', 1));
    expect(queued).toEqual([]);
    h.onDelete!(slice('a', 1));
    expect(queued).toEqual(['ns/svc']);
  });
});
