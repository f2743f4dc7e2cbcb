// The grace period of a pod's kill, as upstream 1.32's pod workers work it out (calculateEffectiveGracePeriod).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../client/index.js';
import { containerKillGrace, effectiveGracePeriod } from './grace-period.js';

/** A pod whose spec asks for `spec` seconds, deleted with `deletion` (undefined: not deleted). */
const pod = (spec: number | undefined, deletion?: number): KubeObject => ({
  metadata: { name: 'p', ...(deletion !== undefined ? { deletionTimestamp: '2026-01-01T00:00:00Z', deletionGracePeriodSeconds: deletion } : {}) },
  spec: { containers: [], ...(spec !== undefined ? { terminationGracePeriodSeconds: spec } : {}) },
});

describe('effectiveGracePeriod', () => {
  it('a first kill: the deletion\'s grace period, else the spec\'s (30 s by default)', () => {
    expect(effectiveGracePeriod(undefined, pod(60, 10))).toBe(10);
    expect(effectiveGracePeriod(undefined, pod(60, 90))).toBe(90);
    expect(effectiveGracePeriod(undefined, pod(45))).toBe(45);
    expect(effectiveGracePeriod(undefined, pod(undefined))).toBe(30);
  });

  it('a kill under way only gets a shorter one from the API', () => {
    expect(effectiveGracePeriod(60, pod(60, 2))).toBe(2);
    expect(effectiveGracePeriod(5, pod(60, 60))).toBe(5);
  });

  it('a force delete (deletionGracePeriodSeconds 0) leaves the spec\'s grace period: 1.32 falls back to it from 0', () => {
    expect(effectiveGracePeriod(undefined, pod(30, 0))).toBe(30);
    expect(effectiveGracePeriod(60, pod(60, 0))).toBe(60);
    // a kill that began with a longer deletion grace period is shortened to the spec's, one with a shorter lengthened
    expect(effectiveGracePeriod(60, pod(3, 0))).toBe(3);
    expect(effectiveGracePeriod(10, pod(30, 0))).toBe(30);
  });

  it('the kubelet\'s own override (an eviction\'s 1 s) counts as the API\'s does; 0 falls back to the spec\'s as well', () => {
    expect(effectiveGracePeriod(undefined, pod(30), 1)).toBe(1);
    expect(effectiveGracePeriod(undefined, pod(30), 0)).toBe(30);
  });

  it('is never below 1 s', () => {
    expect(effectiveGracePeriod(undefined, pod(0))).toBe(1);
    expect(effectiveGracePeriod(undefined, pod(0, 0))).toBe(1);
  });
});

describe('containerKillGrace', () => {
  it('is the deletion\'s grace period, else the failed probe\'s own, else the spec\'s (setTerminationGracePeriod)', () => {
    expect(containerKillGrace(pod(60, 10), { terminationGracePeriodSeconds: 5 })).toBe(10);
    expect(containerKillGrace(pod(60), { terminationGracePeriodSeconds: 5 })).toBe(5);
    expect(containerKillGrace(pod(60), {})).toBe(60);
    expect(containerKillGrace(pod(undefined))).toBe(30);
  });
});
