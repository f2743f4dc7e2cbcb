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
});
