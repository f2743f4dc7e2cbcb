import { describe, expect, it } from 'vitest';
import type { Pod } from '../shared/controller-utils-pods.js';
import { PodBackoffStore, remainingBackoff } from './backoff.js';
import { BACKOFF_MAX_MS, finishTime } from './job-util.js';

const iso = (ms: number): string => new Date(ms).toISOString();
/** A pod whose one container finished at `at` (ms). */
const ended = (uid: string, at: number, phase = 'Failed'): Pod => ({
  metadata: { uid, name: uid }, spec: { containers: [{ name: 'c' }] },
  status: { phase, containerStatuses: [{ name: 'c', state: { terminated: { exitCode: phase === 'Failed' ? 1 : 0, finishedAt: iso(at) } } }] },
});

describe('finishTime (upstream getFinishedTime)', () => {
  it('takes containers only once all have terminated, then Ready=False, then deletion less the grace period', () => {
    const t = 1_700_000_000_000;
    const both = { metadata: { creationTimestamp: iso(t) }, status: { containerStatuses: [
      { name: 'a', state: { terminated: { finishedAt: iso(t + 5000) } } }, { name: 'b', state: { running: {} } },
    ], conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: iso(t + 3000) }] } } as Pod;
    expect(finishTime(both)).toBe(t + 3000);
    // Ready=True says nothing of an end: a running pod deleted (pod GC, kubectl delete) ended when deleted
    const deleted = { metadata: { creationTimestamp: iso(t), deletionTimestamp: iso(t + 40_000), deletionGracePeriodSeconds: 30 },
      status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: iso(t + 1000) }] } } as Pod;
    expect(finishTime(deleted)).toBe(t + 10_000);
    // a sidecar (restartable init container) still running keeps the containers' time out
    const sidecar = { ...ended('s', t + 7000), spec: { initContainers: [{ name: 'side', restartPolicy: 'Always' }] } } as Pod;
    sidecar.status.initContainerStatuses = [{ name: 'side', state: { running: {} } }];
    expect(finishTime(sidecar)).toBe(0);
    expect(finishTime(ended('e', t + 7000))).toBe(t + 7000);
  });
});

describe('PodBackoffStore (upstream backoffStore)', () => {
  const t = 1_700_000_000_000;
  it('counts failures across syncs, so pods leaving the API keep their backoff; 10 s doubling up to 10 min', () => {
    const store = new PodBackoffStore();
    const r1 = store.next('ns/j', [], [ended('a', t)], new Set(['a']));
    expect(r1.failuresAfterLastSuccess).toBe(1);
    expect(remainingBackoff(r1, t + 4000)).toBe(6000);
    store.commit('ns/j', r1);
    // pod a is gone (its finalizer released, then deleted); b fails
    const r2 = store.next('ns/j', [], [ended('b', t + 11_000)], new Set(['b']));
    store.commit('ns/j', r2);
    expect([r2.failuresAfterLastSuccess, remainingBackoff(r2, t + 11_000)]).toEqual([2, 20_000]);
    // a pod the cache still shows with its finalizer is not counted twice
    expect(store.next('ns/j', [], [ended('b', t + 11_000)], new Set(['b'])).failuresAfterLastSuccess).toBe(2);
    expect(remainingBackoff({ failuresAfterLastSuccess: 30, lastFailureTime: t }, t)).toBe(BACKOFF_MAX_MS);
    expect(BACKOFF_MAX_MS).toBe(600_000);
  });

  it('a success starts again from the failures after it; remove() forgets the Job', () => {
    const store = new PodBackoffStore();
    store.commit('k', store.next('k', [], [ended('a', t), ended('b', t + 1)], new Set()));
    const r = store.next('k', [ended('ok', t + 10, 'Succeeded')], [ended('c', t + 5), ended('d', t + 20)], new Set());
    expect([r.failuresAfterLastSuccess, r.lastFailureTime]).toEqual([1, t + 20]);
    const clean = store.next('k', [ended('ok2', t + 30, 'Succeeded')], [], new Set());
    expect([clean.failuresAfterLastSuccess, remainingBackoff(clean, t + 30)]).toEqual([0, 0]);
    store.commit('k', r);
    store.remove('k');
    expect(store.next('k', [], [], new Set()).failuresAfterLastSuccess).toBe(0);
  });
});
