// Expectations from upstream's TestPrintHPA.
import { describe, expect, it } from 'vitest';
import { horizontalPodAutoscalerPrinter } from './autoscaling.js';
import { NOW, obj } from './testing.js';

const hpa = (spec: Record<string, unknown>, status: Record<string, unknown> = {}, apiVersion = 'autoscaling/v2') =>
  horizontalPodAutoscalerPrinter.cells(
    obj('some-hpa', { apiVersion, spec: { scaleTargetRef: { kind: 'ReplicationController', name: 'some-rc' }, maxReplicas: 10, ...spec }, status }),
    NOW,
  );
const cpu = (target: Record<string, unknown>) => ({ type: 'Resource', resource: { name: 'cpu', target } });

describe('horizontal pod autoscalers', () => {
  it('prints <none> without metrics and <unset> without minReplicas', () => {
    expect(hpa({}, { currentReplicas: 4 })).toEqual(['some-hpa', 'ReplicationController/some-rc', '<none>', '<unset>', 10, 4, '<unknown>']);
  });

  it('prints resource utilization, <unknown> before the first measurement', () => {
    const spec = { minReplicas: 2, metrics: [cpu({ type: 'Utilization', averageUtilization: 80 })] };
    expect(hpa(spec).slice(2, 4)).toEqual(['cpu: <unknown>/80%', '2']);
    const status = { currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 50, averageValue: '10m' } } }] };
    expect(hpa(spec, status)[2]).toBe('cpu: 50%/80%');
  });

  it('prints average values, external and object metrics', () => {
    const spec = {
      metrics: [
        cpu({ type: 'AverageValue', averageValue: '100m' }),
        { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'Value', value: '30' } } },
      ],
    };
    const status = {
      currentMetrics: [
        { type: 'Resource', resource: { name: 'cpu', current: { averageValue: '50m' } } },
        { type: 'External', external: { current: { value: '12' } } },
      ],
    };
    expect(hpa(spec, status)[2]).toBe('cpu: 50m/100m, 12/30');
    expect(hpa({ metrics: [{ type: 'Object', object: { target: { averageValue: '5' } } }] })[2]).toBe('<unknown>/5 (avg)');
    expect(hpa({ metrics: [{ type: 'Pods', pods: { target: { averageValue: '1k' } } }] })[2]).toBe('<unknown>/1k');
  });

  it('shows two metrics and counts the rest', () => {
    const metrics = [cpu({ averageUtilization: 80 }), cpu({ averageUtilization: 70 }), { type: 'Bogus' }];
    expect(hpa({ metrics })[2]).toBe('cpu: <unknown>/80%, cpu: <unknown>/70% + 1 more...');
  });

  it('reads autoscaling/v1 CPU utilization fields', () => {
    expect(hpa({ targetCPUUtilizationPercentage: 80 }, { currentCPUUtilizationPercentage: 20 }, 'autoscaling/v1')[2]).toBe('cpu: 20%/80%');
    expect(hpa({}, {}, 'autoscaling/v1')[2]).toBe('<none>');
  });
});
