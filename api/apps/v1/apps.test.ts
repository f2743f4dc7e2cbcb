import { describe, expect, it } from 'vitest';
import { definitions as meta } from '../../meta/v1/index.js';
import { danglingRefs } from '../../meta/v1/refs.js';
import { groupVersion } from './index.js';

const { definitions, defaulters } = groupVersion;
const run = (kind: string, obj: Record<string, any>) => {
  defaulters![`io.k8s.api.apps.v1.${kind}`](obj);
  return obj;
};

describe('apps/v1', () => {
  it('references only known definitions (core aside)', () => {
    const outside = danglingRefs(definitions, { ...meta, ...definitions }).filter((r) => !r.includes('-> io.k8s.api.core.v1.'));
    expect(outside).toEqual([]);
  });

  it('defaults a Deployment like upstream', () => {
    expect(run('Deployment', { spec: {} }).spec).toEqual({
      replicas: 1, revisionHistoryLimit: 10, progressDeadlineSeconds: 600,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
    });
    expect(run('Deployment', { spec: { replicas: 0, strategy: { type: 'Recreate' } } }).spec.strategy).toEqual({ type: 'Recreate' });
  });

  it('defaults a StatefulSet like upstream', () => {
    expect(run('StatefulSet', {}).spec).toEqual({
      podManagementPolicy: 'OrderedReady', replicas: 1, revisionHistoryLimit: 10,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    });
    expect(run('StatefulSet', { spec: { updateStrategy: { type: 'RollingUpdate' } } }).spec.updateStrategy)
      .toEqual({ type: 'RollingUpdate' });
    const claims = run('StatefulSet', { spec: { volumeClaimTemplates: [{ metadata: { name: 'a' } }, { apiVersion: 'v2', kind: 'X', metadata: { name: 'b' } }] } });
    expect(claims.spec.volumeClaimTemplates.map((t: Record<string, unknown>) => [t.apiVersion, t.kind]))
      .toEqual([['v1', 'PersistentVolumeClaim'], ['v1', 'PersistentVolumeClaim']]);
  });

  it('defaults a DaemonSet and a ReplicaSet like upstream', () => {
    expect(run('DaemonSet', { spec: {} }).spec).toEqual({
      revisionHistoryLimit: 10, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
    });
    expect(run('ReplicaSet', { spec: { replicas: 3 } }).spec).toEqual({ replicas: 3 });
  });

  it('serves deployments with status and scale subresources', () => {
    const deploy = groupVersion.resources.find((r) => r.plural === 'deployments')!;
    expect(deploy.shortNames).toEqual(['deploy']);
    expect(deploy.subresources?.map((s) => `${s.name}:${s.group}/${s.kind}`)).toEqual(['status:apps/Deployment', 'scale:autoscaling/Scale']);
    expect(groupVersion.resources.find((r) => r.plural === 'daemonsets')!.subresources).toHaveLength(1);
  });
});
