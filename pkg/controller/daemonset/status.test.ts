import { describe, expect, it } from 'vitest';
import { daemonSetStatusCounts } from './status.js';

const pod = (name: string, o: { created?: string; ready?: boolean; phase?: string; deleting?: boolean; hash?: string } = {}) => ({
  metadata: {
    name, creationTimestamp: o.created ?? '2024-01-01T00:00:00Z', labels: { 'controller-revision-hash': o.hash ?? 'h2' },
    ...(o.deleting ? { deletionTimestamp: '2024-01-01T00:05:00Z' } : {}),
  },
  spec: { nodeName: 'x' },
  status: { phase: o.phase ?? 'Running', conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True', lastTransitionTime: '2024-01-01T00:00:00Z' }] },
});

describe('daemonset status counts', () => {
  const now = Date.parse('2024-01-01T00:10:00Z');

  it('a node that should not run the pod counts only as misscheduled, not as ready, available or updated', () => {
    const counts = daemonSetStatusCounts(
      [{ name: 'n1', shouldRun: true }, { name: 'tainted', shouldRun: false }, { name: 'empty', shouldRun: false }],
      new Map([['n1', [pod('a')]], ['tainted', [pod('b')]]]), 'h2', 0, now);
    expect(counts).toEqual({ desiredNumberScheduled: 1, currentNumberScheduled: 1, numberMisscheduled: 1, numberReady: 1, updatedNumberScheduled: 1, numberAvailable: 1 });
  });

  it('a terminating or failed pod still counts as scheduled, a terminal one being deleted does not; the oldest pod decides', () => {
    const counts = daemonSetStatusCounts(
      ['going', 'failed', 'gone', 'two'].map((name) => ({ name, shouldRun: true })),
      new Map([
        ['going', [pod('a', { deleting: true })]],
        ['failed', [pod('b', { phase: 'Failed', ready: false })]],
        ['gone', [pod('c', { phase: 'Failed', ready: false, deleting: true })]],
        ['two', [pod('d', { created: '2024-01-01T00:01:00Z' }), pod('e', { ready: false, hash: 'h1' })]],
      ]), 'h2', 0, now);
    expect(counts).toEqual({ desiredNumberScheduled: 4, currentNumberScheduled: 3, numberMisscheduled: 0, numberReady: 1, updatedNumberScheduled: 2, numberAvailable: 1 });
  });

  it('a pod counts as updated by its revision hash or by its template generation (upstream IsPodUpdated)', () => {
    const gen = (name: string, hash: string, generation: string) => {
      const p = pod(name, { hash });
      (p.metadata.labels as Record<string, string>)['pod-template-generation'] = generation;
      return p;
    };
    const counts = daemonSetStatusCounts(
      ['n1', 'n2', 'n3'].map((name) => ({ name, shouldRun: true })),
      new Map([['n1', [gen('a', 'h1', '3')]], ['n2', [gen('b', 'h1', '2')]], ['n3', [gen('c', 'h2', '2')]]]), 'h2', 0, now, '3');
    expect(counts.updatedNumberScheduled).toBe(2);
  });
});
