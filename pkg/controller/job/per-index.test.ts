import { describe, expect, it } from 'vitest';
import type { Pod } from '../shared/controller-utils-pods.js';
import { INDEX_FAILURE_COUNT, INDEX_IGNORED_FAILURE_COUNT, indexBackoffLeft, podsWithDelayedDeletion } from './per-index.js';
import { COMPLETION_INDEX, JOB_TRACKING_FINALIZER } from './job-util.js';

const t = 1_700_000_000_000;
const pod = (uid: string, ix: number, phase: string, counts: [number, number] = [0, 0], at = t): Pod => ({
  metadata: {
    uid, name: uid, finalizers: [JOB_TRACKING_FINALIZER],
    annotations: { [COMPLETION_INDEX]: String(ix), [INDEX_FAILURE_COUNT]: String(counts[0]), [INDEX_IGNORED_FAILURE_COUNT]: String(counts[1]) },
  },
  spec: {},
  status: { phase, conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: new Date(at).toISOString() }] },
});

describe('backoffLimitPerIndex', () => {
  it('an index backs off on all its failures, the ignored ones too (upstream getRemainingTimePerIndex)', () => {
    // no failure counted yet, one ignored: the second attempt waits 20 s, not 0 (a tight loop of pods)
    expect(indexBackoffLeft(pod('a', 0, 'Failed', [0, 1]), t)).toBe(20_000);
    expect(indexBackoffLeft(pod('a', 0, 'Failed', [0, 0]), t + 4000)).toBe(6000);
    expect(indexBackoffLeft(pod('a', 0, 'Failed', [1, 2]), t)).toBe(80_000);
    expect(indexBackoffLeft(undefined, t)).toBe(0);
  });

  it('holds the latest failed pod of each index neither done nor running, until its replacement runs', () => {
    const failed = (p: Pod): boolean => p.status?.phase === 'Failed';
    const older = pod('old', 0, 'Failed', [0, 0], t);
    const newer = pod('new', 0, 'Failed', [1, 0], t + 5000);
    const released = { ...pod('gone', 2, 'Failed'), metadata: { ...pod('gone', 2, 'Failed').metadata, finalizers: [] } };
    const held = podsWithDelayedDeletion([older, newer, pod('f1', 1, 'Failed'), pod('r1', 1, 'Running'), pod('f3', 3, 'Failed'), released], failed, (ix) => ix === 3);
    expect([...held].map(([ix, p]) => [ix, p.metadata!.uid])).toEqual([[0, 'new']]);
  });
});
