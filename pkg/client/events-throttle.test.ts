// EventThrottle: recorders sharing it write at most maxQueued events at a time; the rest are dropped, not held.
import { describe, expect, it } from 'vitest';
import { EventRecorder, EventThrottle, type EventSink } from './events.js';
import { unlimited } from './flowcontrol.js';
import type { CoreEvent } from './types.js';

describe('EventThrottle', () => {
  it('drops events past the queue bound, across recorders, and frees places as writes finish', async () => {
    const written: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const sink: EventSink = {
      create: async (ev: CoreEvent) => { await gate; written.push(ev.reason!); return ev; },
      patch: () => Promise.reject(new Error('no patches expected')),
      namespace: () => sink,
    };
    const throttle = new EventThrottle(unlimited, 2);
    const a = new EventRecorder({ sink, component: 'kubelet', host: 'node-a', throttle });
    const b = new EventRecorder({ sink, component: 'kubelet', host: 'node-b', throttle });
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', uid: 'u' } };
    a.event(pod, 'Normal', 'Pulled', 'one');
    b.event(pod, 'Normal', 'Created', 'two');
    a.event(pod, 'Normal', 'Started', 'three');
    expect(throttle.dropped).toBe(1);
    release();
    await Promise.all([a.flush(), b.flush()]);
    expect(written.sort()).toEqual(['Created', 'Pulled']);
    b.event(pod, 'Normal', 'Started', 'four');
    await b.flush();
    expect(written).toContain('Started');
  });
});
