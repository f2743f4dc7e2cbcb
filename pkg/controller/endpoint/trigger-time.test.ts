import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { LAST_CHANGE_TRIGGER_TIME, TriggerTimeTracker, formatTriggerTime, withTriggerTime } from './trigger-time.js';

const t = (s: number): string => new Date(Date.UTC(2019, 0, 1, 0, 0, s)).toISOString().replace('.000Z', 'Z');
const service = (created: number): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { namespace: 'ns', name: 'svc', creationTimestamp: t(created) } });
const pod = (name: string, readyAt: number): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'ns', name }, status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: t(readyAt) }] },
});

describe('TriggerTimeTracker', () => {
  it('reports a new service\'s creation, even over older or newer pods', () => {
    expect(new TriggerTimeTracker().compute(service(2), [])).toBe(t(2));
    expect(new TriggerTimeTracker().compute(service(3), [pod('a', 0), pod('b', 1), pod('c', 5)])).toBe(t(3));
  });

  it('reports the earliest of the pods changed since the previous sync, and nothing when nothing changed', () => {
    const tracker = new TriggerTimeTracker();
    expect(tracker.compute(service(0), [])).toBe(t(0));
    expect(tracker.compute(service(0), [pod('a', 2), pod('b', 1)])).toBe(t(1));
    expect(tracker.compute(service(0), [pod('a', 2), pod('b', 1)])).toBeUndefined();
    expect(tracker.compute(service(0), [pod('a', 4), pod('b', 1), pod('c', 3)])).toBe(t(3));
    // a deleted pod is no trigger time of its own
    expect(tracker.compute(service(0), [pod('a', 4)])).toBeUndefined();
  });

  it('starts over for a service deleted and created again', () => {
    const tracker = new TriggerTimeTracker();
    tracker.compute(service(0), [pod('a', 1)]);
    tracker.delete('ns', 'svc');
    expect(tracker.compute(service(5), [pod('a', 1)])).toBe(t(5));
  });

  it('formats as Go\'s RFC3339Nano in UTC, and sets or removes the annotation', () => {
    expect(formatTriggerTime(Date.UTC(2019, 0, 1, 0, 0, 10))).toBe('2019-01-01T00:00:10Z');
    expect(formatTriggerTime(Date.UTC(2019, 0, 1, 0, 0, 0, 120))).toBe('2019-01-01T00:00:00.12Z');
    expect(withTriggerTime({ a: 'b' }, t(1))).toEqual({ a: 'b', [LAST_CHANGE_TRIGGER_TIME]: t(1) });
    expect(withTriggerTime({ a: 'b', [LAST_CHANGE_TRIGGER_TIME]: t(1) }, undefined)).toEqual({ a: 'b' });
  });
});
