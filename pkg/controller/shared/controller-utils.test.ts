import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../client/index.js';
import { ControllerExpectations, computeHash, slowStartBatch } from './controller-utils.js';
import { compareForDeletion } from './controller-utils-pods.js';

describe('controller utils', () => {
  it('slow start runs batches of 1, 2, 4, ... and stops at the first failing batch', async () => {
    const sizes: number[] = [];
    let inBatch = 0;
    let calls = 0;
    const r = await slowStartBatch(10, 1, async () => {
      calls++;
      if (inBatch++ === 0) queueMicrotask(() => { sizes.push(inBatch); inBatch = 0; });
      if (calls > 7) throw new Error('quota');
    });
    expect(sizes).toEqual([1, 2, 4, 3]);
    expect(r.successes).toBe(7);
    expect((r.error as Error).message).toBe('quota');
  });

  it('expectations are satisfied when observed, or after 5 minutes', async () => {
    const clock = new FakeClock(0);
    const e = new ControllerExpectations(clock);
    e.expectCreations('k', 2);
    expect(e.satisfied('k')).toBe(false);
    e.creationObserved('k');
    e.creationObserved('k');
    expect(e.satisfied('k')).toBe(true);
    e.expectDeletions('k', ['a', 'b']);
    e.deletionObserved('k', 'a');
    e.deletionObserved('k', 'a');
    expect(e.satisfied('k')).toBe(false);
    await clock.advance(5 * 60_000 + 1);
    expect(e.satisfied('k')).toBe(true);
  });

  it('hash is stable under key order and changes with collisionCount', () => {
    expect(computeHash({ a: 1, b: { c: 2 } })).toBe(computeHash({ b: { c: 2 }, a: 1 }));
    expect(computeHash({ a: 1 }, 1)).not.toBe(computeHash({ a: 1 }));
    expect(computeHash({ a: 1 })).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
  });

  it('deletion ranking: unscheduled, pending, not ready, then newer first', () => {
    const t = '2024-01-01T00:00:00Z';
    const pod = (name: string, o: { node?: string; phase?: string; ready?: boolean; created?: string }) => ({
      metadata: { name, creationTimestamp: o.created ?? t },
      spec: o.node ? { nodeName: o.node } : {},
      status: { phase: o.phase ?? 'Running', conditions: [{ type: 'Ready', status: o.ready ? 'True' : 'False', lastTransitionTime: t }] },
    });
    const pods = [
      pod('ready-old', { node: 'n', ready: true }),
      pod('ready-new', { node: 'n', ready: true, created: '2024-02-01T00:00:00Z' }),
      pod('running-unready', { node: 'n' }),
      pod('pending', { node: 'n', phase: 'Pending' }),
      pod('unscheduled', { phase: 'Pending' }),
    ];
    expect([...pods].sort(compareForDeletion()).map((p) => p.metadata.name)).toEqual(['unscheduled', 'pending', 'running-unready', 'ready-new', 'ready-old']);
  });
  describe('deletion ranking of a scale-down (LogarithmicScaleDown)', () => {
    const now = Date.parse('2024-01-01T01:00:00Z');
    const ago = (s: number): string => new Date(now - s * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
    const pod = (uid: string, o: { ready?: number; created?: number; cost?: string; node?: string; restarts?: number } = {}) => ({
      metadata: { name: `p-${uid}`, uid, creationTimestamp: ago(o.created ?? 3000), ...(o.cost !== undefined ? { annotations: { 'controller.kubernetes.io/pod-deletion-cost': o.cost } } : {}) },
      spec: { nodeName: o.node ?? 'n1' },
      status: {
        phase: 'Running', containerStatuses: [{ restartCount: o.restarts ?? 0 }],
        conditions: [{ type: 'Ready', status: o.ready !== undefined ? 'True' : 'False', lastTransitionTime: ago(o.ready ?? 3000) }],
      },
    });
    const order = (pods: ReturnType<typeof pod>[], rank?: Map<unknown, number>) =>
      [...pods].sort(compareForDeletion(rank as never, now)).map((p) => p.metadata.uid);

    it('ready times in the same power-of-two bucket of age tie, and the UID decides', () => {
      // 100 s and 120 s ago both fall in [2^36 ns, 2^37 ns)
      expect(order([pod('b', { ready: 100 }), pod('a', { ready: 120 })])).toEqual(['a', 'b']);
      // 10 s ago is a younger bucket: ready for less time goes first whatever the UIDs
      expect(order([pod('a', { ready: 100 }), pod('b', { ready: 10 })])).toEqual(['b', 'a']);
      // without a reference time, the exact times compare (upstream ActivePods, as the Job controller sorts)
      expect([pod('b', { ready: 100 }), pod('a', { ready: 120 })].sort(compareForDeletion()).map((p) => p.metadata.uid)).toEqual(['b', 'a']);
    });

    it('creation times of unready pods compare the same way, after restart counts', () => {
      expect(order([pod('b', { created: 100 }), pod('a', { created: 120 })])).toEqual(['a', 'b']);
      expect(order([pod('a', { created: 100 }), pod('b', { created: 120, restarts: 1 })])).toEqual(['b', 'a']);
      expect(order([pod('a', { created: 1000 }), pod('b', { created: 100 })])).toEqual(['b', 'a']);
    });

    it('pod-deletion-cost counts only as a plain int32 decimal', () => {
      expect(order([pod('a', { cost: '1' }), pod('b', { cost: '+5' })])).toEqual(['b', 'a']);
      expect(order([pod('a', { cost: '1' }), pod('b', { cost: '007' })])).toEqual(['b', 'a']);
      expect(order([pod('a', { cost: '1' }), pod('b', { cost: '-3' })])).toEqual(['b', 'a']);
      expect(order([pod('a', { cost: '2' }), pod('b', { cost: '1' })])).toEqual(['b', 'a']);
      expect(order([pod('a', { cost: '1' }), pod('b', { cost: '4294967296' })])).toEqual(['b', 'a']);
    });
  });
});
