import { describe, expect, it } from 'vitest';
import { FakeClock } from './clock.js';
import { COMBINED_PREFIX, EventCorrelator } from './events-cache.js';
import type { CoreEvent } from './types.js';

const ev = (message: string, reason = 'Started', name = 'p1'): CoreEvent => ({
  metadata: { name: `${name}.${message.length}`, namespace: 'default' },
  involvedObject: { kind: 'Pod', namespace: 'default', name, uid: `uid-${name}`, apiVersion: 'v1' },
  reason, message, type: 'Normal', source: { component: 'c' }, count: 1, firstTimestamp: 't0', lastTimestamp: 't1',
});

describe('EventCorrelator', () => {
  it('turns a repeat of the same event into a count++ patch of the first one', () => {
    const c = new EventCorrelator(new FakeClock());
    const first = c.correlate(ev('hello'));
    expect(first.patch).toBeUndefined();
    c.updateState(first.key, { ...first.event, metadata: { ...first.event.metadata, resourceVersion: '7' } });
    const again = c.correlate({ ...ev('hello'), metadata: { name: 'other', namespace: 'default' }, lastTimestamp: 't2' });
    expect(again.event.metadata).toMatchObject({ name: 'p1.5', resourceVersion: '7' });
    expect(again.event.count).toBe(2);
    expect(again.event.firstTimestamp).toBe('t0');
    expect(again.patch).toEqual({ count: 2, lastTimestamp: 't2', message: 'hello' });
  });

  it('combines similar events (same object and reason, new messages) past maxEvents', () => {
    const c = new EventCorrelator(new FakeClock(), { maxEvents: 3 });
    const results = ['m1', 'm2', 'm3', 'm4', 'm5'].map((m) => c.correlate(ev(m)));
    expect(results.slice(0, 2).every((r) => !r.event.message!.startsWith(COMBINED_PREFIX))).toBe(true);
    expect(results[2]!.event.message).toBe(`${COMBINED_PREFIX}m3`);
    expect(results[2]!.patch).toBeUndefined();
    expect(results[3]!.event.message).toBe(`${COMBINED_PREFIX}m4`);
    expect(results[3]!.event.count).toBe(2); // the combined event is patched from then on
    expect(results[4]!.event.count).toBe(3);
    expect(c.correlate(ev('other', 'Other')).event.message).toBe('other'); // another reason: its own record
  });

  it('forgets similarity after maxInterval', async () => {
    const clock = new FakeClock();
    const c = new EventCorrelator(clock, { maxEvents: 2, maxIntervalMs: 1000 });
    c.correlate(ev('a'));
    await clock.advance(2000);
    expect(c.correlate(ev('b')).event.message).toBe('b');
  });

  it('drops a flood past the spam burst for one object', async () => {
    const clock = new FakeClock();
    const c = new EventCorrelator(clock, { spamBurst: 3, spamQps: 1 });
    const skipped = [1, 2, 3, 4, 5].map((i) => c.correlate(ev(`m${i}`, `R${i}`)).skip);
    expect(skipped).toEqual([false, false, false, true, true]);
    expect(c.correlate(ev('x', 'R', 'p2')).skip).toBe(false);
    await clock.advance(1000);
    expect(c.correlate(ev('m6', 'R6')).skip).toBe(false);
  });
});
