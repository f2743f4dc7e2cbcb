import { describe, expect, it } from 'vitest';
import { definitions as meta } from '../../meta/v1/index.js';
import { danglingRefs } from '../../meta/v1/refs.js';
import { horizontalPodAutoscalerConversion as conv } from './conversion.js';
import { groupVersion } from './index.js';

const v2 = {
  apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web', namespace: 'default', annotations: { team: 'a' } },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 5,
    metrics: [
      { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
    ],
    behavior: { scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
      scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }] } },
  },
  status: {
    currentReplicas: 2, desiredReplicas: 3,
    currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 75, averageValue: '75m' } } }],
    conditions: [{ type: 'AbleToScale', status: 'True', reason: 'SucceededGetScale' }],
  },
};

describe('autoscaling/v1', () => {
  it('defines Scale and HorizontalPodAutoscaler with resolvable refs', () => {
    expect(danglingRefs(groupVersion.definitions, { ...meta, ...groupVersion.definitions })).toEqual([]);
    expect(groupVersion.resources.map((r) => r.plural)).toEqual(['horizontalpodautoscalers']);
    expect(groupVersion.definitions['io.k8s.api.autoscaling.v1.ScaleStatus'].required).toEqual(['replicas']);
  });

  it('shows a v2 autoscaler with the CPU target only, the rest in upstream\'s annotations, and reads back the same', () => {
    const v1 = conv.fromStorage(structuredClone(v2));
    expect(v1.apiVersion).toBe('autoscaling/v1');
    expect(v1.spec).toEqual({ scaleTargetRef: v2.spec.scaleTargetRef, minReplicas: 2, maxReplicas: 5, targetCPUUtilizationPercentage: 50 });
    expect(v1.status).toEqual({ currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 75 });
    expect(JSON.parse(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics'])).toEqual([{ type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } }]);
    expect(JSON.parse(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/current-metrics'])).toEqual([{ type: 'Resource', resource: { name: 'cpu', currentAverageUtilization: 75, currentAverageValue: '75m' } }]);
    expect(v1.metadata.annotations.team).toBe('a');
    const back = conv.toStorage(v1);
    expect(back.metadata).toEqual(v2.metadata);
    expect(back.spec.metrics).toEqual([...v2.spec.metrics]);
    expect(back).toEqual(v2);
  });

  it('stores a bare v1 autoscaler as v2 reads it: 80% CPU when no target is set', () => {
    const stored = conv.toStorage({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'x' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'x' }, minReplicas: 1, maxReplicas: 3 } });
    expect(stored.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
    expect(stored.metadata.annotations).toBeUndefined();
  });
});
