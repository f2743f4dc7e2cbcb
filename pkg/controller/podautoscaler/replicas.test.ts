import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { averageValueReplicas, perPodValueReplicas, resourceUtilizationReplicas, valueReplicas, type CalculatorConfig, type PodMetrics } from './replicas.js';

const NOW = Date.parse('2026-11-29T12:00:00Z');
const iso = (ms: number): string => new Date(ms).toISOString();
const cfg: CalculatorConfig = { tolerance: 0.1, cpuInitializationPeriodMs: 5 * 60_000, delayOfInitialReadinessStatusMs: 30_000, now: NOW };

interface PodOpts { phase?: string; ready?: 'True' | 'False'; startedAgoMs?: number; readySinceAgoMs?: number; request?: string; deleting?: boolean }
function pod(name: string, o: PodOpts = {}): KubeObject {
  const started = NOW - (o.startedAgoMs ?? 10 * 60_000);
  return {
    metadata: { name, ...(o.deleting ? { deletionTimestamp: iso(NOW) } : {}) },
    spec: { containers: [{ name: 'c', resources: o.request === '' ? {} : { requests: { cpu: o.request ?? '1' } } }] },
    status: {
      phase: o.phase ?? 'Running', startTime: iso(started),
      conditions: [{ type: 'Ready', status: o.ready ?? 'True', lastTransitionTime: iso(NOW - (o.readySinceAgoMs ?? 9 * 60_000)) }],
    },
  };
}
const samples = (values: Record<string, number>, takenAgoMs = 0, windowMs = 15_000): PodMetrics =>
  new Map(Object.entries(values).map(([n, value]) => [n, { timestamp: NOW - takenAgoMs, windowMs, value }]));

describe('the replica calculator (upstream replica_calculator.go)', () => {
  it('scales by the ready pods\' utilization of their requests, and reports it and the raw average', () => {
    const pods = [pod('a'), pod('b'), pod('c')];
    const r = resourceUtilizationReplicas(3, 30, 'cpu', '', pods, samples({ a: 300, b: 500, c: 700 }), cfg);
    expect(r).toEqual({ replicas: 5, utilization: 50, rawAverage: 500 });
    // within the tolerance the count stays
    expect(resourceUtilizationReplicas(3, 48, 'cpu', '', pods, samples({ a: 300, b: 500, c: 700 }), cfg).replicas).toBe(3);
    // a scale-down
    expect(resourceUtilizationReplicas(3, 100, 'cpu', '', pods, samples({ a: 100, b: 100, c: 100 }), cfg).replicas).toBe(1);
  });

  it('counts unready pods as idle on a scale-up, and leaves deleted and failed pods out', () => {
    const pods = [pod('a'), pod('b'), pod('c', { ready: 'False', startedAgoMs: 60_000, readySinceAgoMs: 30_000 }), pod('d', { deleting: true }), pod('e', { phase: 'Failed' })];
    // a and b at 60% of a 30% target; c unready weighs 0: (500 + 700 + 0) / 3000 = 40% -> ceil(1.33 × 3)
    const r = resourceUtilizationReplicas(3, 30, 'cpu', '', pods, samples({ a: 500, b: 700, c: 300, d: 900, e: 900 }), cfg);
    expect(r).toEqual({ replicas: 4, utilization: 60, rawAverage: 600 });
    // a pending pod is unready too; only unready pods: nothing to go by
    expect(() => resourceUtilizationReplicas(1, 30, 'cpu', '', [pod('p', { phase: 'Pending' })], samples({ p: 100 }), cfg))
      .toThrow('did not receive metrics for targeted pods (pods might be unready)');
  });

  it('skips a CPU sample taken before the pod was ready for a whole window while it initializes', () => {
    // started a minute ago, ready 10 s ago, sampled now over 15 s: the sample covers start-up
    const fresh = pod('f', { startedAgoMs: 60_000, readySinceAgoMs: 10_000 });
    expect(() => resourceUtilizationReplicas(1, 50, 'cpu', '', [fresh], samples({ f: 1000 }), cfg)).toThrow('pods might be unready');
    // the same pod for memory: no such rule
    const mem = { ...fresh, spec: { containers: [{ name: 'c', resources: { requests: { memory: '1000' } } }] } };
    expect(resourceUtilizationReplicas(1, 50, 'memory', '', [mem], samples({ f: 1_000_000 }), cfg).replicas).toBe(2);
    // past the initialization period a pod that was once ready counts even while unready now
    const old = pod('o', { ready: 'False', startedAgoMs: 20 * 60_000, readySinceAgoMs: 60_000 });
    expect(resourceUtilizationReplicas(1, 50, 'cpu', '', [old], samples({ o: 1000 }), cfg).replicas).toBe(2);
  });

  it('weighs a pod without a sample as its whole request on a scale-down and as idle on a scale-up', () => {
    const pods = [pod('a'), pod('b'), pod('c'), pod('m')];
    // 10% of a 50% target; m missing at 100%: (300 + 1000) / 4000 = 32% -> ceil(0.64 × 4)
    expect(resourceUtilizationReplicas(4, 50, 'cpu', '', pods, samples({ a: 100, b: 100, c: 100 }), cfg).replicas).toBe(3);
    // 90% of a 50% target; m missing at 0%: 2700 / 4000 = 67% -> ceil(1.34 × 4)
    expect(resourceUtilizationReplicas(4, 50, 'cpu', '', pods, samples({ a: 900, b: 900, c: 900 }), cfg).replicas).toBe(6);
    // a scale-down that the missing pod turns into a scale-up keeps the count
    expect(resourceUtilizationReplicas(4, 50, 'cpu', '', pods, samples({ a: 400, b: 400, c: 400 }), cfg).replicas).toBe(4);
  });

  it('fails as upstream when a container requests nothing, and sums a named container only for ContainerResource', () => {
    expect(() => resourceUtilizationReplicas(1, 50, 'cpu', '', [pod('a', { request: '' })], samples({ a: 100 }), cfg))
      .toThrow('missing request for cpu in container c of Pod a');
    const two: KubeObject = { ...pod('t'), spec: { containers: [{ name: 'app', resources: { requests: { cpu: '200m' } } }, { name: 'side', resources: {} }] } };
    expect(resourceUtilizationReplicas(1, 50, 'cpu', 'app', [two], samples({ t: 200 }), cfg)).toEqual({ replicas: 2, utilization: 100, rawAverage: 200 });
    expect(() => resourceUtilizationReplicas(1, 50, 'cpu', '', [], samples({}), cfg)).toThrow('no pods returned by selector while calculating replica count');
  });

  it('scales per-pod values (averageValue, Pods metrics) by their average', () => {
    const pods = [pod('a'), pod('b')];
    expect(averageValueReplicas(2, 500, '', pods, samples({ a: 1500, b: 1500 }), cfg)).toEqual({ replicas: 6, usage: 1500 });
    // a missing pod weighs the target on a scale-down
    expect(averageValueReplicas(2, 1000, '', [...pods, pod('m')], samples({ a: 100, b: 100 }), cfg).replicas).toBe(2);
  });

  it('scales object and external values by the ready pods, from zero by the ratio alone', () => {
    expect(valueReplicas(3, 2, 0.1, () => 3)).toBe(6);
    expect(valueReplicas(3, 1.05, 0.1, () => 3)).toBe(3);
    expect(valueReplicas(0, 2.5, 0.1, () => { throw new Error('not asked'); })).toBe(3);
    expect(perPodValueReplicas(2, 3000, 500, 0.1)).toEqual({ replicas: 6, usage: 1500 });
    expect(perPodValueReplicas(4, 2100, 500, 0.1)).toEqual({ replicas: 4, usage: 525 });
  });
});
