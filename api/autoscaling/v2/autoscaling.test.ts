import { describe, expect, it } from 'vitest';
import { definitions as meta } from '../../meta/v1/index.js';
import { danglingRefs } from '../../meta/v1/refs.js';
import { groupVersion } from './index.js';

const HPA = 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler';

describe('autoscaling/v2', () => {
  it('defines HorizontalPodAutoscaler with resolvable refs', () => {
    expect(danglingRefs(groupVersion.definitions, { ...meta, ...groupVersion.definitions })).toEqual([]);
    expect(groupVersion.resources.map((r) => r.plural)).toEqual(['horizontalpodautoscalers']);
  });

  it('defaults as upstream: one replica, 80% CPU without metrics, scaling rules only when behavior is set', () => {
    const bare = { spec: { maxReplicas: 3 } } as Record<string, any>;
    groupVersion.defaulters![HPA]!(bare);
    expect(bare.spec).toEqual({
      maxReplicas: 3, minReplicas: 1,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
    });
    const withBehavior = { spec: { minReplicas: 2, maxReplicas: 3, metrics: [{ type: 'Pods' }], behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } } } as Record<string, any>;
    groupVersion.defaulters![HPA]!(withBehavior);
    expect(withBehavior.spec.minReplicas).toBe(2);
    expect(withBehavior.spec.metrics).toEqual([{ type: 'Pods' }]);
    expect(withBehavior.spec.behavior).toEqual({
      scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
      scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
    });
  });
});
