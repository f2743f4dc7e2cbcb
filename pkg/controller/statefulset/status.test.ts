import { describe, expect, it } from 'vitest';
import { completeRollingUpdate, replicaCounts } from './status.js';

const now = Date.parse('2024-01-01T00:10:00Z');
const pod = (name: string, rev: string, o: { phase?: string; ready?: boolean; readyAt?: string; deleting?: boolean } = {}) => ({
  metadata: { name, labels: { 'controller-revision-hash': rev }, ...(o.deleting ? { deletionTimestamp: '2024-01-01T00:09:00Z' } : {}) },
  status: {
    ...(o.phase !== '' ? { phase: o.phase ?? 'Running' } : {}),
    conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True', lastTransitionTime: o.readyAt ?? '2024-01-01T00:00:00Z' }],
  },
});

describe('statefulset status counts', () => {
  it('count condemned pods too; terminating pods count as replicas and ready, not as current or updated', () => {
    const pods = [pod('web-0', 'r1'), pod('web-1', 'r1', { deleting: true }), pod('web-2', 'r1')];
    expect(replicaCounts(pods, 0, now, 'r1', 'r2')).toEqual({ replicas: 3, readyReplicas: 3, availableReplicas: 3, currentReplicas: 2, updatedReplicas: 0 });
  });

  it('a failed pod is a replica; ready means Running and Ready; available means ready for minReadySeconds', () => {
    const pods = [
      pod('web-0', 'r2', { phase: 'Failed', ready: false }),
      pod('web-1', 'r2', { phase: 'Pending' }),
      pod('web-2', 'r2', { readyAt: '2024-01-01T00:09:50Z' }),
      pod('web-3', 'r2', { phase: '' }),
    ];
    expect(replicaCounts(pods, 30, now, 'r1', 'r2')).toEqual({ replicas: 3, readyReplicas: 1, availableReplicas: 0, currentReplicas: 0, updatedReplicas: 3 });
  });

  it('a rolling update completes when every replica is updated and ready, and only the exact replica count', () => {
    const set = (type: string) => ({ spec: { replicas: 2, updateStrategy: { type } } });
    const done = { replicas: 2, readyReplicas: 2, availableReplicas: 2, currentReplicas: 0, updatedReplicas: 2, currentRevision: 'r1', updateRevision: 'r2' };
    const rolling = { ...done };
    completeRollingUpdate(set('RollingUpdate'), rolling);
    expect([rolling.currentRevision, rolling.currentReplicas]).toEqual(['r2', 2]);
    // a condemned pod not yet gone keeps the update open
    const scaling = { ...done, replicas: 3 };
    completeRollingUpdate(set('RollingUpdate'), scaling);
    expect(scaling.currentRevision).toBe('r1');
    // OnDelete never moves the current revision
    const onDelete = { ...done };
    completeRollingUpdate(set('OnDelete'), onDelete);
    expect([onDelete.currentRevision, onDelete.currentReplicas]).toEqual(['r1', 0]);
  });
});
