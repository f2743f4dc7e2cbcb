// The kubelet's back-off, as client-go's flowcontrol.Backoff without jitter: 10 s doubling to the 5 min cap per key,
// started over after twice the cap without a failure, and forgotten by gc() once not moved on for that long.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../client/index.js';
import { Backoff } from './backoff.js';

const MAX = 300_000;

describe('Backoff', () => {
  it('doubles from the initial delay to the cap at each next()', async () => {
    const clock = new FakeClock(1_000_000);
    const b = new Backoff(10_000, MAX, clock);
    const delays: number[] = [];
    for (let i = 0; i < 7; i++) {
      b.next('k', clock.now());
      delays.push(b.get('k'));
      await clock.advance(1_000);
    }
    expect(delays).toEqual([10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]);
    expect(b.get('other')).toBe(0);
  });

  it('is in back-off while less than the delay has passed since the event (IsInBackOffSince) or the last next() (IsInBackOffSinceUpdate)', async () => {
    const clock = new FakeClock(1_000_000);
    const b = new Backoff(10_000, MAX, clock);
    expect(b.isInBackOffSince('k', clock.now())).toBe(false); // no entry: none
    b.next('k', clock.now());
    const event = clock.now();
    await clock.advance(9_999);
    expect(b.isInBackOffSince('k', event)).toBe(true);
    expect(b.isInBackOffSinceUpdate('k', clock.now())).toBe(true);
    await clock.advance(1);
    expect(b.isInBackOffSince('k', event)).toBe(false);
    expect(b.isInBackOffSinceUpdate('k', clock.now())).toBe(false);
  });

  it('starts over once an event comes more than twice the cap after the last next() (hasExpired)', async () => {
    const clock = new FakeClock(1_000_000);
    const b = new Backoff(10_000, MAX, clock);
    for (let i = 0; i < 3; i++) b.next('k', clock.now()); // 40 s
    const last = clock.now();
    await clock.advance(2 * MAX + 1);
    expect(b.isInBackOffSince('k', clock.now())).toBe(false); // an event after the quiet period: no back-off
    b.next('k', last + 2 * MAX); // exactly twice the cap: not yet
    expect(b.get('k')).toBe(80_000);
    await clock.advance(2 * MAX + 1);
    b.next('k', clock.now());
    expect(b.get('k')).toBe(10_000);
  });

  it('gc() forgets the keys not moved on for more than twice the cap; forget() a prefix\'s', async () => {
    const clock = new FakeClock(1_000_000);
    const b = new Backoff(10_000, MAX, clock);
    b.next('u1/a', clock.now());
    await clock.advance(2 * MAX);
    b.next('u1/b', clock.now());
    b.next('u2/a', clock.now());
    b.gc();
    expect(b.get('u1/a')).toBe(10_000);
    await clock.advance(1);
    b.gc();
    expect([b.get('u1/a'), b.get('u1/b')]).toEqual([0, 10_000]);
    b.forget('u1/');
    expect([b.get('u1/b'), b.get('u2/a')]).toEqual([0, 10_000]);
  });
});
